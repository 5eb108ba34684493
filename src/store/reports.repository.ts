// reports: every SQL statement on them (their runs and run columns: runs.repository.ts). JSON
// columns are stored as text (exact round trip, key order kept) and parsed here; dates come
// back as ISO strings. The API's hot reads (`summaryTextsByIds`, `findReportText`) return the
// JSON columns as the stored text instead, which the API's writers splice into the answer
// unparsed (docs/api.md, "CPU per request").
import type {
  Category,
  CategoryScore,
  CheckResult,
  PageInfo,
  RenderInfo,
  ResultBand,
} from '../analyzer/index.js';
import { arg, compiled, compiledOnce } from './compiled.js';
import { dialectOf, type Db } from './database.js';
import { toIso, toNumber } from './sql-helpers.js';

/** Who may see a report: 0 public, 1 private (its owner), 2 with a password. */
export type Privacy = 0 | 1 | 2;

export const RESULT_RANK: Record<ResultBand, number> = { good: 0, decent: 1, bad: 2 };

/**
 * A report as listed (no results/page): the row, and the reports feature's `ReportSummary`.
 * Dates are ISO 8601 strings in UTC with milliseconds, exactly what the API returns.
 */
export interface ReportSummaryRow {
  id: number;
  userId: number;
  /** normalised URL as audited (scheme and host lower-cased, fragment dropped) */
  url: string;
  finalUrl: string;
  project: string;
  result: ResultBand;
  score: number;
  privacy: Privacy;
  hasPassword: boolean;
  /** when the results were last generated */
  generatedAt: string;
  createdAt: string;
  updatedAt: string;
  categories: Record<Category, CategoryScore>;
}

export interface ReportRow extends ReportSummaryRow {
  results: Record<string, CheckResult>;
  page: PageInfo;
  /** rendered audits: the render object (docs/rendering.md); null for raw audits */
  render: RenderInfo | null;
}

/** The audit part of a report, as written. */
export interface AuditColumns {
  finalUrl: string;
  result: ResultBand;
  score: number;
  generatedAt: string;
  categories: Record<Category, CategoryScore>;
  results: Record<string, CheckResult>;
  page: PageInfo;
  /** null (or absent) for raw audits */
  render?: RenderInfo | null;
}

export interface ReportFilter {
  search?: string;
  project?: string;
  /** only these projects (an API key limited to them); absent: every project */
  projects?: readonly string[];
  result?: ResultBand;
}

export interface ReportListOptions extends ReportFilter {
  sortBy: 'id' | 'generated_at' | 'url' | 'result' | 'score';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const summaryColumns = [
  'reports.id',
  'reports.org_id',
  'reports.url',
  'reports.final_url',
  'reports.project',
  'reports.result',
  'reports.score',
  'reports.privacy',
  'reports.password_hash',
  'reports.generated_at',
  'reports.created_at',
  'reports.updated_at',
  'reports.categories',
] as const;

interface SummarySelect {
  id: number;
  org_id: number;
  url: string;
  final_url: string;
  project: string;
  result: string;
  score: number;
  privacy: number;
  password_hash: string | null;
  generated_at: Date | string;
  created_at: Date | string;
  updated_at: Date | string;
  categories: string;
}

/**
 * A report summary whose JSON column is the stored text (`JSON.stringify` of the value as
 * written): spliced into an API answer as it is, it gives the bytes `JSON.stringify` of the
 * parsed value would.
 */
export interface ReportSummaryText extends Omit<ReportSummaryRow, 'categories'> {
  categoriesJson: string;
}

/** A report with its JSON columns as the stored text (see ReportSummaryText). */
export interface ReportText extends ReportSummaryText {
  resultsJson: string;
  pageJson: string;
  /** null for raw audits */
  renderJson: string | null;
}

function toSummaryText(r: SummarySelect): ReportSummaryText {
  return {
    id: r.id,
    userId: r.org_id,
    url: r.url,
    finalUrl: r.final_url,
    project: r.project,
    result: r.result as ResultBand,
    score: toNumber(r.score),
    privacy: toNumber(r.privacy) as Privacy,
    hasPassword: r.password_hash !== null,
    generatedAt: toIso(r.generated_at),
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
    categoriesJson: r.categories,
  };
}

function toSummary(r: SummarySelect): ReportSummaryRow {
  const { categoriesJson, ...row } = toSummaryText(r);
  return { ...row, categories: JSON.parse(categoriesJson) as Record<Category, CategoryScore> };
}

/** The failed checks (`passed: false`) of each priority: the `*_issues` columns. */
function issueColumns(results: Record<string, CheckResult>) {
  const n = { high_issues: 0, medium_issues: 0, low_issues: 0 };
  for (const r of Object.values(results)) if (r.passed === false) n[`${r.priority}_issues`] += 1;
  return n;
}

const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

export async function insertReport(
  db: Db,
  r: AuditColumns & {
    userId: number;
    url: string;
    /** the page the report is of (docs/sites.md, "One report per page") */
    pageKey: string;
    project: string;
    privacy: number;
    passwordHash: string | null;
    now: string;
    /** a crawl's new report: its first run is the crawl's (run source `batch`) */
    batchId?: number;
  },
): Promise<number> {
  const issues = issueColumns(r.results);
  const values = [
    r.userId,
    r.url,
    r.pageKey,
    r.finalUrl,
    r.project,
    r.result,
    RESULT_RANK[r.result],
    r.score,
    r.privacy,
    r.passwordHash,
    JSON.stringify(r.categories),
    JSON.stringify(r.results),
    JSON.stringify(r.page),
    r.render ? JSON.stringify(r.render) : null,
    issues.high_issues,
    issues.medium_issues,
    issues.low_issues,
    r.generatedAt,
    r.now,
  ];
  const [row] = await insertReportQuery(
    db,
    r.batchId !== undefined,
    r.batchId !== undefined ? [...values, r.batchId] : values,
  );
  return row!.id;
}

/** insertReport's statement (a crawl's new report, with its batch, or not), compiled once each */
const insertReportQuery = compiled(
  (crawled: boolean) => String(crawled),
  (db, crawled) =>
    db
      .insertInto('reports')
      .values({
        org_id: arg<number>(0),
        url: arg<string>(1),
        page_key: arg<string>(2),
        final_url: arg<string>(3),
        project: arg<string>(4),
        result: arg<string>(5),
        result_rank: arg<number>(6),
        score: arg<number>(7),
        privacy: arg<number>(8),
        password_hash: arg<string | null>(9),
        categories: arg<string>(10),
        results: arg<string>(11),
        page: arg<string>(12),
        render: arg<string | null>(13),
        high_issues: arg<number>(14),
        medium_issues: arg<number>(15),
        low_issues: arg<number>(16),
        generated_at: arg<string>(17),
        created_at: arg<string>(18),
        updated_at: arg<string>(18),
        ...(crawled ? { run_source: 'batch', run_batch_id: arg<number>(19) } : {}),
      })
      .returning('id'),
);

/**
 * One report with its results and page; `userId` scopes it to its owner (null = any owner).
 * `forUpdate` locks the row until the transaction ends (PostgreSQL; SQLite's transactions
 * already hold the write lock).
 */
export async function findReport(
  db: Db,
  id: number,
  userId: number | null,
  forUpdate = false,
): Promise<ReportRow | null> {
  const r = await selectReport(db, id, userId, forUpdate);
  if (!r) return null;
  return {
    ...toSummary(r),
    results: JSON.parse(r.results) as Record<string, CheckResult>,
    page: JSON.parse(r.page) as PageInfo,
    render: r.render ? (JSON.parse(r.render) as RenderInfo) : null,
  };
}

/** As findReport (never locking), with the JSON columns as the stored text (ReportText). */
export async function findReportText(db: Db, id: number, userId: number | null): Promise<ReportText | null> {
  const r = await selectReport(db, id, userId, false);
  if (!r) return null;
  return { ...toSummaryText(r), resultsJson: r.results, pageJson: r.page, renderJson: r.render };
}

const reportQuery = compiled(
  (s: { owner: boolean; forUpdate: boolean }) => `${s.owner}:${s.forUpdate}`,
  (db, s) => {
    let q = db
      .selectFrom('reports')
      .select([...summaryColumns, 'reports.results', 'reports.page', 'reports.render'])
      .where('reports.id', '=', arg<number>(0));
    if (s.owner) q = q.where('reports.org_id', '=', arg<number>(1));
    if (s.forUpdate) q = q.forUpdate();
    return q;
  },
);

async function selectReport(db: Db, id: number, userId: number | null, forUpdate: boolean) {
  if (!validId(id)) return undefined;
  const shape = { owner: userId !== null, forUpdate: forUpdate && dialectOf(db) === 'postgres' };
  const [row] = await reportQuery(db, shape, [id, userId]);
  return row;
}

export async function getPasswordHash(db: Db, id: number): Promise<string | null> {
  if (!validId(id)) return null;
  const row = await db.selectFrom('reports').select('password_hash').where('id', '=', id).executeTakeFirst();
  return row?.password_hash ?? null;
}

/** The summaries of these reports, in the order of `ids` (ids no longer there are skipped). */
export async function summariesByIds(db: Db, ids: number[]): Promise<ReportSummaryRow[]> {
  return inOrder(ids, await selectSummaries(db, ids), toSummary);
}

/** As summariesByIds, with `categories` as the stored text (ReportSummaryText). */
export async function summaryTextsByIds(db: Db, ids: number[]): Promise<ReportSummaryText[]> {
  return inOrder(ids, await selectSummaries(db, ids), toSummaryText);
}

/** by the number of ids (a page holds at most 100) */
const summariesQuery = compiled(
  (n: number) => String(n),
  (db, n) =>
    db
      .selectFrom('reports')
      .select(summaryColumns)
      .where(
        'reports.id',
        'in',
        Array.from({ length: n }, (_, i) => arg<number>(i)),
      ),
);

async function selectSummaries(db: Db, ids: number[]): Promise<SummarySelect[]> {
  if (ids.length === 0) return [];
  // more ids than a page holds (a caller other than the lists): built for this call only
  if (ids.length > 100)
    return db.selectFrom('reports').select(summaryColumns).where('reports.id', 'in', ids).execute();
  return summariesQuery(db, ids.length, ids);
}

function inOrder<T>(ids: number[], rows: SummarySelect[], to: (r: SummarySelect) => T): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [to(row)] : [];
  });
}

export async function updateReportSettings(
  db: Db,
  id: number,
  s: { privacy: number; passwordHash: string | null; now: string },
): Promise<void> {
  await db
    .updateTable('reports')
    .set({ privacy: s.privacy, password_hash: s.passwordHash, updated_at: s.now })
    .where('id', '=', id)
    .execute();
}

export async function updateReportAudit(db: Db, id: number, a: AuditColumns): Promise<void> {
  await db
    .updateTable('reports')
    .set({
      final_url: a.finalUrl,
      result: a.result,
      result_rank: RESULT_RANK[a.result],
      score: a.score,
      categories: JSON.stringify(a.categories),
      results: JSON.stringify(a.results),
      page: JSON.stringify(a.page),
      render: a.render ? JSON.stringify(a.render) : null,
      ...issueColumns(a.results),
      generated_at: a.generatedAt,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * The user's report of page `pageKey` in `project` (the newest when several were made before
 * crawls kept one per page), or null: the report a crawl adds its run to.
 */
export async function findPageReport(
  db: Db,
  userId: number,
  project: string,
  pageKey: string,
): Promise<number | null> {
  const [row] = await pageReportQuery(db, [userId, project, pageKey]);
  return row?.id ?? null;
}

const pageReportQuery = compiledOnce((db) =>
  db
    .selectFrom('reports')
    .select('id')
    .where('org_id', '=', arg<number>(0))
    .where('project', '=', arg<string>(1))
    .where('page_key', '=', arg<string>(2))
    .orderBy('id', 'desc')
    .limit(1),
);

/** Deletes one of a user's reports; returns what the counters need, or null when there was none. */
export async function deleteReport(
  db: Db,
  id: number,
  userId: number,
): Promise<{ project: string; result: ResultBand } | null> {
  if (!validId(id)) return null;
  const row = await db
    .deleteFrom('reports')
    .where('id', '=', id)
    .where('org_id', '=', userId)
    .returning(['project', 'result'])
    .executeTakeFirst();
  return row ? { project: row.project, result: row.result as ResultBand } : null;
}

/** Deletes every report of a project (their runs cascade); returns how many of each result. */
export async function deleteProjectReports(
  db: Db,
  userId: number,
  project: string,
): Promise<Record<ResultBand, number>> {
  const rows = await db
    .deleteFrom('reports')
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .returning('result_rank')
    .execute();
  const out: Record<ResultBand, number> = { good: 0, decent: 0, bad: 0 };
  for (const r of rows) {
    const rank = toNumber(r.result_rank);
    if (rank === 0) out.good++;
    else if (rank === 1) out.decent++;
    else out.bad++;
  }
  return out;
}

/** The project of one of a user's reports, without locking (a report never changes project). */
export async function findReportProject(db: Db, id: number, userId: number): Promise<string | null> {
  if (!validId(id)) return null;
  const row = await db
    .selectFrom('reports')
    .select('project')
    .where('id', '=', id)
    .where('org_id', '=', userId)
    .executeTakeFirst();
  return row?.project ?? null;
}
