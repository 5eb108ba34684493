// The batch page's pages table paged by the database (docs/sites.md, "On the dashboard"), on
// SQLite and PostgreSQL with the real job engine and the generated fixture site: every filter
// and order, page by page, gives exactly the rows the former in-memory table gave (the oracle
// below sorts all the pages in JavaScript); page 2 continues page 1; the page shows page 2's
// rows; a running batch's table shows its audited pages before the end; a view of a large
// batch reads one page of rows (the count of rows is the batch's, the rows 25).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { Browser } from '../helpers/browser.js';
import { waitFor } from '../helpers/queues.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { insertPages } from '../../src/store/batch-frontier.repository.js';
import type { BatchPageResult, BatchPagesQuery } from '../../src/services/batches/types.js';

const RESULT_ORDER = { good: 0, decent: 1, bad: 2 } as const;

/** The former in-memory table (src/pages/batch-table.ts before the database paged it): the oracle. */
function oracle(pages: readonly BatchPageResult[], q: BatchPagesQuery): { urls: string[]; total: number } {
  const search = q.search?.toLowerCase();
  const rows = pages
    .map((p, i) => ({ p, i }))
    .filter(
      ({ p }) =>
        (search === undefined || p.url.toLowerCase().includes(search)) &&
        (q.state === undefined || p.state === q.state) &&
        (q.result === undefined || (p.state === 'done' && p.facts?.result === q.result)),
    );
  const sortBy = q.sortBy ?? 'found';
  const dir = q.sort === 'desc' ? -1 : 1;
  const key = (p: BatchPageResult): number | string | null => {
    if (sortBy === 'url') return p.url;
    if (sortBy === 'status') return p.statusCode;
    if (p.state !== 'done' || !p.facts) return null;
    return sortBy === 'score' ? p.facts.score : RESULT_ORDER[p.facts.result];
  };
  rows.sort((a, b) => {
    if (sortBy !== 'found') {
      const ka = key(a.p);
      const kb = key(b.p);
      if (ka === null && kb !== null) return 1;
      if (kb === null && ka !== null) return -1;
      if (ka !== null && kb !== null && ka !== kb) return (ka < kb ? -1 : 1) * dir;
    }
    return (a.i - b.i) * dir;
  });
  const perPage = q.perPage ?? 25;
  const page = q.page ?? 1;
  return {
    urls: rows.slice((page - 1) * perPage, page * perPage).map((r) => r.p.url),
    total: rows.length,
  };
}

const rowUrls = (body: string) =>
  [
    ...body.matchAll(
      /<tr class="batch-page batch-page--\w+">\s*<td>(?:<a href="\/reports\/\d+" class="break">|<span class="break">)([^<]+)</g,
    ),
  ].map((m) => m[1]!);

describeEachDialect('the batch pages table, paged by the database', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let site: FixtureSite;
  let slow: FixtureSite;
  let alice: TestUser;
  let b: Browser;
  let doneId: number;

  before(async () => {
    app = await startBatchApp(dialect, { config: { batchMaxPages: 500 } });
    t = app.t;
    site = await startFixtureSite({ pages: 40, crawlDelay: null });
    slow = await startFixtureSite({ pages: 30, crawlDelay: null, latencyMs: 300, plain: true });
    alice = await buildUser(t.services, 'alice');
    b = new Browser(t.app);
    await b.login(alice.key);
    const batch = await t.services.batches.create(alice.id, {
      url: `${site.origin}/`,
      mode: 'crawl',
      maxPages: 200,
    });
    doneId = (await batchEnded(t, alice.id, batch.id)).id;
  });
  after(async () => {
    await app?.close();
    await site?.close();
    await slow?.close();
  });

  test('every filter and order, page by page, as the in-memory table had them', async () => {
    const all = (await t.services.batches.results(alice.id, doneId)).pages;
    assert.ok(all.length > 40, `${all.length} pages`);
    assert.ok(new Set(all.map((p) => p.state)).size >= 2, 'pages in several states');
    const queries: BatchPagesQuery[] = [];
    for (const sortBy of ['found', 'url', 'score', 'result', 'status'] as const)
      for (const sort of ['asc', 'desc'] as const)
        for (const page of [1, 2, 3]) queries.push({ sortBy, sort, perPage: 10, page });
    queries.push(
      { state: 'done', sortBy: 'score', sort: 'desc', perPage: 10, page: 2 },
      { state: 'failed', perPage: 10 },
      { result: 'good', sortBy: 'url', perPage: 10 },
      { result: 'bad', perPage: 100 },
      { search: '/P/1', sortBy: 'url', sort: 'desc', perPage: 10 },
      { search: '100%_', perPage: 10 },
      { perPage: 10, page: 99 },
    );
    for (const q of queries) {
      const view = await t.services.batches.view(alice.id, doneId, q);
      const want = oracle(all, q);
      assert.equal(view.table.total, want.total, JSON.stringify(q));
      assert.deepEqual(
        view.table.items.map((p) => p.url),
        want.urls,
        JSON.stringify(q),
      );
    }
    const view = await t.services.batches.view(alice.id, doneId, {});
    assert.equal(view.reportsCount, all.filter((p) => p.reportId !== null).length);
    assert.ok(
      view.findings.some((f) => f.id === 'broken_links' && f.count > 0),
      'the stored findings',
    );
  });

  test("the page: page 2 shows the rows after page 1's, and links back", async () => {
    const all = (await t.services.batches.results(alice.id, doneId)).pages;
    const first = await b.get(`/dashboard/batches/${doneId}?per_page=10`);
    const second = await b.get(`/dashboard/batches/${doneId}?per_page=10&page=2`);
    assert.equal(second.statusCode, 200);
    assert.deepEqual(
      rowUrls(first.body),
      all.slice(0, 10).map((p) => p.url),
    );
    assert.deepEqual(
      rowUrls(second.body),
      all.slice(10, 20).map((p) => p.url),
    );
    assert.match(second.body, new RegExp(`11–20 of ${all.length}<`));
    assert.match(second.body, /Page 2 of \d+/);
    assert.match(
      second.body,
      /href="\/dashboard\/batches\/\d+\?per_page=10&amp;page=1#pages-title" rel="prev"/,
    );
  });

  test("a running batch's table shows its audited pages before the end", async () => {
    const batch = await t.services.batches.create(alice.id, {
      url: `${slow.origin}/`,
      mode: 'crawl',
      maxPages: 30,
    });
    const seen = await waitFor(
      async () => {
        const res = await b.get(`/dashboard/batches/${batch.id}?state=done`);
        const urls = rowUrls(res.body);
        return urls.length >= 2 ? { res, urls } : null;
      },
      'audited pages in the table',
      30_000,
    );
    const now = await t.services.batches.get(alice.id, batch.id);
    assert.ok(['queued', 'running'].includes(now.status), `still ${now.status}`);
    assert.ok(seen!.urls.every((u) => u.startsWith(slow.origin)));
    assert.match(seen!.res.body, /data-batch-events=/, 'the page still follows it');
    const view = await t.services.batches.view(alice.id, batch.id, {});
    assert.deepEqual(view.findings, [], 'no findings computed while it runs');
    await t.services.batches.cancel(alice.id, batch.id);
    await batchEnded(t, alice.id, batch.id);
  });

  test('a large batch: a view reads one page of rows', async () => {
    // 5,000 queued pages added to the finished batch as the frontier writes them
    const n = 5_000;
    const urls = Array.from({ length: n }, (_, i) => `${site.origin}/bulk/${String(i).padStart(5, '0')}`);
    for (let i = 0; i < n; i += 500)
      await insertPages(
        t.database.db,
        doneId,
        urls.slice(i, i + 500).map((url) => ({ url, depth: 9 })),
        new Date().toISOString(),
      );
    const view = await t.services.batches.view(alice.id, doneId, { state: 'queued', page: 3 });
    assert.equal(view.table.total, n);
    assert.deepEqual(
      view.table.items.map((p) => p.url),
      urls.slice(50, 75),
    );
    const desc = await t.services.batches.view(alice.id, doneId, {
      state: 'queued',
      sortBy: 'url',
      sort: 'desc',
    });
    assert.equal(desc.table.items[0]!.url, urls.at(-1));
  });
});
