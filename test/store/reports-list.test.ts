// The store over every dialect: list filters, sorts (stable, id tie-break), search (literal
// %, _ and \, case-insensitive, short terms), pagination totals and the counters behind them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, projectOf } from '../../src/analyzer/index.js';
import type { CategoryScore, ResultBand } from '../../src/analyzer/types.js';
import { createServices } from '../../src/services/index.js';
import { type ListReportsQuery } from '../../src/contract/lists.js';
import { type ReportSummary } from '../../src/services/reports/types.js';
import { type Services } from '../../src/services/types.js';
import { migrate, withTransaction, type Db } from '../../src/store/database.js';
import { addReportToProject } from '../../src/store/projects.repository.js';
import { countReports, listReports, searchPlan, type SearchEstimate } from '../../src/store/reports-list.repository.js';
import { insertReport, type ReportListOptions } from '../../src/store/reports.repository.js';
import { adjustOrgCounters, getOrgCounters, insertOrg } from '../../src/store/organizations.repository.js';
import { dialects, openTestDb, type TestDb } from '../helpers/db.js';
import { testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const config = testServicesConfig();

const cat: CategoryScore = { score: 50, passed: 1, failed: 1 };
const categories = { seo: cat, performance: cat, security: cat, miscellaneous: cat, accessibility: cat, ai: cat };

/** Stores a report the way the reports service does (report + project + counters, one transaction). */
async function seed(
  db: Db,
  userId: number,
  url: string,
  result: ResultBand,
  generatedAt: string,
): Promise<number> {
  const project = projectOf(url);
  return withTransaction(db, async (trx) => {
    const created = await addReportToProject(trx, userId, project, generatedAt);
    const id = await insertReport(trx, {
      userId,
      url,
      pageKey: url,
      project,
      finalUrl: url,
      result,
      score: result === 'good' ? 90 : result === 'decent' ? 60 : 20,
      generatedAt,
      categories,
      results: {},
      page: {
        status: 200,
        http_version: '1.1',
        redirects: [],
        timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, total_ms: 1 },
        sizes: { transfer_bytes: 1, html_bytes: 1 },
        requests: {},
      },
      privacy: 0,
      passwordHash: null,
      now: generatedAt,
    });
    await adjustOrgCounters(trx, userId, { projects: created ? 1 : 0, reports: 1, [result]: 1 });
    return id;
  });
}

// [url, result, generated_at minute] — duplicates and ties on purpose
const DATA: [string, ResultBand, number][] = [
  ['https://a.example/', 'good', 1],
  ['https://a.example/Zebra', 'bad', 2],
  ['https://a.example/apple', 'decent', 2],
  ['https://a.example/50%off', 'bad', 3],
  ['https://a.example/100%25', 'good', 3],
  ['https://b.example/a_b', 'decent', 4],
  ['https://b.example/axb', 'good', 4],
  ['https://b.example/x?q=a\\b', 'bad', 5],
  ['https://b.example/x?q=aXb', 'decent', 5],
  ['https://www.c.example/', 'good', 6],
  ['https://c.example/Path/UPPER', 'bad', 6],
  ['https://c.example/path/lower', 'good', 7],
  ['https://a.example/', 'decent', 7],
  ['http://a.example/', 'good', 8],
  ['https://d.example/~tilde', 'bad', 8],
  ['https://d.example/quote"q', 'decent', 9],
  ['https://b.example/a_b', 'good', 9],
  ['https://a.example/apple', 'good', 10],
  ['https://e.example/' + 'x'.repeat(40), 'decent', 10],
  ['https://b.example/UPPER', 'good', 11],
  ['https://b.example/under_score_', 'bad', 11],
  ['https://b.example/back\\slash', 'decent', 12],
  ['https://c.example/', 'bad', 12],
  ['https://a.example/zz', 'good', 13],
  ['https://a.example/ZZ', 'decent', 13],
];

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const RANK = { good: 0, decent: 1, bad: 2 } as const;
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

for (const dialect of dialects) {
  describe(`reports list [${dialect.name}]`, { skip: dialect.skip }, () => {
    let t: TestDb;
    let services: Services;
    let alice: number;
    let bob: number;
    interface Seeded {
      id: number;
      url: string;
      result: ResultBand;
      generatedAt: string;
      project: string;
    }
    const seeded: Seeded[] = [];

    before(async () => {
      t = await openTestDb(dialect);
      services = createServices({ queue: embeddedQueue(t.db), db: t.db, analyze, config });
      alice = (await insertOrg(t.db, 'alice', at(0))).id;
      bob = (await insertOrg(t.db, 'bob', at(0))).id;
      for (const [url, result, minute] of DATA) {
        const id = await seed(t.db, alice, url, result, at(minute));
        seeded.push({ id, url, result, generatedAt: at(minute), project: projectOf(url) });
        // bob's reports share URLs and must never show up in alice's lists
        await seed(t.db, bob, url, 'bad', at(minute));
      }
    });
    after(() => t?.cleanup());

    async function all(q: ListReportsQuery): Promise<{ items: ReportSummary[]; total: number }> {
      const out: ReportSummary[] = [];
      let total = 0;
      for (let page = 1; ; page++) {
        const res = await services.reports.list(alice, { ...q, perPage: 10, page });
        total = res.total;
        out.push(...res.items);
        if (res.items.length < 10) break;
      }
      return { items: out, total };
    }

    test('migrations are idempotent', async () => {
      await migrate(t.db);
      await Promise.all([migrate(t.db), migrate(t.db)]);
    });

    test('default list: newest id first, totals from the counters, pages', async () => {
      const page1 = await services.reports.list(alice, {});
      assert.equal(page1.total, DATA.length);
      assert.deepEqual(
        page1.items.map((r) => r.id),
        seeded
          .map((s) => s.id)
          .sort((a, b) => b - a)
          .slice(0, 10),
      );
      const page3 = await services.reports.list(alice, { page: 3 });
      assert.equal(page3.items.length, DATA.length - 20);
      const past = await services.reports.list(alice, { page: 4 });
      assert.deepEqual(past, { items: [], total: DATA.length });
      const far = await services.reports.list(alice, { page: 1_000_000 });
      assert.deepEqual(far, { items: [], total: DATA.length });
      const { items } = await all({});
      assert.ok(items.every((r) => r.userId === alice));
      assert.equal(new Set(items.map((r) => r.id)).size, DATA.length);
      const r0 = items.find((r) => r.id === seeded[0]!.id)!;
      assert.equal(r0.url, 'https://a.example/');
      assert.equal(r0.project, 'a.example');
      assert.equal(r0.generatedAt, at(1));
      assert.equal(r0.privacy, 0);
      assert.equal(r0.hasPassword, false);
      assert.deepEqual(r0.categories, categories);
      assert.equal('results' in r0, false, 'lists do not read results');
    });

    for (const sortBy of ['id', 'generated_at', 'url', 'result'] as const) {
      for (const sort of ['asc', 'desc'] as const) {
        test(`sort_by=${sortBy} ${sort} is stable with id tie-break`, async () => {
          const key = (s: Seeded) =>
            sortBy === 'id'
              ? s.id
              : sortBy === 'generated_at'
                ? s.generatedAt
                : sortBy === 'url'
                  ? s.url
                  : RANK[s.result];
          const dir = sort === 'asc' ? 1 : -1;
          const expected = [...seeded]
            .sort((a, b) => dir * (cmp(key(a), key(b)) || cmp(a.id, b.id)))
            .map((s) => s.id);
          const { items, total } = await all({ sortBy, sort });
          assert.equal(total, DATA.length);
          assert.deepEqual(
            items.map((r) => r.id),
            expected,
          );
        });
      }
    }

    test('sort_by=url is code point order (uppercase before lowercase, http before https)', async () => {
      const { items } = await all({ sortBy: 'url', sort: 'asc' });
      const urls = items.map((r) => r.url);
      assert.equal(urls[0], 'http://a.example/');
      assert.ok(urls.indexOf('https://a.example/ZZ') < urls.indexOf('https://a.example/apple'));
      assert.ok(urls.indexOf('https://a.example/Zebra') < urls.indexOf('https://a.example/zz'));
    });

    test('sort_by=result: good, decent, bad ascending; the reverse descending', async () => {
      const asc = (await all({ sortBy: 'result', sort: 'asc' })).items.map((r) => r.result);
      const firstDecent = asc.indexOf('decent');
      const firstBad = asc.indexOf('bad');
      assert.ok(asc.slice(0, firstDecent).every((r) => r === 'good'));
      assert.ok(asc.slice(firstDecent, firstBad).every((r) => r === 'decent'));
      assert.ok(asc.slice(firstBad).every((r) => r === 'bad'));
      const desc = (await all({ sortBy: 'result', sort: 'desc' })).items.map((r) => r.result);
      assert.equal(desc[0], 'bad');
      assert.equal(desc.at(-1), 'good');
    });

    test('filters: project, result, both; totals match', async () => {
      for (const project of ['a.example', 'b.example', 'c.example', 'nope.example']) {
        const expected = seeded
          .filter((s) => s.project === project)
          .map((s) => s.id)
          .sort((a, b) => b - a);
        const { items, total } = await all({ project });
        assert.equal(total, expected.length, project);
        assert.deepEqual(
          items.map((r) => r.id),
          expected,
        );
      }
      for (const result of ['good', 'decent', 'bad'] as const) {
        const expected = seeded
          .filter((s) => s.result === result)
          .map((s) => s.id)
          .sort((a, b) => b - a);
        const { items, total } = await all({ result });
        assert.equal(total, expected.length, result);
        assert.deepEqual(
          items.map((r) => r.id),
          expected,
        );
        const both = await all({ result, project: 'b.example', sortBy: 'url', sort: 'asc' });
        const exp2 = seeded
          .filter((s) => s.result === result && s.project === 'b.example')
          .sort((a, b) => cmp(a.url, b.url) || a.id - b.id)
          .map((s) => s.id);
        assert.equal(both.total, exp2.length);
        assert.deepEqual(
          both.items.map((r) => r.id),
          exp2,
        );
      }
    });

    const searches: [string, (url: string) => boolean][] = [
      ['A.EXAMPLE', (u) => u.includes('a.example')],
      ['apple', (u) => u.includes('apple')],
      ['APPLE', (u) => u.includes('apple')],
      ['upper', (u) => u.toLowerCase().includes('upper')],
      ['%', (u) => u.includes('%')],
      ['50%', (u) => u.includes('50%')],
      ['%25', (u) => u.includes('%25')],
      ['_', (u) => u.includes('_')],
      ['a_b', (u) => u.includes('a_b')],
      ['_b', (u) => u.includes('_b')],
      ['\\', (u) => u.includes('\\')],
      ['a\\b', (u) => u.includes('a\\b')],
      ['k\\s', (u) => u.includes('k\\s')],
      ['zz', (u) => u.toLowerCase().includes('zz')],
      ['Z', (u) => u.toLowerCase().includes('z')],
      ['"', (u) => u.includes('"')],
      ['e"q', (u) => u.includes('e"q')],
      ['x'.repeat(40), (u) => u.includes('x'.repeat(40))],
      ['NOT THERE', () => false],
      ['~', (u) => u.includes('~')],
      ['*', () => false],
      ['a OR b', () => false],
    ];
    for (const [term, matches] of searches) {
      test(`search ${JSON.stringify(term)} is a literal, case-insensitive substring`, async () => {
        const expected = seeded
          .filter((s) => matches(s.url))
          .map((s) => s.id)
          .sort((a, b) => b - a);
        const { items, total } = await all({ search: term });
        assert.equal(total, expected.length);
        assert.deepEqual(
          items.map((r) => r.id),
          expected,
        );
      });
    }

    test('search combines with filters and sorts', async () => {
      const expected = seeded
        .filter((s) => s.url.includes('a.example') && s.result === 'good')
        .sort((a, b) => cmp(b.generatedAt, a.generatedAt) || b.id - a.id)
        .map((s) => s.id);
      const { items, total } = await all({ search: 'a.EXAMPLE', result: 'good', sortBy: 'generated_at' });
      assert.equal(total, expected.length);
      assert.deepEqual(
        items.map((r) => r.id),
        expected,
      );
      const empty = await services.reports.list(alice, { search: '', project: 'a.example' });
      assert.equal(empty.total, seeded.filter((s) => s.project === 'a.example').length);
    });

    // Every way a search page can be found gives the same pages: the trigram index (no
    // estimate), the sort index walked with the URL checked row by row (a common term), and
    // (SQLite) trigram matches probed from the covering sort index (many matches).
    const plans: [string, SearchEstimate | undefined][] = [
      ['trigram', undefined],
      ['rowByRow', { matches: 1_000_000, rows: 1 }],
      ['probe', { matches: 1_000_000, rows: 1_000_000_000 }],
      ['sortMatches', { matches: 1_000_000, rows: 1_000_000_000 }],
    ];
    for (const [planName, estimate] of plans) {
      test(`search pages through the ${planName} plan: every sort, order and filter`, async () => {
        const terms: [string, (url: string) => boolean][] = [
          ['A.EXAMPLE', (u) => u.includes('a.example')],
          ['example/', (u) => u.includes('example/')],
          ['a_b', (u) => u.includes('a_b')],
          ['%', (u) => u.includes('%')],
          ['Z', (u) => u.toLowerCase().includes('z')],
          ['e"q', (u) => u.includes('e"q')],
          ['NOT THERE', () => false],
        ];
        const filters: { project?: string; result?: ResultBand }[] = [
          {},
          { result: 'good' },
          { project: 'a.example' },
          { project: 'b.example', result: 'bad' },
        ];
        let planned = 0;
        for (const [search, matches] of terms)
          for (const f of filters)
            for (const sortBy of ['id', 'generated_at', 'url', 'result'] as const)
              for (const sort of ['asc', 'desc'] as const) {
                const key = (s: Seeded) =>
                  sortBy === 'id'
                    ? s.id
                    : sortBy === 'generated_at'
                      ? s.generatedAt
                      : sortBy === 'url'
                        ? s.url
                        : RANK[s.result];
                const dir = sort === 'asc' ? 1 : -1;
                const expected = seeded
                  .filter(
                    (s) =>
                      matches(s.url) &&
                      (f.project === undefined || s.project === f.project) &&
                      (f.result === undefined || s.result === f.result),
                  )
                  .sort((a, b) => dir * (cmp(key(a), key(b)) || cmp(a.id, b.id)))
                  .map((s) => s.id);
                const got: number[] = [];
                for (let offset = 0; offset < expected.length + 3; offset += 3) {
                  const o: ReportListOptions = { search, ...f, sortBy, sort, limit: 3, offset };
                  if (searchPlan(t.dialect, o, estimate) === planName) planned++;
                  got.push(...(await listReports(t.db, alice, o, estimate)).map((r) => r.id));
                }
                assert.deepEqual(got, expected, `${search} ${JSON.stringify(f)} ${sortBy} ${sort}`);
              }
        // the plan under test is really taken (probe exists on SQLite only, sortMatches on PostgreSQL)
        const exists =
          planName === 'probe'
            ? t.dialect === 'sqlite'
            : planName === 'sortMatches'
              ? t.dialect === 'postgres'
              : true;
        if (exists) assert.ok(planned > 0, `${planName} never chosen`);
      });
    }

    test('search plan: a common term walks the sort index, a rare one uses the trigram index', () => {
      const o: ReportListOptions = { search: 'tomato', sortBy: 'id', sort: 'desc', limit: 10, offset: 0 };
      const common = { matches: 90_000, rows: 1_000_000 };
      const rare = { matches: 142, rows: 1_000_000 };
      assert.equal(searchPlan(t.dialect, o, common), 'rowByRow');
      assert.equal(searchPlan(t.dialect, o, rare), 'trigram');
      assert.equal(searchPlan(t.dialect, o, undefined), 'trigram');
      // deep pages of a common term: walking would pass too many rows
      assert.equal(searchPlan(t.dialect, { ...o, offset: 10_000 }, common), 'trigram');
      // URLs cluster by term (host names): sort_by=url walks only when even the worst case is cheap
      const byUrl = searchPlan(t.dialect, { ...o, sortBy: 'url' }, common);
      assert.equal(byUrl, t.dialect === 'sqlite' ? 'probe' : 'sortMatches');
      assert.equal(
        searchPlan(t.dialect, { ...o, sortBy: 'url', project: 'a.example' }, common),
        t.dialect === 'sqlite' ? 'probe' : 'trigram',
      );
      assert.equal(
        searchPlan(t.dialect, { ...o, sortBy: 'url' }, { matches: 900_000, rows: 1_000_000 }),
        'rowByRow',
      );
      // SQLite's LIKE folds ASCII only: other terms stay on the trigram index
      assert.equal(
        searchPlan(t.dialect, { ...o, search: 'tomaté' }, common),
        t.dialect === 'sqlite' ? 'trigram' : 'rowByRow',
      );
    });

    test('counters equal real counts', async () => {
      for (const user of [alice, bob]) {
        const c = await getOrgCounters(t.db, user);
        assert.equal(c.reports, await countReports(t.db, user, {}));
        assert.equal(c.good, await countReports(t.db, user, { result: 'good' }));
        assert.equal(c.decent, await countReports(t.db, user, { result: 'decent' }));
        assert.equal(c.bad, await countReports(t.db, user, { result: 'bad' }));
        assert.equal(c.projects, new Set(DATA.map(([u]) => projectOf(u))).size);
      }
    });

    test('projects: counts, sorts, search, totals', async () => {
      const names = [...new Set(seeded.map((s) => s.project))];
      const byCreated = await services.projects.list(alice, { perPage: 100 });
      assert.equal(byCreated.total, names.length);
      // created_at desc = order of first report, newest first (ties by name desc)
      const firstAt = new Map<string, string>();
      for (const s of seeded) if (!firstAt.has(s.project)) firstAt.set(s.project, s.generatedAt);
      const expected = [...names].sort((a, b) => cmp(firstAt.get(b)!, firstAt.get(a)!) || cmp(b, a));
      assert.deepEqual(
        byCreated.items.map((p) => p.project),
        expected,
      );
      for (const p of byCreated.items) {
        assert.equal(p.reportsCount, seeded.filter((s) => s.project === p.project).length);
        assert.equal(p.createdAt, firstAt.get(p.project));
      }
      const byName = await services.projects.list(alice, { sortBy: 'project', sort: 'asc', perPage: 10 });
      assert.deepEqual(
        byName.items.map((p) => p.project),
        [...names].sort(),
      );
      const search = await services.projects.list(alice, { search: 'B.EX' });
      assert.deepEqual(
        search.items.map((p) => p.project),
        ['b.example'],
      );
      assert.equal(search.total, 1);
      const short = await services.projects.list(alice, { search: 'C' });
      assert.deepEqual(
        short.items.map((p) => p.project),
        ['c.example'],
      );
      const literal = await services.projects.list(alice, { search: '_' });
      assert.equal(literal.total, 0);
      const page2 = await services.projects.list(alice, { perPage: 10, page: 2 });
      assert.deepEqual(page2, { items: [], total: names.length });
    });
  });
}
