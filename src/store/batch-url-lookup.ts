// A batch's rows by URL, one probe of the (batch_id, url) unique index each: batch_pages (the
// frontier's "which of these links are pages already") and batch_link_urls (a page's link
// targets' ids). Both run in every page's transaction.
//
// On PostgreSQL the lookup is a lateral probe per URL. `batch_id = $1 AND url IN (…)` let the
// planner, on statistics that predate the batch's rows (a batch in its first minute, before
// autoanalyze, or any new batch_id past the histogram), scan the batch's whole range on
// batch_id alone and filter the URLs: each page then read every row of its batch, a cost that
// grew with the batch (bench/crawl-load.ts counted it; test/store/crawl-plans.test.ts keeps
// it away). SQLite's planner probes the index with both columns as it is written.
import { sql } from 'kysely';
import { arg, compiled } from './compiled.js';
import { dialectOf, type Db } from './database.js';

type Table = 'batch_pages' | 'batch_link_urls';

/** The `id` and `url` of the batch's rows among `urls` (URLs it has no row for are left out). */
export async function batchRowsByUrl(
  db: Db,
  table: Table,
  batchId: number,
  urls: readonly string[],
): Promise<{ id: number; url: string }[]> {
  if (urls.length === 0) return [];
  if (dialectOf(db) === 'postgres') {
    const r = await sql<{ id: number; url: string }>`
      SELECT t.id, v.url FROM unnest(${[...urls]}::text[]) AS v(url)
      CROSS JOIN LATERAL (SELECT id FROM ${sql.table(table)}
                          WHERE batch_id = ${batchId} AND url = v.url LIMIT 1) AS t`.execute(db);
    return r.rows;
  }
  if (urls.length <= COMPILED_URLS) return lookupQuery(db, { table, count: urls.length }, [batchId, ...urls]);
  return db
    .selectFrom(table)
    .select(['id', 'url'])
    .where('batch_id', '=', batchId)
    .where('url', 'in', [...urls])
    .execute();
}

/** URL counts whose SQLite lookup is kept compiled (a page's links go in chunks of 64: batch-links.repository.ts) */
const COMPILED_URLS = 64;
const lookupQuery = compiled(
  (s: { table: Table; count: number }) => `${s.table}:${s.count}`,
  (db, s) =>
    db
      .selectFrom(s.table)
      .select(['id', 'url'])
      .where('batch_id', '=', arg<number>(0))
      .where(
        'url',
        'in',
        Array.from({ length: s.count }, (_, i) => arg<string>(i + 1)),
      ),
);
