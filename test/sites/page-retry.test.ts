// A page whose connection fails is asked once more (docs/sites.md "How it works"): a crawl on
// SQLite and PostgreSQL, worked by the real job engine, of a site whose /flaky page resets the
// connection the first time it is asked (a worker whose network has just come back, a server
// restarting) and whose /dead page resets it every time. /flaky is audited, /dead fails with the
// reason; each is requested exactly twice, and the fine pages once.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { describeEachDialect } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser } from '../helpers/factories.js';
import { goodPage, html } from '../helpers/fixture-server.js';

describeEachDialect('a page whose connection fails is asked once more', (dialect) => {
  let app: BatchApp;
  const hits = new Map<string, number>();
  before(async () => {
    app = await startBatchApp(dialect, { config: { crawlDelayMs: 0 } });
    const f = app.t.fixture;
    const origin = app.t.site('flaky');
    f.server.prependListener('request', (req: IncomingMessage) => {
      const path = req.url ?? '';
      hits.set(path, (hits.get(path) ?? 0) + 1);
    });
    f.route(
      '/',
      html(
        goodPage(origin, '<p><a href="/flaky">Flaky</a> <a href="/dead">Dead</a> <a href="/fine">Fine</a></p>'),
      ),
    );
    f.route('/fine', html(goodPage(origin)));
    let flakyAsked = 0;
    f.route('/flaky', (req: IncomingMessage, res: ServerResponse) => {
      flakyAsked += 1;
      if (flakyAsked === 1) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(goodPage(origin));
    });
    f.route('/dead', (req: IncomingMessage) => void req.socket.destroy());
  });
  after(() => app?.close());

  test('the flaky page is audited, the dead one fails with why; each asked twice', async () => {
    const user = await buildUser(app.t.services);
    const created = await app.t.services.batches.create(user.id, {
      url: `${app.t.site('flaky')}/`,
      mode: 'crawl',
      maxPages: 10,
    });
    const b = await batchEnded(app.t, user.id, created.id, 60_000);
    assert.equal(b.status, 'done', b.error ?? '');
    // audited: /, /flaky, /fine; failed: /dead, and /soil (the good page's link to a 404)
    assert.deepEqual(
      { audited: b.progress.audited, failed: b.progress.failed },
      { audited: 3, failed: 2 },
      JSON.stringify(b.progress),
    );
    const failures = await app.t.services.batches.failures(user.id, created.id, { page: 1, perPage: 10 });
    assert.deepEqual(
      failures.items.map((x) => [new URL(x.url).pathname, x.state, x.reason]),
      [
        ['/soil', 'failed', 'The page answered HTTP 404.'],
        ['/dead', 'failed', 'The connection to flaky.test was closed before the page was received.'],
      ],
    );
    assert.equal(hits.get('/flaky'), 2, 'the flaky page asked twice');
    assert.equal(hits.get('/dead'), 2, 'the dead page asked twice, then failed');
    assert.equal(hits.get('/fine'), 1, 'a fine page asked once');
  });
});
