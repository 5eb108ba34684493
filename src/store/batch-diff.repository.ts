// The comparison of two crawls (docs/sites.md, "Comparing crawls"): the SQL it needs — a
// project's previous finished crawl, a batch's pages in URL-ordered chunks of the columns the
// diff reads (an audited page's digest, its facts only when it has none: never every page's
// facts at once) — with its custom extraction values when the diff compares them —, the values
// of named pages, and the stored diff and site score.
import { sql } from 'kysely';
import type { BatchStatus } from './batches.repository.js';
import type { Db } from './database.js';
import { toNumber } from './sql-helpers.js';

const MAX_INT = 2_147_483_647;
const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_INT;

export interface DiffPageRow {
  url: string;
  state: string;
  statusCode: number | null;
  finalUrl: string | null;
  canonicalKey: string | null;
  /** an audited page's digest (src/crawl/diff.ts, factsDigest); null for pages audited before it was kept */
  digest: string | null;
  /** the facts (JSON text) of an audited page with no digest (null otherwise: never read when not needed) */
  facts: string | null;
  /** an audited page's custom extraction values (JSON text), when asked for (null otherwise) */
  extracted: string | null;
}

/**
 * The newest batch of the project before `beforeId` (null: of all) that ended `done` — the one a
 * crawl is compared with, or the project's latest finished crawl.
 */
export async function previousDoneBatch(
  db: Db,
  userId: number,
  project: string,
  beforeId: number | null,
): Promise<number | null> {
  const status: BatchStatus = 'done';
  let q = db
    .selectFrom('batches')
    .select('id')
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .where('status', '=', status);
  if (beforeId !== null) q = q.where('id', '<', beforeId);
  const r = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
  return r?.id ?? null;
}

/**
 * Up to `limit` pages of a batch after the URL `afterUrl` ('' for the first), in URL order: a
 * range of the (batch_id, url) index each time, nothing sorted (in id order, each chunk sorted
 * all the batch's rows again). `extracted`: with the audited pages' custom extraction values.
 */
export async function diffPagesAfter(
  db: Db,
  batchId: number,
  afterUrl: string,
  limit: number,
  extracted = false,
): Promise<DiffPageRow[]> {
  const rows = await db
    .selectFrom('batch_pages')
    .select(['url', 'state', 'status_code', 'final_url', 'canonical_key', 'digest'])
    // the facts, with their links, only where a page audited before digests were kept needs them
    .select(sql<string | null>`CASE WHEN digest IS NULL AND state = 'done' THEN facts END`.as('facts'))
    .select(
      (extracted
        ? sql<string | null>`CASE WHEN state = 'done' THEN extracted END`
        : sql<string | null>`NULL`
      ).as('extracted'),
    )
    .where('batch_id', '=', batchId)
    .where('url', '>', afterUrl)
    .orderBy('url')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    url: r.url,
    state: r.state,
    statusCode: r.status_code === null ? null : toNumber(r.status_code),
    finalUrl: r.final_url,
    canonicalKey: r.canonical_key,
    digest: r.digest,
    facts: r.facts,
    extracted: r.extracted,
  }));
}

/** The custom extraction values (JSON text) of the batch's audited pages among `urls`, by URL. */
export async function extractedOfPages(
  db: Db,
  batchId: number,
  urls: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < urls.length; i += 500) {
    const rows = await db
      .selectFrom('batch_pages')
      .select(['url', 'extracted'])
      .where('batch_id', '=', batchId)
      .where('url', 'in', urls.slice(i, i + 500))
      .where('state', '=', 'done')
      .where('extracted', 'is not', null)
      .execute();
    for (const r of rows) out.set(r.url, r.extracted!);
  }
  return out;
}

/** A batch's stored diff (JSON text) and site score; null when the batch does not exist. */
export async function findBatchDiff(
  db: Db,
  id: number,
): Promise<{ diff: string | null; siteScore: number | null } | null> {
  if (!validId(id)) return null;
  const r = await db
    .selectFrom('batches')
    .select(['diff', 'site_score'])
    .where('id', '=', id)
    .executeTakeFirst();
  return r ? { diff: r.diff, siteScore: r.site_score === null ? null : toNumber(r.site_score) } : null;
}

export async function saveBatchDiff(
  db: Db,
  id: number,
  set: { diff: string | null; siteScore: number | null },
): Promise<void> {
  await db
    .updateTable('batches')
    .set({ diff: set.diff, site_score: set.siteScore })
    .where('id', '=', id)
    .execute();
}
