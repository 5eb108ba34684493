// A batch's frontier (docs/sites.md, "How it works"): the SQL that adds pages to a batch, marks
// the ones its sitemap lists, hands the queued ones to the page jobs, and gives out the site's
// request slots (politeness). Split from batches.repository.ts, which keeps the batch rows and a
// page's own reads and writes.
import { batchRowsByUrl } from './batch-url-lookup.js';
import { arg, compiled, compiledOnce } from './compiled.js';
import type { Db } from './database.js';
import { pageQuery, toPage, type BatchPageRow, type PageState } from './batches.repository.js';
import { toNumber } from './sql-helpers.js';

/**
 * Adds URLs to the frontier (those already there are left as they are); answers how many were
 * new. `inSitemap` marks a URL the sitemap lists (also on a URL already there).
 */
export async function insertPages(
  db: Db,
  batchId: number,
  pages: { url: string; depth: number; inSitemap?: boolean; state?: PageState; error?: string }[],
  now: string,
): Promise<number> {
  let added = 0;
  for (let i = 0; i < pages.length; i += 200) {
    const chunk = pages.slice(i, i + 200);
    const rows = await db
      .insertInto('batch_pages')
      .values(
        chunk.map((p) => ({
          batch_id: batchId,
          url: p.url,
          depth: p.depth,
          in_sitemap: p.inSitemap ? 1 : 0,
          state: p.state ?? 'queued',
          error: p.error ?? null,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['batch_id', 'url']).doNothing())
      .returning('id')
      .execute();
    added += rows.length;
  }
  return added;
}

export async function markInSitemap(db: Db, batchId: number, urls: string[]): Promise<void> {
  for (let i = 0; i < urls.length; i += 500) {
    await db
      .updateTable('batch_pages')
      .set({ in_sitemap: 1 })
      .where('batch_id', '=', batchId)
      .where('url', 'in', urls.slice(i, i + 500))
      .execute();
  }
}

export async function existingUrls(db: Db, batchId: number, urls: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < urls.length; i += 500)
    for (const r of await batchRowsByUrl(db, 'batch_pages', batchId, urls.slice(i, i + 500))) out.add(r.url);
  return out;
}

export async function countPagesInState(db: Db, batchId: number, state: PageState): Promise<number> {
  const [r] = await countInStateQuery(db, [batchId, state]);
  return toNumber(r!.n);
}

const countInStateQuery = compiledOnce((db) =>
  db
    .selectFrom('batch_pages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('batch_id', '=', arg<number>(0))
    .where('state', '=', arg<PageState>(1)),
);

/** The next queued pages (shallowest first, then in order found), marked `fetching`. */
export async function takeQueuedPages(
  db: Db,
  batchId: number,
  limit: number,
  now: string,
): Promise<BatchPageRow[]> {
  if (limit <= 0) return [];
  const rows = await queuedQuery(db, [batchId, limit]);
  if (rows.length === 0) return [];
  // one statement for the pages taken (few: up to the batch's free page slots), compiled once
  // per count up to a bound, then built each time
  const ids = rows.map((r) => r.id);
  if (ids.length <= MARK_COMPILED) await markFetching(db, ids.length, [now, ...ids]);
  else
    await db
      .updateTable('batch_pages')
      .set({ state: 'fetching', updated_at: now })
      .where('id', 'in', ids)
      .execute();
  return rows.map((r) => ({ ...toPage(r), state: 'fetching' as const }));
}

const queuedQuery = compiledOnce((db) =>
  pageQuery(db)
    .where('batch_id', '=', arg<number>(0))
    .where('state', '=', 'queued')
    .orderBy('depth')
    .orderBy('id')
    .limit(arg<number>(1)),
);

/** page counts whose `fetching` update is kept compiled */
const MARK_COMPILED = 16;
const markFetching = compiled(
  (count: number) => String(count),
  (db, count) =>
    db
      .updateTable('batch_pages')
      .set({ state: 'fetching', updated_at: arg<string>(0) })
      .where(
        'id',
        'in',
        Array.from({ length: count }, (_, i) => arg<number>(i + 1)),
      ),
);

/** Queued pages end skipped with this reason (a time budget, a cancel); answers how many. */
export async function skipQueuedPages(db: Db, batchId: number, reason: string, now: string): Promise<number> {
  const r = await db
    .updateTable('batch_pages')
    .set({ state: 'skipped', error: reason, updated_at: now })
    .where('batch_id', '=', batchId)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Reserves the batch's next request slot: max(now, next_slot_at), and moves next_slot_at one
 * delay past it. Run in a transaction that locked the batch (FOR UPDATE / BEGIN IMMEDIATE).
 */
export async function reserveSlot(db: Db, batchId: number, nowMs: number): Promise<number> {
  const r = await db
    .selectFrom('batches')
    .select(['next_slot_at', 'delay_ms'])
    .where('id', '=', batchId)
    .executeTakeFirstOrThrow();
  const slot = Math.max(nowMs, toNumber(r.next_slot_at));
  await db
    .updateTable('batches')
    .set({ next_slot_at: slot + toNumber(r.delay_ms) })
    .where('id', '=', batchId)
    .execute();
  return slot;
}
