// The dashboard's compare view (docs/sites.md, "Comparing crawls"), rendered with real data: two
// crawls of a fixture site on 127.0.0.1 that changes in between, worked by the real job engine
// on SQLite and PostgreSQL. The batch page links "Compare with previous crawl"; the view shows
// the site score before and after, the verdict and its reasons, the findings' states and the
// pages added, removed and changed; the project's view compares its last two crawls; the first
// crawl says there is nothing to compare with; a `from` of another user is refused in words;
// another user's batch is the not-found page. Custom extraction: a page whose extracted price
// changed is a changed page, its value before and after on its line.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { Browser } from '../helpers/browser.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { waitFor } from '../helpers/queues.js';

const page = (title: string, links: string[], head = '') =>
  html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1><p>${'Words about the page. '.repeat(10)}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`,
  );

describeEachDialect('the compare view', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let site: FixtureServer;
  let alice: TestUser;
  let bob: TestUser;
  let b: Browser;
  let first: number;
  let second: number;

  const crawl = async (
    user: TestUser,
    origin = site.origin,
    extractors?: { name: string; css: string }[],
  ) => {
    const batch = await t.services.batches.create(user.id, {
      url: `${origin}/`,
      mode: 'crawl',
      ...(extractors ? { extractors } : {}),
    });
    await waitFor(
      async () => {
        const x = await t.services.batches.get(user.id, batch.id);
        return x.status === 'queued' || x.status === 'running' ? null : x;
      },
      `batch ${batch.id} to end`,
      60_000,
    );
    return batch.id;
  };

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    site = await startFixtureServer();
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
    b = new Browser(t.app);
    await b.login(alice.key);
    site.route('/', page('Home', ['/a', '/b', '/c', '/d']));
    site.route('/a', page('Apples', ['/']));
    site.route('/b', page('Bananas', ['/']));
    site.route('/c', page('Cherries', ['/']));
    site.route('/d', page('Dates', ['/']));
    first = await crawl(alice);
    site.route('/', page('Home', ['/a', '/b', '/c', '/e']));
    site.route('/a', page('Apricots', ['/']));
    site.route('/b', page('Bananas', ['/', '/missing']));
    site.route('/c', page('Cherries', ['/'], '<meta name="robots" content="noindex">'));
    site.route('/d', { status: 404, body: 'gone' });
    site.route('/e', page('Elderberries', ['/']));
    second = await crawl(alice);
  });
  after(async () => {
    await app?.close();
    await site?.close();
  });

  test('the batch page links the compare view, which shows the two crawls compared', async () => {
    const batchPage = await b.get(`/dashboard/batches/${second}`);
    assert.equal(batchPage.statusCode, 200);
    assert.match(
      batchPage.body,
      new RegExp(
        `<a class="button" href="/dashboard/batches/${second}/compare">Compare with previous crawl</a>`,
      ),
    );

    const res = await b.get(`/dashboard/batches/${second}/compare`);
    assert.equal(res.statusCode, 200, res.body);
    const o = site.origin;
    assert.match(res.body, /<h1>Compare crawls<\/h1>/);
    assert.match(
      res.body,
      new RegExp(
        `<a href="/dashboard/batches/${first}">crawl #${first}</a>.*→ <a href="/dashboard/batches/${second}">crawl #${second}</a>`,
        's',
      ),
    );
    assert.match(res.body, /<strong>Regressed\.<\/strong>/);
    assert.match(
      res.body,
      /Internal links to pages that answered 4xx\/5xx[^<]*\(broken_links\) on 1 page not concerned before/,
    );
    assert.match(res.body, /1 page newly noindex\./);
    assert.match(res.body, /<dt>Site score before<\/dt><dd>\d+ <span class="badge band-/);
    assert.match(res.body, /<dt>Pages added<\/dt><dd>2<\/dd>/);
    assert.match(res.body, /<dt>Pages removed<\/dt><dd>1<\/dd>/);
    assert.match(res.body, /<dt>Pages changed<\/dt><dd>2<\/dd>/);
    assert.match(
      res.body,
      /class="badge finding-state finding-state--new">New<\/span> <span class="finding__title">Internal links/,
    );
    assert.match(res.body, new RegExp(`${o}/b</span> <span class="muted">— ${o}/missing \\(404\\)`));
    const table = (id: string) =>
      new RegExp(`<table id="${id}">(.*?)</table>`, 's').exec(res.body)?.[1] ?? '';
    assert.match(table('pages-added'), new RegExp(`${o}/e<`));
    assert.match(table('pages-added'), new RegExp(`${o}/missing<`));
    assert.match(table('pages-removed'), new RegExp(`${o}/d<`));
    assert.match(table('pages-changed'), /title “Apples” → “Apricots”/);
    assert.match(table('pages-changed'), /now noindex/);
  });

  test("the project's view compares its last two crawls; the first crawl has nothing to compare with", async () => {
    const project = await b.get('/dashboard/projects/127.0.0.1/compare');
    assert.equal(project.statusCode, 200);
    assert.match(project.body, /<a href="\/dashboard\/projects">Projects<\/a> · 127\.0\.0\.1/);
    assert.match(
      project.body,
      new RegExp(`crawl #${first}</a>.*→ <a href="/dashboard/batches/${second}">crawl #${second}</a>`, 's'),
    );
    assert.match(project.body, /<strong>Regressed\.<\/strong>/);

    const none = await b.get('/dashboard/projects/nothing.example/compare');
    assert.equal(none.statusCode, 200);
    assert.match(none.body, /No finished crawl of nothing\.example yet/);

    const firstView = await b.get(`/dashboard/batches/${first}/compare`);
    assert.equal(firstView.statusCode, 200);
    assert.match(firstView.body, /the project&#39;s first finished crawl|the project's first finished crawl/);
  });

  test("a `from` of another user is refused in words; another user's batch is not found", async () => {
    const foreign = await crawl(bob);
    const res = await b.get(`/dashboard/batches/${second}/compare?from=${foreign}`);
    assert.equal(res.statusCode, 422);
    assert.match(res.body, new RegExp(`No batch ${foreign} of yours\\.`));
    assert.match(res.body, /<strong>Regressed\.<\/strong>/, 'compared with the previous crawl instead');
    const other = new Browser(t.app);
    await other.login(bob.key);
    const hidden = await other.get(`/dashboard/batches/${second}/compare`);
    assert.equal(hidden.statusCode, 404);
  });

  test('custom extraction: the page whose extracted value changed, with its value before and after', async () => {
    const carol = await buildUser(t.services, 'carol');
    const shop = await startFixtureServer();
    try {
      const product = (title: string, price: string) =>
        html(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${'Words about the page. '.repeat(10)}</p><a href="/">Home</a> <span class="price">${price}</span></body></html>`,
        );
      shop.route('/', page('Shop', ['/p1', '/p2']));
      shop.route('/p1', product('Product one', '€10.00'));
      shop.route('/p2', product('Product two', '€20.00'));
      const price = [{ name: 'price', css: '.price' }];
      const one = await crawl(carol, shop.origin, price);
      shop.route('/p1', product('Product one', '€12.00'));
      const two = await crawl(carol, shop.origin, price);
      const viewer = new Browser(t.app);
      await viewer.login(carol.key);
      const res = await viewer.get(`/dashboard/batches/${two}/compare`);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, new RegExp(`crawl #${one}</a>`));
      assert.match(res.body, /<dt>Extracted values changed<\/dt><dd>1 page<\/dd>/);
      assert.match(res.body, /Custom extraction compared: price \(the extractors both crawls have\)\./);
      const table = new RegExp('<table id="pages-changed">(.*?)</table>', 's').exec(res.body)?.[1] ?? '';
      const rows = table.split('<tr>').filter((r) => r.includes('<td'));
      assert.equal(rows.length, 1, table);
      assert.match(rows[0]!, new RegExp(`${shop.origin}/p1<br><span class="muted">extracted values</span>`));
      assert.match(rows[0]!, /price “€10\.00” → “€12\.00”/);
    } finally {
      await shop.close();
    }
  });
});
