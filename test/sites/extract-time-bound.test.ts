// Custom extraction's time bound in a batch (issue 21 §6; docs/sites.md "Custom extraction",
// "The time bound"), on SQLite and PostgreSQL with the real job engine and fetcher against a
// fixture site on 127.0.0.1: a pathological XPath (`//*[count(//*) > 0]`, minutes of work on a
// page of 20,000 elements) is stopped on the big page at the batch's limit (1 s here), the
// batch goes on and ends, the big page keeps its other extractors' values and says which one
// timed out (extract_errors in GET /batches/{id}/pages and the JSON export, an empty CSV cell,
// "timed out" in the pages table); the small pages get every value.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { Browser } from '../helpers/browser.js';
import { parseCsv } from '../helpers/csv.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><script>var gtm = 'GTM-${title.toUpperCase()}';</script></head><body><h1>${title}</h1>${body}<p><a href="/">Home</a> <a href="/big">Big</a> <a href="/small">Small</a></p></body></html>`;

const EXTRACTORS = [
  { name: 'heading', css: 'h1' },
  { name: 'slow', xpath: '//*[count(//*) > 0]' },
  { name: 'title', xpath: '//title' },
  { name: 'gtm', regex: "GTM-([A-Z0-9]+)'" },
];
const LIMIT_MS = 1000;

interface ApiPage {
  url: string;
  state: string;
  extracted: Record<string, string | string[] | null>;
  extract_errors: Record<string, string>;
}

describeEachDialect('custom extraction: the time bound', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let site: FixtureServer;
  let alice: TestUser;

  before(async () => {
    app = await startBatchApp(dialect, { config: { extractTimeoutMs: LIMIT_MS } });
    t = app.t;
    site = await startFixtureServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': html(page('Home', '<p>Welcome.</p>')),
      '/big': html(page('Big', '<p class="i">item</p>'.repeat(20_000))),
      '/small': html(page('Small', '<p class="i">one</p>')),
    });
    alice = await buildUser(t.services, 'alice');
  });
  after(async () => {
    await app?.close();
    await site?.close();
  });

  const get = (url: string) => t.request({ method: 'GET', url, headers: alice.auth });

  test('a pathological XPath is stopped on the big page; the batch ends and the other values are kept', async () => {
    const started = Date.now();
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/batches',
      headers: { ...alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({
        url: `http://shop.test:${site.port}/`,
        mode: 'crawl',
        extractors: EXTRACTORS,
      }),
    });
    assert.equal(res.statusCode, 202, res.body);
    const id = (res.json() as { data: { id: number } }).data.id;
    const b = await batchEnded(t, alice.id, id, 90_000);
    assert.equal(b.status, 'done', JSON.stringify(b));
    assert.deepEqual(b.progress, { discovered: 3, audited: 3, failed: 0, skipped: 0, remaining: 0 });
    // the XPath alone would hold the worker for minutes on /big
    const took = Date.now() - started;
    assert.ok(took < 60_000, `the batch took ${took} ms`);

    const listed = await get(`/api/v1/batches/${id}/pages?sort_by=url&per_page=10`);
    assert.equal(listed.statusCode, 200, listed.body);
    const pages = Object.fromEntries(
      (listed.json() as { data: ApiPage[] }).data.map((p) => [new URL(p.url).pathname, p]),
    );
    assert.deepEqual(pages['/big']!.extracted, { heading: 'Big', slow: null, title: 'Big', gtm: 'BIG' });
    assert.deepEqual(Object.keys(pages['/big']!.extract_errors), ['slow']);
    assert.match(
      pages['/big']!.extract_errors['slow']!,
      /^Timed out: the xpath extractor "slow" ran longer than 1 s on this page \(PAGEGRADE_EXTRACT_TIMEOUT_MS\) and was stopped\.$/,
    );
    // the small pages: every value (the XPath is quick there: the first element's text), no error
    for (const [path, title] of [
      ['/', 'Home'],
      ['/small', 'Small'],
    ] as const) {
      assert.equal(pages[path]!.extracted['heading'], title, path);
      assert.equal(pages[path]!.extracted['gtm'], title.toUpperCase(), path);
      assert.equal(typeof pages[path]!.extracted['slow'], 'string', path);
      assert.deepEqual(pages[path]!.extract_errors, {}, path);
    }

    // the JSON export says the same; the CSV's cell is empty
    const json = await get(`/api/v1/batches/${id}/export?format=json`);
    const exported = (json.json() as { pages: ApiPage[] }).pages.find((p) => p.url.endsWith('/big'))!;
    assert.deepEqual(exported.extract_errors, pages['/big']!.extract_errors);
    const csv = parseCsv((await get(`/api/v1/batches/${id}/export?format=csv`)).body);
    const row = csv.find((r) => r['url']!.endsWith('/big'))!;
    assert.equal(row['slow'], '');
    assert.equal(row['heading'], 'Big');

    // the dashboard's pages table: the cell says so, the error in its title
    const browser = new Browser(t.app);
    await browser.login(alice.key);
    const shown = await browser.get(`/dashboard/batches/${id}?search=big`);
    assert.equal(shown.statusCode, 200);
    assert.match(
      shown.body,
      /<span class="muted" title="Timed out: the xpath extractor &quot;slow&quot;[^"]*">timed out<\/span>/,
    );
  });
});
