// A batch's link graph (docs/sites.md "The link graph"): written with each audited page's
// result, in its transaction; read paged and filtered by the database (GET
// /api/v1/batches/{id}/links), in keyset chunks for the CSV, summed up per page, and the rows
// the link findings read (internal nofollow links).
import { sql } from 'kysely';
import { batchRowsByUrl } from './batch-url-lookup.js';
import { arg, compiled } from './compiled.js';
import type { Db } from './database.js';
import { toNumber } from './sql-helpers.js';

export interface LinkInput {
  url: string;
  anchor: string;
  rel: string | null;
  nofollow: boolean;
  internal: boolean;
}

export interface LinkRow {
  source: string;
  target: string;
  anchor: string;
  rel: string | null;
  nofollow: boolean;
  internal: boolean;
  /** the target's HTTP status as the batch fetched it; null: not fetched (or no answer) */
  targetStatus: number | null;
  /** keyset: the source page's id and the link's position on it */
  sourceId: number;
  position: number;
}

export interface LinkFilter {
  source?: string;
  target?: string;
  /** an HTTP status range [from, to], or `none`: a target the batch has no status for */
  status?: { from: number; to: number } | 'none';
  internal?: boolean;
}

/**
 * rows written by one statement: 64, so that every statement's shape (a count of rows, 1–64) is
 * compiled once and kept (a page's links are written in every page's transaction: issue 24
 * §4), and far under SQLite's and PostgreSQL's parameter limits (8 values a row)
 */
const CHUNK = 64;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * An audited page's links (its batch_pages id `sourceId`), in page order. The URLs join the
 * batch's URL list first (sorted, so two pages' transactions take the same rows in the same
 * order: no deadlock), then the links name them by id.
 */
export async function insertPageLinks(
  db: Db,
  batchId: number,
  sourceId: number,
  links: readonly LinkInput[],
): Promise<void> {
  if (links.length === 0) return;
  const urls = [...new Set(links.map((l) => l.url))].sort();
  const ids = new Map<string, number>();
  for (const part of chunks(urls)) {
    await insertUrlsQuery(db, part.length, [batchId, ...part]);
    for (const r of await batchRowsByUrl(db, 'batch_link_urls', batchId, part)) ids.set(r.url, r.id);
  }
  for (const [n, part] of chunks(links).entries()) {
    const values: unknown[] = [batchId, sourceId];
    part.forEach((l, i) =>
      values.push(n * CHUNK + i, ids.get(l.url)!, l.anchor, l.rel, l.nofollow ? 1 : 0, l.internal ? 1 : 0),
    );
    await insertLinksQuery(db, part.length, values);
  }
}

/** `count` URLs (values 1…count) into the batch's (value 0) URL list, those there already left */
const insertUrlsQuery = compiled(
  (count: number) => String(count),
  (db, count) =>
    db
      .insertInto('batch_link_urls')
      .values(
        Array.from({ length: count }, (_, i) => ({ batch_id: arg<number>(0), url: arg<string>(i + 1) })),
      )
      .onConflict((oc) => oc.columns(['batch_id', 'url']).doNothing()),
);

/** `count` links of the batch's (value 0) page (value 1), 6 values each from value 2 on */
const insertLinksQuery = compiled(
  (count: number) => String(count),
  (db, count) =>
    db
      .insertInto('batch_links')
      .values(
        Array.from({ length: count }, (_, i) => ({
          batch_id: arg<number>(0),
          source_id: arg<number>(1),
          position: arg<number>(2 + 6 * i),
          target_id: arg<number>(3 + 6 * i),
          anchor: arg<string>(4 + 6 * i),
          rel: arg<string | null>(5 + 6 * i),
          nofollow: arg<number>(6 + 6 * i),
          internal: arg<number>(7 + 6 * i),
        })),
      )
      .onConflict((oc) => oc.columns(['batch_id', 'source_id', 'position']).doNothing()),
);

/** The id of a page of the batch (null: none) and of a URL its pages link to (null: none). */
async function idsOf(db: Db, batchId: number, f: LinkFilter) {
  const source =
    f.source === undefined
      ? undefined
      : ((
          await db
            .selectFrom('batch_pages')
            .select('id')
            .where('batch_id', '=', batchId)
            .where('url', '=', f.source)
            .executeTakeFirst()
        )?.id ?? null);
  const target =
    f.target === undefined
      ? undefined
      : ((
          await db
            .selectFrom('batch_link_urls')
            .select('id')
            .where('batch_id', '=', batchId)
            .where('url', '=', f.target)
            .executeTakeFirst()
        )?.id ?? null);
  return { source, target };
}

function filtered(db: Db, batchId: number, f: LinkFilter, ids: { source?: number; target?: number }) {
  let q = db
    .selectFrom('batch_links as l')
    .innerJoin('batch_link_urls as u', 'u.id', 'l.target_id')
    .leftJoin('batch_pages as t', (j) =>
      j.onRef('t.batch_id', '=', 'l.batch_id').onRef('t.url', '=', 'u.url'),
    )
    // a target the crawl did not request: the status its check got (batch_checks), if any
    .leftJoin('batch_checks as c', (j) =>
      j.onRef('c.batch_id', '=', 'l.batch_id').onRef('c.url', '=', 'u.url'),
    )
    .where('l.batch_id', '=', batchId);
  if (ids.source !== undefined) q = q.where('l.source_id', '=', ids.source);
  if (ids.target !== undefined) q = q.where('l.target_id', '=', ids.target);
  if (f.internal !== undefined) q = q.where('l.internal', '=', f.internal ? 1 : 0);
  const status = sql<number | null>`coalesce(t.status_code, c.status)`;
  if (f.status === 'none') q = q.where(status, 'is', null);
  else if (f.status !== undefined) q = q.where(status, '>=', f.status.from).where(status, '<=', f.status.to);
  return q;
}

function rowsQuery(db: Db, batchId: number, f: LinkFilter, ids: { source?: number; target?: number }) {
  return filtered(db, batchId, f, ids)
    .innerJoin('batch_pages as s', 's.id', 'l.source_id')
    .select([
      's.url as source',
      'u.url as target',
      'l.anchor',
      'l.rel',
      'l.nofollow',
      'l.internal',
      sql<number | null>`coalesce(t.status_code, c.status)`.as('target_status'),
      'l.source_id',
      'l.position',
    ])
    .orderBy('l.source_id')
    .orderBy('l.position');
}

type Raw = Awaited<ReturnType<ReturnType<typeof rowsQuery>['execute']>>[number];
const toRow = (r: Raw): LinkRow => ({
  source: r.source,
  target: r.target,
  anchor: r.anchor,
  rel: r.rel,
  nofollow: toNumber(r.nofollow) === 1,
  internal: toNumber(r.internal) === 1,
  targetStatus: r.target_status,
  sourceId: r.source_id,
  position: r.position,
});

/** One page of the batch's links (in source page then page order), filtered, with the total. */
export async function listLinks(
  db: Db,
  batchId: number,
  f: LinkFilter,
  page: { limit: number; offset: number },
): Promise<{ items: LinkRow[]; total: number }> {
  const ids = await idsOf(db, batchId, f);
  if (ids.source === null || ids.target === null) return { items: [], total: 0 };
  const known = ids as { source?: number; target?: number };
  const [rows, count] = await Promise.all([
    rowsQuery(db, batchId, f, known).limit(page.limit).offset(page.offset).execute(),
    filtered(db, batchId, f, known)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRow), total: toNumber(count.n) };
}

/** The batch's links (filtered) in chunks of `size`, in order: the CSV export reads them so. */
export async function* linkChunks(
  db: Db,
  batchId: number,
  f: LinkFilter,
  size = 2000,
): AsyncGenerator<LinkRow[]> {
  const ids = await idsOf(db, batchId, f);
  if (ids.source === null || ids.target === null) return;
  const known = ids as { source?: number; target?: number };
  let after: { sourceId: number; position: number } | null = null;
  for (;;) {
    let q = rowsQuery(db, batchId, f, known);
    if (after !== null) {
      const a: { sourceId: number; position: number } = after;
      q = q.where((eb) =>
        eb.or([
          eb('l.source_id', '>', a.sourceId),
          eb.and([eb('l.source_id', '=', a.sourceId), eb('l.position', '>', a.position)]),
        ]),
      );
    }
    const rows = (await q.limit(size).execute()).map(toRow);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { sourceId: last.sourceId, position: last.position };
  }
}

export interface PageLinkSummary {
  url: string;
  /** the batch's page of that URL (null: a URL its pages link to, never a page of it) */
  page: { depth: number; state: string; statusCode: number | null } | null;
  /** links to it from other pages, and how many pages they are on */
  inlinks: number;
  inlinkingPages: number;
  /** its own links: all, on the site, elsewhere (0 for a URL that is not an audited page) */
  outlinks: number;
  internalOutlinks: number;
  externalOutlinks: number;
  /** the anchor texts of its inlinks, most used first (at most `top`) */
  topAnchors: { text: string; count: number }[];
}

/** A URL's place in the graph; null when it is neither a page of the batch nor a link target. */
export async function pageLinkSummary(
  db: Db,
  batchId: number,
  url: string,
  top = 10,
): Promise<PageLinkSummary | null> {
  const [page, target] = await Promise.all([
    db
      .selectFrom('batch_pages')
      .select(['id', 'depth', 'state', 'status_code'])
      .where('batch_id', '=', batchId)
      .where('url', '=', url)
      .executeTakeFirst(),
    db
      .selectFrom('batch_link_urls')
      .select('id')
      .where('batch_id', '=', batchId)
      .where('url', '=', url)
      .executeTakeFirst(),
  ]);
  if (!page && !target) return null;
  const inbound = (tid: number) => {
    let q = db.selectFrom('batch_links').where('batch_id', '=', batchId).where('target_id', '=', tid);
    if (page) q = q.where('source_id', '<>', page.id);
    return q;
  };
  const [inCount, anchors, outCount] = await Promise.all([
    target
      ? inbound(target.id)
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('source_id').distinct().as('pages')])
          .executeTakeFirstOrThrow()
      : Promise.resolve({ n: 0, pages: 0 }),
    target
      ? inbound(target.id)
          .select((eb) => ['anchor', eb.fn.countAll().as('n')])
          .groupBy('anchor')
          .orderBy('n', 'desc')
          .orderBy('anchor')
          .limit(top)
          .execute()
      : Promise.resolve([]),
    page
      ? db
          .selectFrom('batch_links')
          .where('batch_id', '=', batchId)
          .where('source_id', '=', page.id)
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('internal').as('internal')])
          .executeTakeFirstOrThrow()
      : Promise.resolve({ n: 0, internal: 0 }),
  ]);
  const outlinks = toNumber(outCount.n);
  const internal = toNumber(outCount.internal ?? 0);
  return {
    url,
    page: page ? { depth: toNumber(page.depth), state: page.state, statusCode: page.status_code } : null,
    inlinks: toNumber(inCount.n),
    inlinkingPages: toNumber(inCount.pages),
    outlinks,
    internalOutlinks: internal,
    externalOutlinks: outlinks - internal,
    topAnchors: anchors.map((a) => ({ text: a.anchor, count: toNumber(a.n) })),
  };
}

/** The batch's internal links marked rel=nofollow (a page's links to itself aside): source, target, anchor. */
export async function internalNofollowLinks(
  db: Db,
  batchId: number,
): Promise<{ source: string; target: string; anchor: string }[]> {
  return db
    .selectFrom('batch_links as l')
    .innerJoin('batch_pages as s', 's.id', 'l.source_id')
    .innerJoin('batch_link_urls as u', 'u.id', 'l.target_id')
    .select(['s.url as source', 'u.url as target', 'l.anchor'])
    .where('l.batch_id', '=', batchId)
    .where('l.internal', '=', 1)
    .where('l.nofollow', '=', 1)
    .whereRef('u.url', '<>', 's.url')
    .orderBy('l.source_id')
    .orderBy('l.position')
    .execute();
}
