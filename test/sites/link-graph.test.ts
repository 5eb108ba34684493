// The link graph and its findings (issue 21 §1; docs/sites.md "The link graph"), end to end on
// SQLite and PostgreSQL: a crawl of a loopback fixture site with a redirect chain, a redirect
// loop, a nofollow internal link, a dead end, a chain of deep pages and a page linked once,
// beside pages that are fine — each link finding lists exactly the planted pages; the links
// API's filters (source, target, status, internal) and paging; the CSV; one URL's inlinks and
// anchors; another organisation's batch is a 404; deleting the batch removes its links.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { crawlFindings, startBatchApp, type BatchApp, type ExportFinding } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { Browser } from '../helpers/browser.js';
import { computeFindings, type PageForFindings } from '../../src/crawl/findings/index.js';
import type { PageFacts } from '../../src/crawl/facts.js';

/** a loopback URL of another host name: external to the site (never requested by the crawl) */
const EXTERNAL = 'http://localhost:9/elsewhere';

async function plantedSite(): Promise<FixtureServer> {
  const s = await startFixtureServer();
  const page = (path: string, links: string[]) =>
    s.route(path, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Title of ${path}</title></head><body><h1>${path}</h1><p>${links.join(' ')}</p></body></html>`,
    });
  const a = (href: string, text: string, rel = '') =>
    `<a href="${href}"${rel ? ` rel="${rel}"` : ''}>${text}</a>`;
  const redirect = (from: string, to: string, status = 301) =>
    s.route(from, { status, headers: { location: to }, body: '' });
  page('/', [
    a('/a', 'Alpha'),
    a('/b', 'Beta'),
    a('/chain-start', 'Chain'),
    a('/loop-a', 'Loop'),
    a('/dead', 'Dead end'),
    a('/d1', 'Deep'),
    a('/hidden', 'Hidden', 'nofollow'),
    a(EXTERNAL, 'Elsewhere', 'noopener'),
  ]);
  page('/a', [a('/', 'Home'), a('/b', 'Beta'), a('/d1', 'Deep')]);
  page('/b', [a('/', 'Home'), a('/a', 'Alpha'), a('/dead', 'Dead end'), a('/moved', 'Moved')]);
  // one redirect (fine here), two in a row (a chain), and a loop
  redirect('/moved', '/a');
  redirect('/chain-start', '/chain-mid');
  redirect('/chain-mid', '/chain-end');
  page('/chain-end', [a('/', 'Home'), a('/a', 'Alpha page')]);
  redirect('/loop-a', '/loop-b', 302);
  redirect('/loop-b', '/loop-a', 302);
  page('/dead', []);
  page('/hidden', [a('/', 'Home')]);
  // /d1 … /d6: depth 1 … 6, each linked from the one before and the one after; /d6 from /d5 only
  for (let i = 1; i <= 6; i++)
    page(`/d${i}`, [
      a('/', 'Home'),
      ...(i > 1 ? [a(`/d${i - 1}`, 'Up')] : []),
      ...(i < 6 ? [a(`/d${i + 1}`, 'Down')] : []),
    ]);
  return s;
}

interface LinkJson {
  source: string;
  target: string;
  anchor: string;
  rel: string | null;
  nofollow: boolean;
  internal: boolean;
  target_status: number | null;
}

describeEachDialect('the link graph of a crawl', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let other: TestUser;
  let site: FixtureServer;
  let id: number;
  /** the crawl's findings, from its JSON export */
  let findings: ExportFinding[];
  const u = (p: string) => `${site.origin}${p}`;
  const get = (url: string, who = user) => t.request({ method: 'GET', url, headers: who.auth });

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    user = await buildUser(t.services);
    other = await buildUser(t.services);
    site = await plantedSite();
    ({ id, findings } = await crawlFindings(t, user, {
      url: `${site.origin}/`,
      mode: 'crawl',
      max_pages: 100,
    }));
  });
  after(async () => {
    await app?.close();
    await site?.close();
  });

  test('each link finding lists exactly the planted pages, with the detail', async () => {
    const of = (fid: string) => {
      const f = findings.find((x) => x.id === fid);
      assert.ok(f, fid);
      return f;
    };
    const pagesOf = (fid: string) => [...new Set(of(fid).pages.map((p) => p.url))].sort();
    const expected: Record<string, string[]> = {
      redirect_chains: ['/'],
      redirect_loops: ['/'],
      http_links_on_https: [],
      internal_nofollow: ['/'],
      dead_ends: ['/dead'],
      deep_pages: ['/d5', '/d6'],
      single_inlink: ['/d6'],
    };
    for (const [fid, paths] of Object.entries(expected))
      assert.deepEqual(pagesOf(fid), paths.map(u).sort(), fid);
    const detail = (fid: string) => of(fid).pages.map((p) => p.detail);
    assert.deepEqual(detail('redirect_chains'), [
      `${u('/chain-start')} → ${u('/chain-mid')} → ${u('/chain-end')} (2 redirects)`,
    ]);
    assert.deepEqual(detail('redirect_loops'), [
      `links to ${u('/loop-a')}: ${u('/loop-a')} → ${u('/loop-b')} → ${u('/loop-a')}`,
    ]);
    assert.deepEqual(detail('internal_nofollow'), [`${u('/hidden')} ("Hidden")`]);
    assert.deepEqual(detail('deep_pages'), ['depth 5', 'depth 6']);
    assert.deepEqual(detail('single_inlink'), [`only linked from ${u('/d5')}`]);
    assert.equal(of('redirect_loops').priority, 'high');
    // the loop was not followed round and round: each of its URLs requested once
    assert.equal(site.requests.filter((r) => r === '/loop-b').length, 1);
    // the external link was never requested (the crawl stays on the site)
  });

  test('GET …/links: every link with its anchor, rel, internal and target status; filters and paging', async () => {
    type List = { data: LinkJson[]; meta: { total: number; last_page: number; per_page: number } };
    const list = async (q: string) => {
      const res = await get(`/api/v1/batches/${id}/links${q}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as List;
    };
    const src = encodeURIComponent(u('/'));
    const home = await list(`?source=${src}&per_page=100`);
    assert.equal(home.meta.total, 8);
    assert.deepEqual(
      home.data.map((l) => [l.target, l.anchor, l.rel, l.nofollow, l.internal, l.target_status]),
      [
        [u('/a'), 'Alpha', null, false, true, 200],
        [u('/b'), 'Beta', null, false, true, 200],
        [u('/chain-start'), 'Chain', null, false, true, 301],
        [u('/loop-a'), 'Loop', null, false, true, null],
        [u('/dead'), 'Dead end', null, false, true, 200],
        [u('/d1'), 'Deep', null, false, true, 200],
        [u('/hidden'), 'Hidden', 'nofollow', true, true, null],
        [EXTERNAL, 'Elsewhere', 'noopener', false, false, null],
      ],
    );
    // the target filter (a fragment and tracking parameters are the same URL)
    const toA = await list(`?target=${encodeURIComponent(`${u('/a')}#top`)}&per_page=100`);
    assert.deepEqual(toA.data.map((l) => l.source).sort(), [u('/'), u('/b'), u('/chain-end')].sort());
    assert.ok(toA.data.every((l) => l.target === u('/a')));
    // by the target's status: one, a class, none
    const redirects = await list('?status=3xx&per_page=100');
    assert.deepEqual(redirects.data.map((l) => l.target).sort(), [u('/chain-start'), u('/moved')].sort());
    assert.deepEqual((await list('?status=301&per_page=100')).meta.total, 2);
    const none = await list('?status=none&per_page=100');
    assert.deepEqual(
      [...new Set(none.data.map((l) => l.target))].sort(),
      [EXTERNAL, u('/hidden'), u('/loop-a')].sort(),
    );
    assert.equal((await list('?status=404')).meta.total, 0);
    // internal or not
    const external = await list('?internal=false');
    assert.deepEqual(
      external.data.map((l) => [l.source, l.target]),
      [[u('/'), EXTERNAL]],
    );
    const all = await list('?per_page=100');
    const internal = await list('?internal=true&per_page=100');
    assert.equal(internal.meta.total, all.meta.total - 1);
    // paging: the pages of 10 are the whole list, in order, once
    const pages: LinkJson[] = [];
    const first = await list('?per_page=10');
    for (let p = 1; p <= first.meta.last_page; p++)
      pages.push(...(await list(`?per_page=10&page=${p}`)).data);
    assert.equal(pages.length, all.meta.total);
    assert.deepEqual(pages, all.data);
    // a URL the batch has never seen: nothing
    assert.equal((await list(`?source=${encodeURIComponent(u('/nowhere'))}`)).meta.total, 0);
    // bad input: 422 naming the field and what it allows
    const bad = await get(`/api/v1/batches/${id}/links?status=4x4`);
    assert.equal(bad.statusCode, 422);
    assert.match(JSON.stringify(bad.json()), /status.*4xx.*none/);
    const badInternal = await get(`/api/v1/batches/${id}/links?internal=yes`);
    assert.equal(badInternal.statusCode, 422);
    assert.match(JSON.stringify(badInternal.json()), /internal must be one of: true, false/);
  });

  test('format=csv: the whole graph (filtered), one row per link', async () => {
    const res = await get(`/api/v1/batches/${id}/links?format=csv`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), new RegExp(`batch-${id}-links\\.csv`));
    const lines = res.body.trim().split('\n');
    assert.equal(lines[0], 'source,target,anchor,rel,nofollow,internal,target_status');
    const total = (
      (await get(`/api/v1/batches/${id}/links?per_page=10`)).json() as { meta: { total: number } }
    ).meta.total;
    assert.equal(lines.length, total + 1);
    assert.ok(lines.includes(`${u('/')},${EXTERNAL},Elsewhere,noopener,false,false,`));
    assert.ok(lines.includes(`${u('/')},${u('/chain-start')},Chain,,false,true,301`));
    const filtered = await get(`/api/v1/batches/${id}/links?format=csv&internal=false`);
    assert.equal(filtered.body.trim().split('\n').length, 2);
  });

  test("GET …/links/page: a page's inlinks, outlinks, depth and top anchors", async () => {
    const res = await get(`/api/v1/batches/${id}/links/page?url=${encodeURIComponent(u('/a'))}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((res.json() as { data: unknown }).data, {
      url: u('/a'),
      depth: 1,
      state: 'done',
      status_code: 200,
      inlinks: 3,
      inlinking_pages: 3,
      outlinks: 3,
      internal_outlinks: 3,
      external_outlinks: 0,
      top_anchors: [
        { text: 'Alpha', count: 2 },
        { text: 'Alpha page', count: 1 },
      ],
    });
    const home = (
      (await get(`/api/v1/batches/${id}/links/page?url=${encodeURIComponent(u('/'))}`)).json() as {
        data: { outlinks: number; internal_outlinks: number; external_outlinks: number; depth: number };
      }
    ).data;
    assert.deepEqual(
      [home.depth, home.outlinks, home.internal_outlinks, home.external_outlinks],
      [0, 8, 7, 1],
    );
    // a link target that is no page of the batch: its inlinks, no page
    const ext = (
      (await get(`/api/v1/batches/${id}/links/page?url=${encodeURIComponent(EXTERNAL)}`)).json() as {
        data: { depth: number | null; inlinks: number; top_anchors: unknown };
      }
    ).data;
    assert.deepEqual([ext.depth, ext.inlinks, ext.top_anchors], [null, 1, [{ text: 'Elsewhere', count: 1 }]]);
    const missing = await get(`/api/v1/batches/${id}/links/page?url=${encodeURIComponent(u('/nowhere'))}`);
    assert.equal(missing.statusCode, 404);
  });

  test("the dashboard: the batch page links each page's inlinks; the links view filters and sums up a target", async () => {
    const b = new Browser(t.app);
    await b.login(user.key);
    const batchPage = await b.get(`/dashboard/batches/${id}`);
    assert.equal(batchPage.statusCode, 200);
    assert.match(batchPage.body, new RegExp(`href="/dashboard/batches/${id}/links">Links</a>`));
    const rowLink = `/dashboard/batches/${id}/links?target=${encodeURIComponent(u('/a'))}`;
    assert.ok(batchPage.body.includes(`href="${rowLink}"`), 'a row links its inlinks');
    const view = await b.get(rowLink);
    assert.equal(view.statusCode, 200);
    assert.match(view.body, /<span data-inlinks="3">3 inlinks<\/span> from 3 pages/);
    assert.match(
      view.body,
      /<li>Alpha <span class="muted">× 2<\/span><\/li><li>Alpha page <span class="muted">× 1<\/span><\/li>/,
    );
    const rows = (body: string) => (body.match(/<tr><td>/g) ?? []).length;
    assert.equal(rows(view.body), 3);
    const external = await b.get(`/dashboard/batches/${id}/links?internal=false`);
    assert.equal(rows(external.body), 1);
    assert.match(external.body, /\(external\)/);
    const bad = await b.get(`/dashboard/batches/${id}/links?status=teapot`);
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /The filters were not applied/);
    // another organisation: the not-found page
    const ob = new Browser(t.app);
    await ob.login(other.key);
    assert.equal((await ob.get(`/dashboard/batches/${id}/links`)).statusCode, 404);
  });

  test("another organisation's batch is a 404; deleting the batch removes its links", async () => {
    assert.equal((await get(`/api/v1/batches/${id}/links`, other)).statusCode, 404);
    assert.equal((await get(`/api/v1/batches/${id}/links?format=csv`, other)).statusCode, 404);
    assert.equal(
      (await get(`/api/v1/batches/${id}/links/page?url=${encodeURIComponent(u('/a'))}`, other)).statusCode,
      404,
    );
    const db = t.database.db;
    const count = async (table: 'batch_links' | 'batch_link_urls') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('batch_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    assert.ok((await count('batch_links')) > 0);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/batches/${id}`, headers: user.auth });
    assert.equal(del.statusCode, 200, del.body);
    assert.equal(await count('batch_links'), 0);
    assert.equal(await count('batch_link_urls'), 0);
  });
});

test('http_links_on_https: an https page linking to an http page of the site; http pages and https links are fine', () => {
  const facts = (links: string[]): PageFacts => ({
    title: 't',
    description: null,
    canonical: null,
    hreflang: [],
    noindex: false,
    links,
    nofollow: [],
    redirected: false,
    result: 'good',
    score: 90,
    failed: [],
    totalMs: 1,
    htmlBytes: 1,
  });
  const done = (url: string, links: string[]): PageForFindings => ({
    url,
    state: 'done',
    inSitemap: false,
    statusCode: 200,
    finalUrl: url,
    error: null,
    facts: facts(links),
  });
  const pages = [
    done('https://example.com/', [
      'https://example.com/a',
      'http://example.com/old',
      'http://www.example.com/b',
    ]),
    done('https://example.com/a', ['https://example.com/']),
    done('http://example.com/old', ['http://example.com/']),
  ];
  const f = computeFindings(pages, 'https://example.com/').find((x) => x.id === 'http_links_on_https')!;
  assert.equal(f.priority, 'medium');
  assert.deepEqual(f.pages, [
    { url: 'https://example.com/', detail: 'http://example.com/old' },
    { url: 'https://example.com/', detail: 'http://www.example.com/b' },
  ]);
  assert.equal(f.count, 1);
});
