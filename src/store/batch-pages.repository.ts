// A batch's pages table (the dashboard's batch page, docs/sites.md): filtered, sorted and paged
// by the database — a batch may hold up to PAGEGRADE_BATCH_MAX_PAGES (100,000) pages, and a
// view reads one page of them, never them all. The filters and orders are the ones the table
// offers; the score and result are read from each page's facts (JSON text) only for the sorts
// and the filter that need them.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { dialectOf, type Database, type Db } from './database.js';
import { pageQuery, toPage, type BatchPageRow, type PageState } from './batches.repository.js';
import { escapeLike, toNumber } from './sql-helpers.js';

export interface BatchPagesFilter {
  /** case-insensitive substring of the URL */
  search?: string;
  state?: PageState;
  /** audited pages with this result */
  result?: 'good' | 'decent' | 'bad';
  sortBy: 'found' | 'url' | 'score' | 'result' | 'status';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** An audited page's facts field (JSON text): SQLite json_extract, PostgreSQL ->> on the cast. */
function fact(db: Db, key: 'score' | 'result') {
  const facts = sql.ref('facts');
  const value =
    dialectOf(db) === 'postgres'
      ? key === 'score'
        ? sql`(${facts}::json ->> 'score')::integer`
        : sql`(${facts}::json ->> 'result')`
      : sql`json_extract(${facts}, ${`$.${key}`})`;
  // only an audited page has a score and a result to show (as the table shows them)
  return sql`CASE WHEN state = 'done' THEN ${value} END`;
}

/** good, decent, bad as 0, 1, 2 (the table's result order, ascending) */
const resultRank = (db: Db) =>
  sql`CASE ${fact(db, 'result')} WHEN 'good' THEN 0 WHEN 'decent' THEN 1 WHEN 'bad' THEN 2 END`;

function where(db: Db, batchId: number, f: BatchPagesFilter) {
  return (eb: ExpressionBuilder<Database, 'batch_pages'>) => {
    const conds: Expression<SqlBool>[] = [eb('batch_id', '=', batchId)];
    if (f.state !== undefined) conds.push(eb('state', '=', f.state));
    if (f.result !== undefined) conds.push(sql<SqlBool>`${fact(db, 'result')} = ${f.result}`);
    if (f.search) {
      // stored URLs never hold NUL; as a term it matches nothing (and PostgreSQL refuses it)
      if (f.search.includes('\u0000')) conds.push(sql<SqlBool>`1 = 0`);
      else {
        const pattern = `%${escapeLike(f.search)}%`;
        conds.push(
          dialectOf(db) === 'postgres'
            ? sql<SqlBool>`url ILIKE ${pattern} ESCAPE '\\'`
            : sql<SqlBool>`url LIKE ${pattern} ESCAPE '\\'`,
        );
      }
    }
    return eb.and(conds);
  };
}

/**
 * One page of a batch's pages, and how many match. Pages without a value for the sort key
 * (not audited, no status) go last either way; ties in the order found, in the same direction.
 * URLs sort by their bytes (PostgreSQL: COLLATE "C"), as JavaScript compares them.
 */
export async function listBatchPages(
  db: Db,
  batchId: number,
  f: BatchPagesFilter,
): Promise<{ items: BatchPageRow[]; total: number }> {
  const total = await db
    .selectFrom('batch_pages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where(where(db, batchId, f))
    .executeTakeFirstOrThrow();
  const n = toNumber(total.n);
  if (f.offset >= n) return { items: [], total: n };
  const dir = f.sort === 'desc' ? sql`DESC` : sql`ASC`;
  const key =
    f.sortBy === 'url'
      ? dialectOf(db) === 'postgres'
        ? sql`url COLLATE "C"`
        : sql`url`
      : f.sortBy === 'status'
        ? sql`status_code`
        : f.sortBy === 'score'
          ? fact(db, 'score')
          : f.sortBy === 'result'
            ? resultRank(db)
            : null;
  // the page's ids first, from an index of the batch (no row read for the found, URL and state
  // orders and filters; `id + 0` so that no plan walks the whole table in id order), then
  // those rows: a view reads `limit` rows of the batch, not every row before them
  const byId = sql`(id + 0)`;
  let q = db
    .selectFrom('batch_pages')
    .select('id')
    .where(where(db, batchId, f));
  // NULLS LAST (PostgreSQL, SQLite ≥ 3.30): the key is computed once a row
  if (key !== null) q = q.orderBy(sql`${key} ${dir} NULLS LAST`);
  const ids = (
    await q
      .orderBy(sql`${byId} ${dir}`)
      .limit(f.limit)
      .offset(f.offset)
      .execute()
  ).map((r) => r.id);
  if (ids.length === 0) return { items: [], total: n };
  const byIdOrder = new Map(ids.map((id, i) => [id, i]));
  const rows = (await pageQuery(db).where('id', 'in', ids).execute()).sort(
    (a, b) => byIdOrder.get(a.id)! - byIdOrder.get(b.id)!,
  );
  return { items: rows.map(toPage), total: n };
}

/**
 * How many of the batch's pages have a report (to offer deleting them with the batch): its
 * audited pages — a page turns `done` with its report in one transaction — counted in the
 * (batch_id, state, …) index, without reading a row.
 */
export async function countBatchPageReports(db: Db, batchId: number): Promise<number> {
  const r = await db
    .selectFrom('batch_pages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('batch_id', '=', batchId)
    .where('state', '=', 'done')
    .executeTakeFirstOrThrow();
  return toNumber(r.n);
}
