// The lookups every crawled page runs read a bounded number of rows on PostgreSQL even when the
// planner's statistics predate the rows (a batch in its first minute, a project new since the
// last autoanalyze): the page's link targets' ids, the frontier's "which links are pages
// already", the project's report of the page, the claim of queued pages. Each is run through
// EXPLAIN ANALYZE on a database whose tables are never analysed after they fill (autovacuum
// off for them), and the rows each plan reads — returned by its scans plus removed by its
// filters — are counted. bench/crawl-load.ts found the first three reading their whole batch
// or project before src/store/batch-url-lookup.ts and the 2026-12-05T10 migration.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { insertPageLinks } from '../../src/store/batch-links.repository.js';
import { existingUrls, insertPages, takeQueuedPages } from '../../src/store/batch-frontier.repository.js';
import { insertBatch } from '../../src/store/batches.repository.js';
import { findPageReport } from '../../src/store/reports.repository.js';
import { insertOrg } from '../../src/store/organizations.repository.js';
import type { Database } from '../../src/store/database.js';
import { insertReports, openTestDb, postgresDialect, type TestDb } from '../helpers/db.js';

const N = 3000;
const origin = 'https://site.test';
const url = (i: number) => `${origin}/p/${i}`;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** rows the plan's scans of `table` read: returned plus filtered out, over all loops */
function rowsRead(node: PlanNode, table: string): number {
  let n = 0;
  if (node['Relation Name'] === table && /Scan/.test(node['Node Type']))
    n +=
      (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
      node['Actual Loops'];
  for (const c of node.Plans ?? []) n += rowsRead(c, table);
  return n;
}

describe('the per-page lookups read bounded rows on stale statistics [postgres]', { skip: postgresDialect.skip }, () => {
  let t: TestDb;
  let pool: pg.Pool;
  let db: Kysely<Database>;
  let captured: CompiledQuery[] = [];
  let orgId: number;
  let batchId: number;

  /** the captured statements on `table` (SELECTs), each run again under EXPLAIN ANALYZE: the most rows one read */
  async function mostRead(table: string, match: RegExp): Promise<number> {
    const queries = captured.filter((q) => match.test(q.sql));
    assert.ok(queries.length > 0, `a statement matching ${match} ran`);
    let most = 0;
    for (const q of queries) {
      const r = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${q.sql}`, q.parameters as unknown[]);
      const plan = (r.rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'][0].Plan;
      most = Math.max(most, rowsRead(plan, table));
    }
    return most;
  }

  before(async () => {
    t = await openTestDb(postgresDialect);
    pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: (e) => {
        if (e.level === 'query') captured.push(e.query);
      },
    });
    for (const table of ['batch_pages', 'batch_link_urls', 'batch_links', 'reports'])
      await sql.raw(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`).execute(db);
    orgId = (await insertOrg(db, 'plans', new Date().toISOString())).id;
    const now = new Date().toISOString();
    batchId = await insertBatch(db, {
      userId: orgId,
      mode: 'crawl',
      url: `${origin}/`,
      project: 'site.test',
      options: '{}',
      render: false,
      now,
    });
    // an older project's reports, analysed (insertReports runs ANALYZE); the crawl's project
    // then fills after the statistics were taken: its name is not in them
    await insertReports(
      db,
      orgId,
      Array.from({ length: 200 }, (_, i) => ({ url: `https://old.test/p/${i}`, project: 'old.test' })),
    );
    await sql`UPDATE reports SET page_key = url`.execute(db);
    await sql`
      INSERT INTO reports (org_id, url, final_url, project, page_key, result, result_rank, score, categories,
                           results, page, created_at, generated_at, updated_at, privacy)
      SELECT org_id, ${origin} || '/p/' || g, ${origin} || '/p/' || g, 'site.test', ${origin} || '/p/' || g,
             result, result_rank, score, categories, results, page, created_at, generated_at, updated_at, privacy
        FROM reports r, generate_series(0, ${N - 1}) g WHERE r.id = (SELECT min(id) FROM reports)`.execute(db);
    // the batch's frontier and its pages' links, all after the statistics
    await insertPages(
      db,
      batchId,
      Array.from({ length: N }, (_, i) => ({ url: url(i), depth: 1 })),
      now,
    );
    const pages = await db.selectFrom('batch_pages').select(['id']).where('batch_id', '=', batchId).limit(150).execute();
    for (const [k, p] of pages.entries())
      await insertPageLinks(
        db,
        batchId,
        p.id,
        Array.from({ length: 20 }, (_, j) => ({
          url: url((k * 20 + j) % N),
          anchor: 'a',
          rel: null,
          nofollow: false,
          internal: true,
        })),
      );
  });

  after(async () => {
    await db?.destroy();
    await t?.cleanup();
  });

  test("a page's link targets: one probe a URL, not the batch's URLs", async () => {
    const { count } = await db
      .selectFrom('batch_link_urls')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    assert.ok(Number(count) >= N, `the batch has ${count} link URLs`);
    captured = [];
    const source = await db.selectFrom('batch_pages').select('id').where('url', '=', url(N - 1)).executeTakeFirstOrThrow();
    await insertPageLinks(
      db,
      batchId,
      source.id,
      Array.from({ length: 20 }, (_, j) => ({ url: url(j * 7), anchor: 'b', rel: null, nofollow: false, internal: true })),
    );
    const read = await mostRead('batch_link_urls', /^\s*select[\s\S]*batch_link_urls/i);
    console.log(`link targets: ${read} rows read for 20 URLs (${count} in the batch)`);
    assert.ok(read <= 40, `${read} rows read`);
  });

  test("the frontier's known pages: one probe a URL", async () => {
    captured = [];
    const found = await existingUrls(db, batchId, Array.from({ length: 20 }, (_, j) => url(j * 11)));
    assert.equal(found.size, 20);
    const read = await mostRead('batch_pages', /^\s*select[\s\S]*batch_pages/i);
    console.log(`known pages: ${read} rows read for 20 URLs (${N} pages)`);
    assert.ok(read <= 40, `${read} rows read`);
  });

  test("a page's report in its project: one probe", async () => {
    captured = [];
    const id = await findPageReport(db, orgId, 'site.test', url(5));
    assert.ok(id !== null);
    const read = await mostRead('reports', /from "reports"/);
    console.log(`the page's report: ${read} rows read (${N} reports in the project)`);
    assert.ok(read <= 2, `${read} rows read`);
  });

  test('the claim of queued pages reads what it takes', async () => {
    captured = [];
    const taken = await takeQueuedPages(db, batchId, 8, new Date().toISOString());
    assert.equal(taken.length, 8);
    const read = await mostRead('batch_pages', /^select .* from "batch_pages" where "batch_id" = \$1 and "state" = \$2 order by/i);
    console.log(`the claim: ${read} rows read for 8 pages (${N} queued)`);
    // EXPLAIN ANALYZE runs the SELECT again after the UPDATE: the 8 taken are no longer queued
    assert.ok(read <= 16, `${read} rows read`);
  });
});
