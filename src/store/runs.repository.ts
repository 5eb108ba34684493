// A report's runs (docs/history.md): every SQL statement on report_runs and on the run columns
// of reports. Runs are numbered per report (1, 2, 3 …). The current run is the report row
// itself (its results, `run_number`); earlier runs, and failed re-audits, are rows of
// report_runs with their number. Moving the current run into report_runs when a re-audit
// replaces it keeps its number, so a run's address never changes.
import { sql } from 'kysely';
import type { Category, CategoryScore, CheckResult, PageInfo, ResultBand } from '../analyzer/types.js';
import { dialectOf, type Db } from './database.js';
import type { AuditColumns } from './reports.repository.js';
import { toIso, toNumber } from './sql-helpers.js';

/**
 * What started a run: the API's `results=1`, the dashboard's re-run, a schedule, a crawl (a
 * batch: the run records its id), a CI build (`pagegrade ci --upload`: build_pages records
 * which build's run it is).
 */
export const RUN_SOURCES = ['api', 'dashboard', 'schedule', 'batch', 'build'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];
/** A run completed (it has results) or failed (the page could not be fetched: a reason, no results). */
export const RUN_STATUSES = ['completed', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunSummaryRow {
  number: number;
  status: RunStatus;
  /** the report's current run (its results are the report's) */
  current: boolean;
  source: RunSource | null;
  /** the crawl that made the run (source `batch`); null for other sources */
  batchId: number | null;
  /** when the audit was made (a failed run: when it was tried) */
  generatedAt: string;
  /** null for a failed run, as are result, score and categories */
  finalUrl: string | null;
  result: ResultBand | null;
  score: number | null;
  categories: Record<Category, CategoryScore> | null;
  /** why a failed run failed (the fetcher's message); null when completed */
  error: string | null;
}

export interface RunRow extends RunSummaryRow {
  results: Record<string, CheckResult> | null;
  page: PageInfo | null;
}

/** The run columns of a report. */
export interface RunState {
  reportId: number;
  userId: number;
  runNumber: number;
  latestRunNumber: number;
  previousScore: number | null;
  /** what started the current run */
  runSource: RunSource | null;
  /** the crawl that made the current run (source `batch`), else null */
  runBatchId: number | null;
}

const validId = (n: number) => Number.isSafeInteger(n) && n >= 1 && n <= 2_147_483_647;

interface SummarySelect {
  number: number;
  status: string;
  source: string | null;
  batch_id: number | null;
  generated_at: Date | string;
  final_url: string | null;
  result: string | null;
  score: number | null;
  categories: string | null;
  error: string | null;
  current: number;
}

function toSummary(r: SummarySelect): RunSummaryRow {
  return {
    number: toNumber(r.number),
    status: r.status as RunStatus,
    current: toNumber(r.current) === 1,
    source: r.source as RunSource | null,
    batchId: r.batch_id === null ? null : toNumber(r.batch_id),
    generatedAt: toIso(r.generated_at),
    finalUrl: r.final_url,
    result: r.result as ResultBand | null,
    score: r.score === null ? null : toNumber(r.score),
    categories: r.categories === null ? null : (JSON.parse(r.categories) as Record<Category, CategoryScore>),
    error: r.error,
  };
}

/**
 * The run columns of one report; `userId` scopes it to its owner (null = any owner).
 * `forUpdate` locks the row until the transaction ends (PostgreSQL; SQLite's write
 * transaction already holds the lock), so that run numbers are given out one at a time.
 */
export async function findRunState(
  db: Db,
  reportId: number,
  userId: number | null,
  forUpdate = false,
): Promise<RunState | null> {
  if (!validId(reportId)) return null;
  let q = db
    .selectFrom('reports')
    .select([
      'id',
      'org_id',
      'run_number',
      'latest_run_number',
      'previous_score',
      'run_source',
      'run_batch_id',
    ])
    .where('id', '=', reportId);
  if (userId !== null) q = q.where('org_id', '=', userId);
  if (forUpdate && dialectOf(db) === 'postgres') q = q.forUpdate();
  const r = await q.executeTakeFirst();
  if (!r) return null;
  return {
    reportId: r.id,
    userId: r.org_id,
    runNumber: toNumber(r.run_number),
    latestRunNumber: toNumber(r.latest_run_number),
    previousScore: r.previous_score === null ? null : toNumber(r.previous_score),
    runSource: r.run_source as RunSource | null,
    runBatchId: r.run_batch_id === null ? null : toNumber(r.run_batch_id),
  };
}

/** Keeps a run that a re-audit replaced (its audit columns, under its number). */
export async function insertCompletedRun(
  db: Db,
  reportId: number,
  run: { number: number; source: RunSource | null; batchId: number | null; audit: AuditColumns },
): Promise<void> {
  const a = run.audit;
  await db
    .insertInto('report_runs')
    .values({
      report_id: reportId,
      number: run.number,
      status: 'completed',
      source: run.source,
      batch_id: run.batchId,
      error: null,
      final_url: a.finalUrl,
      result: a.result,
      score: a.score,
      categories: JSON.stringify(a.categories),
      results: JSON.stringify(a.results),
      page: JSON.stringify(a.page),
      render: a.render ? JSON.stringify(a.render) : null,
      generated_at: a.generatedAt,
    })
    .execute();
}

/** Records a re-audit that could not fetch the page: its number, reason and time, no results. */
export async function insertFailedRun(
  db: Db,
  reportId: number,
  run: { number: number; source: RunSource | null; error: string; at: string },
): Promise<void> {
  await db
    .insertInto('report_runs')
    .values({
      report_id: reportId,
      number: run.number,
      status: 'failed',
      source: run.source,
      error: run.error,
      final_url: null,
      result: null,
      score: null,
      categories: null,
      results: null,
      page: null,
      generated_at: run.at,
    })
    .execute();
}

/** The report's results became run `number` (written with the audit columns, same transaction). */
export async function setCurrentRun(
  db: Db,
  reportId: number,
  r: { number: number; previousScore: number; source: RunSource | null; batchId: number | null },
): Promise<void> {
  await db
    .updateTable('reports')
    .set({
      run_number: r.number,
      latest_run_number: r.number,
      previous_score: r.previousScore,
      run_source: r.source,
      run_batch_id: r.batchId,
    })
    .where('id', '=', reportId)
    .execute();
}

/** A failed run took number `number` (the current run stays). */
export async function setLatestRunNumber(db: Db, reportId: number, number: number): Promise<void> {
  await db.updateTable('reports').set({ latest_run_number: number }).where('id', '=', reportId).execute();
}

/** How many runs a report has: the current one and those kept. */
export async function countRuns(db: Db, reportId: number): Promise<number> {
  const row = await db
    .selectFrom('report_runs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('report_id', '=', reportId)
    .executeTakeFirstOrThrow();
  return toNumber(row.n) + 1;
}

/** A page of a report's runs, newest first (the current one from the report row, in its place). */
export async function listRunSummaries(
  db: Db,
  reportId: number,
  page: { limit: number; offset: number },
): Promise<RunSummaryRow[]> {
  const current = db
    .selectFrom('reports')
    .where('id', '=', reportId)
    .select([
      'run_number as number',
      sql<string>`'completed'`.as('status'),
      'run_source as source',
      'run_batch_id as batch_id',
      'generated_at',
      'final_url',
      'result',
      'score',
      'categories',
      sql<string | null>`NULL`.as('error'),
      sql<number>`1`.as('current'),
    ]);
  const kept = db
    .selectFrom('report_runs')
    .where('report_id', '=', reportId)
    .select([
      'number',
      'status',
      'source',
      'batch_id',
      'generated_at',
      'final_url',
      'result',
      'score',
      'categories',
      'error',
      sql<number>`0`.as('current'),
    ]);
  const rows = await current
    .$castTo<SummarySelect>()
    .unionAll(kept.$castTo<SummarySelect>())
    .orderBy('number', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toSummary);
}

/**
 * A kept run in full (not the current one: that is the report row), or null when there is no
 * such run (never made, or pruned).
 */
export async function findKeptRun(db: Db, reportId: number, number: number): Promise<RunRow | null> {
  if (!validId(number)) return null;
  const r = await db
    .selectFrom('report_runs')
    .selectAll()
    .where('report_id', '=', reportId)
    .where('number', '=', number)
    .executeTakeFirst();
  if (!r) return null;
  return {
    ...toSummary({ ...r, current: 0 }),
    results: r.results === null ? null : (JSON.parse(r.results) as Record<string, CheckResult>),
    page: r.page === null ? null : (JSON.parse(r.page) as PageInfo),
  };
}

/** The number of the newest completed run before run `before` that is kept, or null. */
export async function previousCompletedNumber(
  db: Db,
  reportId: number,
  before: number,
): Promise<number | null> {
  const r = await db
    .selectFrom('report_runs')
    .select('number')
    .where('report_id', '=', reportId)
    .where('status', '=', 'completed')
    .where('number', '<', before)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? toNumber(r.number) : null;
}

/** The lowest and highest run numbers kept (the current one included). */
export async function keptRange(db: Db, state: RunState): Promise<{ first: number; last: number }> {
  const r = await db
    .selectFrom('report_runs')
    .select((eb) => [eb.fn.min('number').as('first'), eb.fn.max('number').as('last')])
    .where('report_id', '=', state.reportId)
    .executeTakeFirstOrThrow();
  const first = r.first === null ? state.runNumber : Math.min(toNumber(r.first), state.runNumber);
  const last = r.last === null ? state.runNumber : Math.max(toNumber(r.last), state.runNumber);
  return { first, last };
}

/**
 * Keeps a report's newest `keep` runs (at least 1): the current run always stays (it is the
 * report), so report_runs keeps its newest `keep − 1` rows.
 */
export async function pruneRuns(db: Db, reportId: number, keep: number): Promise<void> {
  const cutoff = await db
    .selectFrom('report_runs')
    .select('number')
    .where('report_id', '=', reportId)
    .orderBy('number', 'desc')
    .offset(Math.max(0, keep - 1))
    .limit(1)
    .executeTakeFirst();
  if (!cutoff) return;
  await db
    .deleteFrom('report_runs')
    .where('report_id', '=', reportId)
    .where('number', '<=', cutoff.number)
    .execute();
}

/** The trend of each of a user's reports among `ids` (the dashboard): one query for a page. */
export async function findTrends(
  db: Db,
  userId: number,
  ids: number[],
): Promise<{ id: number; score: number; previousScore: number | null; lastRunFailed: boolean }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('reports')
    .select(['id', 'score', 'previous_score', 'run_number', 'latest_run_number'])
    .where('org_id', '=', userId)
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    score: toNumber(r.score),
    previousScore: r.previous_score === null ? null : toNumber(r.previous_score),
    lastRunFailed: toNumber(r.latest_run_number) > toNumber(r.run_number),
  }));
}
