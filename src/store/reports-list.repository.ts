// The reports' lists: every SQL statement that filters, sorts, pages, counts or walks a user's
// reports (the API's and the dashboard's lists, the CSV walk), and how a search is planned.
// The rows they answer are reports.repository.ts's.
import { sql } from 'kysely';
import { arg, compiled } from './compiled.js';
import { dialectOf, type Db, type Dialect } from './database.js';
import { canFilterRowByRow, substringFilter, substringMatch, toIso, toNumber } from './sql-helpers.js';
import type { ResultBand } from '../analyzer/index.js';
import {
  RESULT_RANK,
  summariesByIds,
  type ReportFilter,
  type ReportListOptions,
  type ReportSummaryRow,
} from './reports.repository.js';

/**
 * How a search condition is evaluated: `trigram` through the trigram index (every match, then
 * the filters); `rowByRow`: the URL of each row of the walked index is checked (never the
 * trigram index); `probe` (SQLite): the trigram matches are looked up while walking the
 * covering sort index, so no table row is read for them; `sortMatches` (PostgreSQL,
 * sort_by=url): through the trigram index, sorted on an expression no index serves.
 */
type SearchPlan = 'trigram' | 'rowByRow' | 'probe' | 'sortMatches';

function filtered(db: Db, userId: number, f: ReportFilter, plan: SearchPlan = 'trigram') {
  let q = db.selectFrom('reports').where('reports.org_id', '=', userId);
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
    let q = db.selectFrom('reports').where('reports.org_id', '=', arg<number>(0));
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
 * id, same direction): `(sort value, id)` after the cursor, through the same (org_id, …, id)
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
        .where('reports.org_id', '=', userId)
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

/** Counts through the indexes (used when a filter applies; unfiltered totals are counters). */
export async function countReports(db: Db, userId: number, f: ReportFilter): Promise<number> {
  const row = await filtered(db, userId, f)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

/** `countReports`, counting no further than `bound + 1` (a search's matches: bound + 1 = "more"). */
export async function countReportsUpTo(
  db: Db,
  userId: number,
  f: ReportFilter,
  bound: number,
): Promise<number> {
  const row = await db
    .selectFrom(
      filtered(db, userId, f)
        .select('reports.id')
        .limit(bound + 1)
        .as('m'),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

/**
 * Of the user's newest `sample` reports that pass the other filters, how many a search matches
 * (its condition checked row by row, `substringFilter`: only for a term `canFilterRowByRow`
 * answers for): the share an estimated total is made from.
 */
export async function sampleSearchShare(
  db: Db,
  userId: number,
  f: ReportFilter & { search: string },
  sample: number,
): Promise<{ sampled: number; matched: number }> {
  const { search, ...others } = f;
  const matches = substringFilter(dialectOf(db), 'reports', 'url', search);
  const row = await db
    .selectFrom(
      filtered(db, userId, others)
        .select('reports.url')
        .orderBy('reports.id', 'desc')
        .limit(sample)
        .as('reports'),
    )
    .select((eb) => [
      eb.fn.countAll().as('sampled'),
      eb.fn.sum<number | string | null>(sql`CASE WHEN ${matches} THEN 1 ELSE 0 END`).as('matched'),
    ])
    .executeTakeFirstOrThrow();
  return { sampled: toNumber(row.sampled), matched: toNumber(row.matched ?? 0) };
}
