// A rendered batch's failed requests in broken_resources (issue 21 §1: "in rendered batches the
// browser's failed requests count too"; docs/sites.md "Links and resources checked"), end to end
// on SQLite and PostgreSQL, in real headless Chromium, worked by the real job engine: a loopback
// site whose pages load, from script at run time (the HTML the server sends names none of them),
// an image and a fetch() that answer 404 and ones that work. The batch (render: true) lists in
// broken_resources exactly the pages whose browser saw a request fail, each with the URL and its
// status, and not the fine pages; the server counts the requests: the browser asks each URL once
// per page it renders, and the batch's end checks ask a URL at most once (HEAD) — an image the
// script put in the DOM is a resource of the rendered page, a fetch() URL is not in the DOM and
// is known from the browser alone.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, test } from 'node:test';
import type { Renderer } from '../../src/render/browser.js';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { testRenderer } from '../helpers/renderer.js';

/** a page whose script, once it runs, adds the images and asks the fetch() URLs given */
const page = (title: string, images: string[], fetches: string[], links: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} of the garden shop</title>
<meta name="description" content="${title}: spades, forks and rakes for every garden.">
<script>
addEventListener('DOMContentLoaded', () => {
  for (const src of ${JSON.stringify(images)}) {
    const img = document.createElement('img');
    img.src = src;
    img.alt = 'A photo';
    document.body.append(img);
  }
  for (const url of ${JSON.stringify(fetches)}) fetch(url).catch(() => {});
});
</script></head><body><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

describeEachDialect(
  'a rendered batch: the requests the browser saw fail',
  { skip: chromiumSkip },
  (dialect) => {
    let app: BatchApp;
    let t: TestApp;
    let renderer: Renderer;
    let user: TestUser;
    let site: FixtureServer;
    /** every request the site answered: method and path */
    const seen: string[] = [];
    let dead: string;
    const u = (p: string) => `${site.origin}${p}`;

    before(async () => {
      renderer = testRenderer({ concurrency: 2 });
      app = await startBatchApp(dialect, { renderer, config: { fetchTimeoutMs: 30_000 } });
      t = app.t;
      user = await buildUser(t.services);
      site = await startFixtureServer();
      // a port nothing listens on: a request there gets no answer at all
      const gone = await startFixtureServer();
      dead = gone.origin;
      await gone.close();
      site.server.prependListener('request', (req: IncomingMessage) => {
        seen.push(`${req.method} ${req.url}`);
      });
      const htmlOf = (body: string) => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body });
      // a 1×1 GIF
      const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
      site.route('/robots.txt', {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nAllow: /\n',
      });
      // the start page: a missing image and a missing fetch() beside fine ones
      site.route(
        '/',
        htmlOf(page('Home', ['/gone.png', '/fine.gif'], ['/api/missing', '/api/ok'], ['/a', '/b', '/c'])),
      );
      // fine: its image and its fetch() work
      site.route('/a', htmlOf(page('Spades', ['/fine.gif'], ['/api/ok'], ['/'])));
      // the missing fetch() alone, and one to a server that does not answer
      site.route('/b', htmlOf(page('Forks', [], ['/api/missing', '/api/ok', `${dead}/api/down`], ['/'])));
      // the missing image again (the end checks it once for the batch)
      site.route('/c', htmlOf(page('Rakes', ['/gone.png'], [], ['/'])));
      site.route('/fine.gif', { headers: { 'content-type': 'image/gif' }, body: gif });
      site.route('/api/ok', { headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
      // /gone.png and /api/missing: the fixture server's 404
    });

    after(async () => {
      await app?.close();
      await renderer?.close();
      await site?.close();
    });

    test('broken_resources lists exactly the pages whose browser saw a request fail, with its status', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: u('/'), mode: 'crawl', render: true, max_pages: 10 }),
      });
      assert.equal(res.statusCode, 202, res.body);
      const id = res.json().data.id as number;
      const batch = await batchEnded(t, user.id, id, 120_000);
      assert.equal(batch.status, 'done', JSON.stringify(batch));
      assert.deepEqual(batch.progress, { discovered: 4, audited: 4, failed: 0, skipped: 0, remaining: 0 });

      // every page was rendered, and the browser saw the missing requests where they are
      const reports = await t.request({
        url: `/api/v1/reports?batch=${id}&per_page=100`,
        headers: user.auth,
      });
      for (const r of reports.json().data as { id: number; url: string }[]) {
        const one = (await t.request({ url: `/api/v1/reports/${r.id}`, headers: user.auth })).json().data as {
          render?: { status: string; reason?: string };
        };
        assert.equal(one.render?.status, 'completed', `${r.url}: ${one.render?.reason}`);
      }

      const exported = await t.request({
        url: `/api/v1/batches/${id}/export?format=json`,
        headers: user.auth,
      });
      assert.equal(exported.statusCode, 200);
      const findings = (
        exported.json() as {
          findings: { id: string; priority: string; pages: { url: string; detail?: string }[] }[];
        }
      ).findings;
      const broken = findings.find((f) => f.id === 'broken_resources');
      assert.ok(broken, 'broken_resources is a finding of the batch');
      assert.equal(broken.priority, 'high');
      const rows = broken.pages.map((p) => `${p.url.replace(site.origin, '')} ${p.detail ?? ''}`).sort();
      // a request that got no answer: the browser's reason (the network's error), no status
      const down = rows.findIndex((r) => r.startsWith(`/b ${dead}/api/down `));
      assert.ok(down !== -1, rows.join('\n'));
      assert.match(rows[down]!, /\(in the browser: \D.*ECONNREFUSED.*\)$/);
      rows.splice(down, 1);
      assert.deepEqual(rows, [
        // a fetch() is not in the DOM: what the browser saw
        `/ ${u('/api/missing')} (in the browser: 404)`,
        // the image the script put in the DOM is a resource of the rendered page: the end's check says 404
        `/ ${u('/gone.png')} (image: 404)`,
        `/b ${u('/api/missing')} (in the browser: 404)`,
        `/c ${u('/gone.png')} (image: 404)`,
      ]);
      // the fine pages and the fine requests are in no finding
      const all = JSON.stringify(findings);
      for (const fine of ['/fine.gif', '/api/ok'])
        assert.ok(!all.includes(u(fine)), `${fine} is in no finding`);
      assert.ok(!broken.pages.some((p) => p.url === u('/a')), '/a is fine');

      // the requests: the browser asks each URL once per page it renders; the end checks a URL
      // of the DOM once (HEAD) for the whole batch, and never a fetch() URL
      const count = (line: string) => seen.filter((s) => s === line).length;
      assert.equal(count('GET /gone.png'), 2, 'the browser of / and /c');
      assert.equal(count('GET /api/missing'), 2, 'the browser of / and /b');
      assert.equal(count('GET /api/ok'), 3, 'the browser of /, /a and /b');
      assert.equal(count('HEAD /gone.png'), 1, 'the end checks the missing image once');
      assert.equal(count('HEAD /fine.gif'), 1, 'the end checks the fine image once');
      assert.equal(count('HEAD /api/missing'), 0, 'a fetch() URL is not a resource of the DOM');
      assert.equal(count('HEAD /api/ok'), 0);
    });
  },
);
