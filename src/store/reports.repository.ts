// reports: every SQL statement on them (their runs and run columns: runs.repository.ts). JSON
// columns are stored as text (exact round trip, key order kept) and parsed here; dates come
// back as ISO strings. The API's hot reads (`summaryTextsByIds`, `findReportText`) return the
// JSON columns as the stored text instead, which the API's writers splice into the answer
// unparsed (docs/api.md, "CPU per request").
import { sql } from 'kysely';
import type {
  Category,
  CategoryScore,
  CheckResult,
  PageInfo,
  RenderInfo,
  ResultBand,
} from '../analyzer/index.js';
import { arg, compiled } from './compiled.js';
import { dialectOf, type Db, type Dialect } from './database.js';
import { canFilterRowByRow, substringFilter, substringMatch, toIso, toNumber } from './sql-helpers.js';

export const RESULT_RANK: Record<ResultBand, number> = { good: 0, decent: 1, bad: 2 };

/** Who may see a report: 0 public, 1 private, 2 password. */
export type Privacy = 0 | 1 | 2;

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
  'reports.user_id',
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
  user_id: number;
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
    userId: r.user_id,
    url: r.url,
    finalUrl: r.final_url,
    project: r.project,
    result: r.result as ResultBand,
    score: toNumber(r.score),
    privacy: toNumber(r.privacy) as 0 | 1 | 2,
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
    project: string;
    privacy: number;
    passwordHash: string | null;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('reports')
    .values({
      user_id: r.userId,
      url: r.url,
      final_url: r.finalUrl,
      project: r.project,
      result: r.result,
      result_rank: RESULT_RANK[r.result],
      score: r.score,
      privacy: r.privacy,
      password_hash: r.passwordHash,
      categories: JSON.stringify(r.categories),
      results: JSON.stringify(r.results),
      page: JSON.stringify(r.page),
      render: r.render ? JSON.stringify(r.render) : null,
      ...issueColumns(r.results),
      generated_at: r.generatedAt,
      created_at: r.now,
      updated_at: r.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

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
    if (s.owner) q = q.where('reports.user_id', '=', arg<number>(1));
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

/**
 * How a search condition is evaluated: `trigram` through the trigram index (every match, then
 * the filters); `rowByRow`: the URL of each row of the walked index is checked (never the
 * trigram index); `probe` (SQLite): the trigram matches are looked up while walking the
 * covering sort index, so no table row is read for them; `sortMatches` (PostgreSQL,
 * sort_by=url): through the trigram index, sorted on an expression no index serves.
 */
type SearchPlan = 'trigram' | 'rowByRow' | 'probe' | 'sortMatches';

function filtered(db: Db, userId: number, f: ReportFilter, plan: SearchPlan = 'trigram') {
  let q = db.selectFrom('reports').where('reports.user_id', '=', userId);
  if (f.project !== undefined) q = q.where('reports.project', '=', f.project);
  if (f.projects !== undefined) q = q.where('reports.project', 'in', [...f.projects]);
  if (f.result !== undefined) q = q.where('reports.result_rank', '=', RESULT_RANK[f.result]);
  if (f.search) {
    const dialect = dialectOf(db);
    q = q.where(
      plan === 'rowByRow'
        ? substringFilter(dialect, 'reports', 'url', f.search)
        : substringMatch(dialect, 'reports', 'url', f.search, plan === 'probe'),
    );
  }
  return q;
}

/** What is known of a search before its page is read: its total, and the rows it is taken from. */
export interface SearchEstimate {
  /** the exact number of matches (the list's total) */
  matches: number;
  /** how many of the user's reports pass the other filters (or an upper bound) */
  rows: number;
}

/** At most this many index entries expected to be walked for a page found row by row. */
export const WALK_MAX_ROWS = 5_000;

/** SQLite: more trigram matches than this are probed from the sort index rather than fetched by rowid. */
export const PROBE_MIN_MATCHES = 1_000;

/**
 * How a search page is found. The trigram index yields every match (cost ∝ matches, then a
 * sort); walking the index of the requested order and checking each row's URL stops at the
 * page's last match, after about (offset + limit) × rows / matches entries when the matches
 * are spread over that order — true of ids, dates and results, not of URLs (a term such as a
 * host name matches one stretch of the URL order), so sort_by=url walks only when even the
 * worst case (every non-match before the page: rows − matches + offset + limit entries) costs
 * no more than the matches.
 * On SQLite, many trigram matches in an order other than id are probed from the covering
 * sort index (`probe`), not fetched by rowid: that would read every matching (fat) row.
 * On PostgreSQL, many matches sorted by URL (no project filter) are sorted after the trigram
 * index yields them (`sortMatches`): left alone, the planner walks the URL index with the
 * ILIKE filter, through the whole stretch of URLs before the matching ones.
 */
export function searchPlan(
  dialect: Dialect,
  o: ReportListOptions,
  e: SearchEstimate | undefined,
): SearchPlan {
  if (!o.search || !e || e.matches <= 0) return 'trigram';
  const walked =
    o.sortBy === 'url'
      ? e.rows - e.matches + o.offset + o.limit
      : ((o.offset + o.limit) * e.rows) / e.matches;
  const walkLimit = o.sortBy === 'url' ? e.matches : Math.min(WALK_MAX_ROWS, e.matches);
  if (walked <= walkLimit && canFilterRowByRow(dialect, o.search)) return 'rowByRow';
  if (e.matches > PROBE_MIN_MATCHES) {
    if (dialect === 'sqlite' && o.sortBy !== 'id') return 'probe';
    if (dialect === 'postgres' && o.sortBy === 'url' && o.project === undefined) return 'sortMatches';
  }
  return 'trigram';
}

const sortColumn = {
  id: null,
  generated_at: 'reports.generated_at',
  url: 'reports.url',
  result: 'reports.result_rank',
  score: 'reports.score',
} as const;

/**
 * A page of report summaries (no results/page columns are read). Ties broken by id, same
 * direction. With a search, `estimate` chooses how the page is found (`searchPlan`). The
 * page's ids come first from the index alone (deep offsets skip index entries, not table
 * rows), then the rows for those ids.
 */
export async function listReports(
  db: Db,
  userId: number,
  o: ReportListOptions,
  estimate?: SearchEstimate,
): Promise<ReportSummaryRow[]> {
  return summariesByIds(db, await listReportIds(db, userId, o, estimate));
}

/** The ids of a page of `listReports`, in order. */
export async function listReportIds(
  db: Db,
  userId: number,
  o: ReportListOptions,
  estimate?: SearchEstimate,
): Promise<number[]> {
  if (!o.search) {
    // compiled once per shape: values 0 user, 1 project, 2 result rank, 3 limit, 4 offset, 5… projects
    const shape = {
      project: o.project !== undefined,
      projects: o.projects?.length ?? -1,
      result: o.result !== undefined,
      sortBy: o.sortBy,
      sort: o.sort,
    };
    const rank = o.result === undefined ? null : RESULT_RANK[o.result];
    const values = [userId, o.project ?? null, rank, o.limit, o.offset, ...(o.projects ?? [])];
    return (await pageIdsQuery(db, shape, values)).map((r) => r.id);
  }
  const plan = searchPlan(dialectOf(db), o, estimate);
  let ids = filtered(db, userId, o, plan).select('reports.id');
  const column = sortColumn[o.sortBy];
  // `url || ''` sorts as url (same collation) but cannot be read in order from an index
  if (plan === 'sortMatches') ids = ids.orderBy(sql`${sql.ref('reports.url')} || ''`, o.sort);
  else if (column !== null) ids = ids.orderBy(column, o.sort);
  const page = await ids.orderBy('reports.id', o.sort).limit(o.limit).offset(o.offset).execute();
  return page.map((r) => r.id);
}

interface PageShape {
  project: boolean;
  /** -1: no list of projects */
  projects: number;
  result: boolean;
  sortBy: ReportListOptions['sortBy'];
  sort: ReportListOptions['sort'];
}

/** The ids of a page without a search (listReportIds), compiled once per shape. */
const pageIdsQuery = compiled(
  (s: PageShape) => `${s.project}:${s.projects}:${s.result}:${s.sortBy}:${s.sort}`,
  (db, s) => {
    let q = db.selectFrom('reports').where('reports.user_id', '=', arg<number>(0));
    if (s.project) q = q.where('reports.project', '=', arg<string>(1));
    if (s.projects >= 0)
      q = q.where(
        'reports.project',
        'in',
        Array.from({ length: s.projects }, (_, i) => arg<string>(5 + i)),
      );
    if (s.result) q = q.where('reports.result_rank', '=', arg<number>(2));
    let ids = q.select('reports.id');
    const column = sortColumn[s.sortBy];
    if (column !== null) ids = ids.orderBy(column, s.sort);
    return ids.orderBy('reports.id', s.sort).limit(arg<number>(3)).offset(arg<number>(4));
  },
);

/** A report as the CSV of a list has it (docs/api.md#csv): no JSON column is read. */
export interface ReportExportRow {
  id: number;
  url: string;
  project: string;
  result: ResultBand;
  score: number;
  highIssues: number;
  mediumIssues: number;
  lowIssues: number;
  generatedAt: string;
  createdAt: string;
}

/** Where a walk stopped: the last row's sort value (as the database gave it) and id. */
export interface WalkCursor {
  key: unknown;
  id: number;
}

export interface ReportWalkOptions extends ReportFilter {
  sortBy: ReportListOptions['sortBy'];
  sort: ReportListOptions['sort'];
  /** only this batch's reports (then sorted by id, ascending; the other filters do not apply) */
  batch?: number;
  limit: number;
  /** the cursor of the previous chunk; null: the first chunk */
  after: WalkCursor | null;
}

/**
 * One chunk of a keyset walk over the reports a list matches, in the list's order (ties by
 * id, same direction): `(sort value, id)` after the cursor, through the same (user_id, …, id)
 * indexes as the list's pages, so every chunk costs its own rows whatever its depth. A search
 * is checked row by row while walking (`substringFilter`; on SQLite a non-ASCII term probes
 * the trigram matches), so a whole walk reads each row of the order at most once.
 * `next` is null after the last chunk.
 */
export async function walkReports(
  db: Db,
  userId: number,
  o: ReportWalkOptions,
): Promise<{ rows: ReportExportRow[]; next: WalkCursor | null }> {
  const dialect = dialectOf(db);
  const batch = o.batch !== undefined;
  const sortBy = batch ? 'id' : o.sortBy;
  const dir = batch ? 'asc' : o.sort;
  const plan: SearchPlan = o.search && canFilterRowByRow(dialect, o.search) ? 'rowByRow' : 'probe';
  let q = batch
    ? db
        .selectFrom('reports')
        .where('reports.user_id', '=', userId)
        .where('reports.id', 'in', (eb) =>
          eb
            .selectFrom('batch_pages')
            .select('batch_pages.report_id')
            .where('batch_pages.batch_id', '=', o.batch!),
        )
    : filtered(db, userId, o, dialect === 'postgres' && plan === 'probe' ? 'trigram' : plan);
  const column = sortColumn[sortBy];
  const cmp = sql.raw(dir === 'asc' ? '>' : '<');
  if (o.after !== null) {
    const id = sql.ref('reports.id');
    q =
      column === null
        ? q.where(sql<boolean>`${id} ${cmp} ${o.after.id}`)
        : q.where(sql<boolean>`(${sql.ref(column)}, ${id}) ${cmp} (${o.after.key}, ${o.after.id})`);
  }
  let ordered = q.select([
    'reports.id',
    'reports.url',
    'reports.project',
    'reports.result',
    'reports.result_rank',
    'reports.score',
    'reports.high_issues',
    'reports.medium_issues',
    'reports.low_issues',
    'reports.generated_at',
    'reports.created_at',
  ]);
  if (column !== null) ordered = ordered.orderBy(column, dir);
  const raw = await ordered.orderBy('reports.id', dir).limit(o.limit).execute();
  const last = raw.at(-1);
  const keyOf = {
    id: () => null,
    generated_at: (r: NonNullable<typeof last>) => r.generated_at,
    url: (r: NonNullable<typeof last>) => r.url,
    result: (r: NonNullable<typeof last>) => r.result_rank,
    score: (r: NonNullable<typeof last>) => r.score,
  }[sortBy];
  return {
    rows: raw.map((r) => ({
      id: r.id,
      url: r.url,
      project: r.project,
      result: r.result as ResultBand,
      score: toNumber(r.score),
      highIssues: toNumber(r.high_issues),
      mediumIssues: toNumber(r.medium_issues),
      lowIssues: toNumber(r.low_issues),
      generatedAt: toIso(r.generated_at),
      createdAt: toIso(r.created_at),
    })),
    next: last && raw.length === o.limit ? { key: keyOf(last), id: last.id } : null,
  };
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

/** Counts through the indexes (used when a filter applies; unfiltered totals are counters). */
export async function countReports(db: Db, userId: number, f: ReportFilter): Promise<number> {
  const row = await filtered(db, userId, f)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
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
    .where('user_id', '=', userId)
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
    .where('user_id', '=', userId)
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
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.project ?? null;
}
