// Every list shape is an index search per user (never a scan of the reports table), and the
// documented sorts come out of an index in order (no temporary sort). SQLite only: the plans
// are deterministic there; PostgreSQL picks sequential scans on tiny tables by cost.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { analyze } from '../../src/analyzer/index.js';
import { createServices } from '../../src/services/index.js';
import { type ListProjectsQuery, type ListReportsQuery } from '../../src/contract/lists.js';
import { type Services } from '../../src/services/types.js';
import { migrate, type Database } from '../../src/store/database.js';
import { listReports, searchPlan, type SearchEstimate } from '../../src/store/reports-list.repository.js';
import { insertOrg } from '../../src/store/organizations.repository.js';
import { testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

describe('query plans [sqlite]', () => {
  let dir: string;
  let raw: SqliteDatabase.Database;
  let db: Kysely<Database>;
  let services: Services;
  let captured: { sql: string; params: readonly unknown[] }[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-plans-'));
    raw = new SqliteDatabase(join(dir, 'plans.db'));
    db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: raw }),
      log: (e) => {
        if (e.level === 'query') captured.push({ sql: e.query.sql, params: e.query.parameters });
      },
    });
    await migrate(db);
    const user = await insertOrg(db, 'u', new Date().toISOString());
    // a project row so project lists run their queries
    await db
      .insertInto('projects')
      .values({ org_id: user.id, name: 'a.example', created_at: new Date().toISOString(), reports_count: 1 })
      .execute();
    await db.updateTable('organizations').set({ reports_count: 1, good_count: 1, projects_count: 1 }).execute();
    await db
      .insertInto('reports')
      .values({
        org_id: user.id,
        url: 'https://a.example/',
        final_url: 'https://a.example/',
        project: 'a.example',
        result: 'good',
        result_rank: 0,
        score: 90,
        privacy: 0,
        password_hash: null,
        categories: '{}',
        results: '{}',
        page: '{}',
        generated_at: new Date().toISOString(),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    services = createServices({
      queue: embeddedQueue(db),
      db,
      analyze,
      config: testServicesConfig({ allowPrivateHosts: false, fetchTimeoutMs: 1000, fetchMaxBytes: 1024 }),
    });
  });
  after(async () => {
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  function plans(): string[][] {
    return captured
      .filter((q) => /^select/i.test(q.sql))
      .map((q) =>
        (
          raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.params as unknown[])) as { detail: string }[]
        ).map((r) => r.detail),
      );
  }

  const reportShapes: [string, ListReportsQuery, boolean][] = [
    // [name, query, sorted by an index (no temp b-tree)]
    ['default', {}, true],
    ['sort id asc', { sort: 'asc' }, true],
    ['sort generated_at', { sortBy: 'generated_at' }, true],
    ['sort url', { sortBy: 'url', sort: 'asc' }, true],
    ['sort result', { sortBy: 'result' }, true],
    ['result', { result: 'bad' }, true],
    ['result + generated_at', { result: 'bad', sortBy: 'generated_at' }, true],
    ['result + url', { result: 'decent', sortBy: 'url' }, true],
    ['project', { project: 'a.example' }, true],
    ['project + generated_at', { project: 'a.example', sortBy: 'generated_at' }, true],
    ['project + url', { project: 'a.example', sortBy: 'url' }, true],
    ['project + result', { project: 'a.example', result: 'good' }, true],
    ['project + sort result', { project: 'a.example', sortBy: 'result' }, true],
    ['sort score', { sortBy: 'score' }, true],
    ['sort score asc', { sortBy: 'score', sort: 'asc' }, true],
    ['result + score', { result: 'good', sortBy: 'score' }, true],
    ['project + score', { project: 'a.example', sortBy: 'score' }, true],
    ['search (trigram)', { search: 'example' }, false],
    ['search (short)', { search: 'ex' }, false],
    [
      'search + project + result',
      { search: 'a.ex', project: 'a.example', result: 'good', sortBy: 'url' },
      false,
    ],
  ];

  for (const [name, query, indexOrder] of reportShapes) {
    test(`reports: ${name}`, async () => {
      captured = [];
      await services.reports.list(1, { ...query, perPage: 10, page: 1 });
      const all = plans();
      assert.ok(all.length >= 1, 'queries ran');
      for (const plan of all) {
        const text = plan.join(' | ');
        assert.doesNotMatch(text, /SCAN (reports|projects|users)\b(?! VIRTUAL)/, `no table scan: ${text}`);
        if (indexOrder) assert.doesNotMatch(text, /TEMP B-TREE/, `sorted by an index: ${text}`);
      }
    });
  }

  const projectShapes: [string, ListProjectsQuery][] = [
    ['default', {}],
    ['by name', { sortBy: 'project', sort: 'asc' }],
    ['search', { search: 'exam' }],
    ['short search', { search: 'a' }],
  ];
  for (const [name, query] of projectShapes) {
    test(`projects: ${name}`, async () => {
      captured = [];
      await services.projects.list(1, { ...query, perPage: 10, page: 1 });
      for (const plan of plans()) {
        const text = plan.join(' | ');
        assert.doesNotMatch(text, /SCAN (reports|projects|users)\b(?! VIRTUAL)/, `no table scan: ${text}`);
        if (!query.search) assert.doesNotMatch(text, /TEMP B-TREE/, `sorted by an index: ${text}`);
      }
    });
  }

  // a common term walks the sort index (URL checked row by row); many trigram matches are
  // probed from the covering sort index: both read the page in index order, no table row
  // is read for the search (the second statement fetches the page's rows by id)
  const estimates: [string, SearchEstimate][] = [
    ['rowByRow', { matches: 1_000_000, rows: 1_000_001 }],
    ['probe', { matches: 1_000_000, rows: 1_000_000_000 }],
  ];
  for (const [planName, estimate] of estimates) {
    for (const sortBy of ['id', 'generated_at', 'url', 'result', 'score'] as const) {
      for (const filter of [{}, { result: 'good' as const }, { project: 'a.example' }]) {
        test(`reports: search plan ${planName}, sort ${sortBy}, ${JSON.stringify(filter)}`, async () => {
          const o = { search: 'example', ...filter, sortBy, sort: 'desc' as const, limit: 10, offset: 0 };
          const chosen = searchPlan('sqlite', o, estimate);
          if (chosen !== planName) {
            // probe never serves sort by id: the trigram plan's id probe is already covering
            assert.deepEqual([planName, sortBy, chosen], ['probe', 'id', 'trigram']);
            return;
          }
          captured = [];
          await listReports(db, 1, o, estimate);
          const [page] = plans();
          const text = page!.join(' | ');
          assert.doesNotMatch(text, /SCAN (reports|projects|users)\b(?! VIRTUAL)/, `no table scan: ${text}`);
          assert.doesNotMatch(text, /TEMP B-TREE/, `sorted by an index: ${text}`);
          assert.doesNotMatch(text, /PRIMARY KEY/, `no row fetched by id for the search: ${text}`);
          if (planName === 'probe') assert.match(text, /COVERING INDEX/, text);
        });
      }
    }
  }

  test('trigram search goes through the FTS table', async () => {
    captured = [];
    // a term not listed before (totals and pages are cached per version of the user's reports)
    await services.reports.list(1, { search: 'xampl' });
    assert.ok(plans().some((p) => p.join(' ').includes('reports_fts VIRTUAL TABLE')));
  });
});
