// PostgreSQL-specific behaviour at scale: migrations started by several processes at once on
// a fresh database (the advisory lock makes one apply them; all succeed), and substring
// search served by the pg_trgm GIN indexes with exact totals, on a database seeded with
// tens of thousands of reports through the benchmark's seeder.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, migrate, type DatabaseHandle } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { substringMatch } from '../../src/store/sql-helpers.js';
import { createServices } from '../../src/services/index.js';
import { analyze } from '../../src/analyzer/index.js';
import { configFromEnv } from '../../src/config.js';
import { seedPostgres, type SeedResult } from '../../bench/lib/seed.js';
import { selectiveTerm, type Templates } from '../../bench/lib/corpus.js';
import {
  createTempDatabase,
  postgresUnavailable,
  skipUnlessRequired,
  withPg,
  type TempDatabase,
} from '../helpers/services.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const reason = await postgresUnavailable();
const REPORTS = 30_000;

/** Small JSON texts: the tests look at the indexes, not at the rows' size. */
const tinyTemplates: Templates = {
  source: 'tiny',
  checks: 0,
  resultsBytes: 2,
  byBand: Object.fromEntries(
    (['good', 'decent', 'bad'] as const).map((b) => [
      b,
      {
        categories: JSON.stringify({
          seo: { score: 80, passed: 4, failed: 1 },
          performance: { score: 80, passed: 4, failed: 1 },
          security: { score: 80, passed: 4, failed: 1 },
          miscellaneous: { score: 80, passed: 4, failed: 1 },
        }),
        results: '{}',
        page: JSON.stringify({
          status: 200,
          http_version: '1.1',
          redirects: [],
          timings: { dns_ms: 1, connect_ms: 1, tls_ms: null, ttfb_ms: 5, total_ms: 9 },
          sizes: { transfer_bytes: 1, html_bytes: 1 },
          requests: {},
        }),
      },
    ]),
  ) as Templates['byBand'],
};

describe('PostgreSQL', () => {
  test('migrations started by six processes at once on a fresh database all succeed, applied once', async (t) => {
    if (skipUnlessRequired(t, reason, 'PAGEGRADE_REQUIRE_POSTGRES')) return;
    const database = await createTempDatabase('pagegrade_migrate');
    const handles = Array.from({ length: 6 }, () => createDb(database.url));
    try {
      const results = await Promise.allSettled(handles.map((h) => migrate(h.db)));
      for (const r of results)
        assert.equal(r.status, 'fulfilled', r.status === 'rejected' ? String(r.reason) : '');
      await withPg(database.url, async (c) => {
        const rows = (await c.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name'))
          .rows;
        assert.deepEqual(
          rows.map((r) => r.name),
          Object.keys(migrations).sort(),
        );
        const ext = await c.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
        assert.equal(ext.rowCount, 1);
        const idx = await c.query(
          `SELECT indexname FROM pg_indexes WHERE indexname IN ('reports_url_trgm', 'projects_name_trgm')`,
        );
        assert.equal(idx.rowCount, 2);
      });
      // and a later start finds nothing to do
      await migrate(handles[0]!.db);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await database.drop();
    }
  });

  describe(`search on ${REPORTS.toLocaleString('en')} reports`, () => {
    let database: TempDatabase | null = null;
    let handle: DatabaseHandle;
    let seed: SeedResult;

    before(async () => {
      if (reason) return;
      database = await createTempDatabase('pagegrade_search');
      seed = await seedPostgres(database.url, {
        reports: REPORTS,
        projects: 2000,
        otherUserReports: 20,
        templates: tinyTemplates,
      });
      handle = createDb(database.url);
    });
    after(async () => {
      await handle?.close();
      await database?.drop();
    });

    async function plan(sqlText: string, parameters: readonly unknown[]): Promise<string> {
      return withPg(database!.url, async (c) => {
        const res = await c.query(`EXPLAIN ${sqlText}`, parameters as unknown[]);
        return res.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      });
    }

    test('a selective URL search counts and lists through the trigram GIN index', async (t) => {
      if (skipUnlessRequired(t, reason, 'PAGEGRADE_REQUIRE_POSTGRES')) return;
      const term = selectiveTerm(seed.medianProject).toUpperCase(); // case-insensitive
      const count = handle.db
        .selectFrom('reports')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('reports.org_id', '=', seed.userId)
        .where(substringMatch('postgres', 'reports', 'url', term))
        .compile();
      const p = await plan(count.sql, count.parameters);
      assert.match(p, /reports_url_trgm/, p);

      // the service's total is exact (same as a scan without the index) and cheap
      const services = createServices({
        queue: embeddedQueue(handle.db),
        db: handle.db,
        analyze,
        config: configFromEnv({ DATABASE_URL: database!.url }),
      });
      const started = performance.now();
      const page = await services.reports.list(seed.userId, { search: term });
      const ms = performance.now() - started;
      const expected = await withPg(database!.url, async (c) => {
        await c.query('SET enable_bitmapscan = off');
        const r = await c.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM reports WHERE org_id = $1 AND strpos(lower(url), lower($2)) > 0`,
          [seed.userId, term],
        );
        return r.rows[0]!.n;
      });
      assert.ok(expected > 0);
      assert.equal(page.total, expected);
      assert.ok(page.items.every((r) => r.url.toLowerCase().includes(term.toLowerCase())));
      console.log(
        `# search "${term}": ${page.total} of ${REPORTS} reports, listed and counted in ${ms.toFixed(1)} ms`,
      );
    });

    test("a project search is exact (the planner may scan one user's few thousand projects instead of the GIN index)", async (t) => {
      if (skipUnlessRequired(t, reason, 'PAGEGRADE_REQUIRE_POSTGRES')) return;
      const term = 'GARDEN';
      const services = createServices({
        queue: embeddedQueue(handle.db),
        db: handle.db,
        analyze,
        config: configFromEnv({ DATABASE_URL: database!.url }),
      });
      const page = await services.projects.list(seed.userId, { search: term, perPage: 100 });
      const expected = await withPg(database!.url, async (c) => {
        const r = await c.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM projects WHERE org_id = $1 AND strpos(lower(name), lower($2)) > 0`,
          [seed.userId, term],
        );
        return r.rows[0]!.n;
      });
      assert.ok(expected > 0);
      assert.equal(page.total, expected);
      const q = handle.db
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('projects.org_id', '=', seed.userId)
        .where(substringMatch('postgres', 'projects', 'name', term))
        .compile();
      console.log(`# project search plan:\n# ${(await plan(q.sql, q.parameters)).replaceAll('\n', '\n# ')}`);
    });

    test('unfiltered, result and project totals come from the counters, equal to real counts', async (t) => {
      if (skipUnlessRequired(t, reason, 'PAGEGRADE_REQUIRE_POSTGRES')) return;
      const services = createServices({
        queue: embeddedQueue(handle.db),
        db: handle.db,
        analyze,
        config: configFromEnv({ DATABASE_URL: database!.url }),
      });
      const real = await withPg(database!.url, async (c) => {
        const all = await c.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM reports WHERE org_id = $1',
          [seed.userId],
        );
        const bad = await c.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM reports WHERE org_id = $1 AND result = 'bad'`,
          [seed.userId],
        );
        const big = await c.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM reports WHERE org_id = $1 AND project = $2',
          [seed.userId, seed.bigProject],
        );
        return { all: all.rows[0]!.n, bad: bad.rows[0]!.n, big: big.rows[0]!.n };
      });
      assert.equal(real.all, REPORTS);
      assert.equal((await services.reports.list(seed.userId, {})).total, real.all);
      assert.equal((await services.reports.list(seed.userId, { result: 'bad' })).total, real.bad);
      assert.equal((await services.reports.list(seed.userId, { project: seed.bigProject })).total, real.big);
      const sorted = await services.reports.list(seed.userId, {
        result: 'bad',
        sortBy: 'url',
        sort: 'asc',
        perPage: 100,
      });
      const urls = sorted.items.map((r) => r.url);
      assert.deepEqual(
        urls,
        [...urls].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
        'code point order',
      );
    });
  });
});
