// batches and batch_pages: every SQL statement on them (docs/sites.md). Options, facts and the
// summary are JSON text; epoch-ms columns are bigint on PostgreSQL (read through toNumber).
import { arg, compiled, compiledOnce } from './compiled.js';
import { dialectOf, type Db } from './database.js';
import { toIso, toIsoOrNull, toNumber } from './sql-helpers.js';

export type BatchStatus = 'queued' | 'running' | 'done' | 'cancelled' | 'failed';
export type BatchMode = 'sitemap' | 'crawl' | 'list';
export type PageState = 'queued' | 'fetching' | 'done' | 'failed' | 'skipped';

export interface BatchRow {
  id: number;
  userId: number;
  mode: BatchMode;
  url: string;
  /** the start URL's project (its host as reports name theirs); null only for a URL that does not parse */
  project: string | null;
  options: string;
  /** every page is a rendered audit */
  render: boolean;
  status: BatchStatus;
  discovered: number;
  audited: number;
  failed: number;
  skipped: number;
  error: string | null;
  delayMs: number;
  nextSlotAt: number;
  deadlineAt: number;
  summary: string | null;
  /** reports the batch made (pages new to the project) and reports it added a run to */
  reportsCreated: number;
  reportsUpdated: number;
  /** cancelled, its end (findings, summary, batch.cancelled) still to be written */
  endPending: boolean;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface BatchPageRow {
  id: number;
  batchId: number;
  url: string;
  depth: number;
  inSitemap: boolean;
  state: PageState;
  reportId: number | null;
  statusCode: number | null;
  finalUrl: string | null;
  /** the canonical URL an audited page names when it is another URL (it is canonicalised to it) */
  canonicalKey: string | null;
  error: string | null;
  facts: string | null;
  /** the URLs a redirected page went through (JSON text, [first, …, last]); null: no redirect */
  redirectPath: string | null;
  /** an audited page's custom extraction values (JSON text); null: the batch has no extractors */
  extracted: string | null;
  /** why it has no value for an extractor (JSON text {name: message}); null: none */
  extractErrors: string | null;
}

const MAX_INT = 2_147_483_647;
const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_INT;

/**
 * A batch without its robots.txt and site files (the sitemap alone can be megabytes): the row
 * is read several times a page, those two once per batch and process (findSiteFiles).
 */
function batchQuery(db: Db) {
  return db
    .selectFrom('batches')
    .select([
      'id',
      'org_id',
      'mode',
      'url',
      'project',
      'options',
      'render',
      'status',
      'discovered',
      'audited',
      'failed',
      'skipped',
      'error',
      'delay_ms',
      'next_slot_at',
      'deadline_at',
      'summary',
      'reports_created',
      'reports_updated',
      'end_pending',
      'created_at',
      'updated_at',
      'started_at',
      'finished_at',
    ]);
}
type BatchSelect = Awaited<ReturnType<ReturnType<typeof batchQuery>['executeTakeFirstOrThrow']>>;

function toBatch(r: BatchSelect): BatchRow {
  return {
    id: r.id,
    userId: r.org_id,
    mode: r.mode as BatchMode,
    url: r.url,
    project: r.project,
    options: r.options,
    render: toNumber(r.render) === 1,
    status: r.status as BatchStatus,
    discovered: toNumber(r.discovered),
    audited: toNumber(r.audited),
    failed: toNumber(r.failed),
    skipped: toNumber(r.skipped),
    error: r.error,
    delayMs: toNumber(r.delay_ms),
    nextSlotAt: toNumber(r.next_slot_at),
    deadlineAt: toNumber(r.deadline_at),
    summary: r.summary,
    reportsCreated: toNumber(r.reports_created),
    reportsUpdated: toNumber(r.reports_updated),
    endPending: toNumber(r.end_pending) === 1,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
    startedAt: toIsoOrNull(r.started_at),
    finishedAt: toIsoOrNull(r.finished_at),
  };
}

export function pageQuery(db: Db) {
  return db
    .selectFrom('batch_pages')
    .select([
      'id',
      'batch_id',
      'url',
      'depth',
      'in_sitemap',
      'state',
      'report_id',
      'status_code',
      'final_url',
      'canonical_key',
      'error',
      'facts',
      'redirect_path',
      'extracted',
      'extract_errors',
    ]);
}
type PageSelect = Awaited<ReturnType<ReturnType<typeof pageQuery>['executeTakeFirstOrThrow']>>;

export function toPage(r: PageSelect): BatchPageRow {
  return {
    id: r.id,
    batchId: r.batch_id,
    url: r.url,
    depth: toNumber(r.depth),
    inSitemap: toNumber(r.in_sitemap) === 1,
    state: r.state as PageState,
    reportId: r.report_id,
    statusCode: r.status_code,
    finalUrl: r.final_url,
    canonicalKey: r.canonical_key,
    error: r.error,
    facts: r.facts,
    redirectPath: r.redirect_path,
    extracted: r.extracted,
    extractErrors: r.extract_errors,
  };
}

export async function insertBatch(
  db: Db,
  b: {
    userId: number;
    mode: BatchMode;
    url: string;
    project: string | null;
    options: string;
    render: boolean;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('batches')
    .values({
      org_id: b.userId,
      mode: b.mode,
      url: b.url,
      project: b.project,
      options: b.options,
      render: b.render ? 1 : 0,
      created_at: b.now,
      updated_at: b.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One batch; `userId` null: whoever owns it (jobs). `lock`: FOR UPDATE on PostgreSQL (in a transaction). */
export async function findBatch(
  db: Db,
  id: number,
  userId: number | null,
  lock = false,
): Promise<BatchRow | null> {
  if (!validId(id)) return null;
  const locked = lock && dialectOf(db) === 'postgres';
  const [r] =
    userId === null
      ? await batchById(db, { owned: false, locked }, [id])
      : await batchById(db, { owned: true, locked }, [id, userId]);
  return r ? toBatch(r) : null;
}

/** findBatch's four shapes, compiled once each (a crawled page reads its batch twice: issue 24 §4) */
const batchById = compiled(
  (s: { owned: boolean; locked: boolean }) => `${s.owned}:${s.locked}`,
  (db, s) => {
    let q = batchQuery(db).where('id', '=', arg<number>(0));
    if (s.owned) q = q.where('org_id', '=', arg<number>(1));
    return s.locked ? q.forUpdate() : q;
  },
);

/** The robots.txt text and the site files (JSON) that discovery stored with a batch. */
/** A finished batch's stored site findings (JSON text), or null (not ended, or ended before they were stored). */
export async function findStoredFindings(db: Db, id: number): Promise<string | null> {
  if (!validId(id)) return null;
  const r = await db.selectFrom('batches').select('findings').where('id', '=', id).executeTakeFirst();
  return r?.findings ?? null;
}

/** The sitemap files discovery read (JSON text), or null (a batch made before they were kept, a list batch). */
export async function findSitemapFiles(db: Db, id: number): Promise<string | null> {
  if (!validId(id)) return null;
  const r = await db.selectFrom('batches').select('sitemap_files').where('id', '=', id).executeTakeFirst();
  return r?.sitemap_files ?? null;
}

export async function findSiteFiles(
  db: Db,
  id: number,
): Promise<{ robotsTxt: string | null; siteFiles: string | null } | null> {
  if (!validId(id)) return null;
  const r = await db
    .selectFrom('batches')
    .select(['robots_txt', 'site_files'])
    .where('id', '=', id)
    .executeTakeFirst();
  return r ? { robotsTxt: r.robots_txt, siteFiles: r.site_files } : null;
}

export async function listBatches(
  db: Db,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ items: BatchRow[]; total: number }> {
  const total = await db
    .selectFrom('batches')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await batchQuery(db)
    .where('org_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { items: rows.map(toBatch), total: toNumber(total.n) };
}

export async function updateBatch(
  db: Db,
  id: number,
  set: Partial<{
    status: BatchStatus;
    error: string | null;
    robotsTxt: string | null;
    siteFiles: string | null;
    delayMs: number;
    nextSlotAt: number;
    deadlineAt: number;
    summary: string | null;
    findings: string | null;
    sitemapFiles: string | null;
    startedAt: string | null;
    finishedAt: string | null;
    endPending: boolean;
  }>,
  now: string,
): Promise<void> {
  await db
    .updateTable('batches')
    .set({
      updated_at: now,
      ...(set.status !== undefined ? { status: set.status } : {}),
      ...(set.error !== undefined ? { error: set.error } : {}),
      ...(set.robotsTxt !== undefined ? { robots_txt: set.robotsTxt } : {}),
      ...(set.siteFiles !== undefined ? { site_files: set.siteFiles } : {}),
      ...(set.delayMs !== undefined ? { delay_ms: set.delayMs } : {}),
      ...(set.nextSlotAt !== undefined ? { next_slot_at: set.nextSlotAt } : {}),
      ...(set.deadlineAt !== undefined ? { deadline_at: set.deadlineAt } : {}),
      ...(set.summary !== undefined ? { summary: set.summary } : {}),
      ...(set.findings !== undefined ? { findings: set.findings } : {}),
      ...(set.sitemapFiles !== undefined ? { sitemap_files: set.sitemapFiles } : {}),
      ...(set.startedAt !== undefined ? { started_at: set.startedAt } : {}),
      ...(set.finishedAt !== undefined ? { finished_at: set.finishedAt } : {}),
      ...(set.endPending !== undefined ? { end_pending: set.endPending ? 1 : 0 } : {}),
    })
    .where('id', '=', id)
    .execute();
}

type BatchCounter = 'discovered' | 'audited' | 'failed' | 'skipped' | 'reports_created' | 'reports_updated';

export async function bumpBatchCounters(
  db: Db,
  id: number,
  delta: Partial<Record<BatchCounter, number>>,
): Promise<void> {
  const entries = Object.entries(delta).filter(([, v]) => v !== 0) as [BatchCounter, number][];
  if (entries.length === 0) return;
  await bumpQuery(
    db,
    entries.map(([k]) => k),
    [id, ...entries.map(([, v]) => v)],
  );
}

/** bumpBatchCounters' statement for a set of counters (in the order given), compiled once each */
const bumpQuery = compiled(
  (counters: BatchCounter[]) => counters.join(),
  (db, counters) =>
    db
      .updateTable('batches')
      .set((eb) => Object.fromEntries(counters.map((k, i) => [k, eb(k, '+', arg<number>(i + 1))])))
      .where('id', '=', arg<number>(0)),
);

export async function deleteBatch(db: Db, id: number): Promise<void> {
  await db.deleteFrom('batch_checks').where('batch_id', '=', id).execute();
  await db.deleteFrom('batch_links').where('batch_id', '=', id).execute();
  await db.deleteFrom('batch_link_urls').where('batch_id', '=', id).execute();
  await db.deleteFrom('batch_pages').where('batch_id', '=', id).execute();
  await db.deleteFrom('batches').where('id', '=', id).execute();
}

export async function findPage(db: Db, batchId: number, pageId: number): Promise<BatchPageRow | null> {
  if (!validId(pageId)) return null;
  const [r] = await pageById(db, [pageId, batchId]);
  return r ? toPage(r) : null;
}

const pageById = compiledOnce((db) =>
  pageQuery(db).where('id', '=', arg<number>(0)).where('batch_id', '=', arg<number>(1)),
);

export async function finishPage(
  db: Db,
  pageId: number,
  set: {
    state: 'done' | 'failed' | 'skipped';
    reportId?: number | null;
    statusCode?: number | null;
    finalUrl?: string | null;
    canonicalKey?: string | null;
    error?: string | null;
    facts?: string | null;
    /** an audited page's digest for the crawl diff (src/crawl/diff.ts, factsDigest) */
    digest?: string | null;
    /** the redirect's hops, [first, …, last] (a redirect, a redirect loop) */
    redirectPath?: string[] | null;
    /** an audited page's custom extraction values (JSON text) */
    extracted?: string | null;
    /** why it has no value for an extractor (JSON text {name: message}) */
    extractErrors?: string | null;
  },
  now: string,
): Promise<void> {
  await finishQuery(db, [
    set.state,
    set.reportId ?? null,
    set.statusCode ?? null,
    set.finalUrl ?? null,
    set.canonicalKey ?? null,
    set.error ?? null,
    set.facts ?? null,
    set.digest ?? null,
    set.redirectPath ? JSON.stringify(set.redirectPath) : null,
    set.extracted ?? null,
    set.extractErrors ?? null,
    now,
    pageId,
  ]);
}

const finishQuery = compiledOnce((db) =>
  db
    .updateTable('batch_pages')
    .set({
      state: arg<PageState>(0),
      report_id: arg<number | null>(1),
      status_code: arg<number | null>(2),
      final_url: arg<string | null>(3),
      canonical_key: arg<string | null>(4),
      error: arg<string | null>(5),
      facts: arg<string | null>(6),
      digest: arg<string | null>(7),
      redirect_path: arg<string | null>(8),
      extracted: arg<string | null>(9),
      extract_errors: arg<string | null>(10),
      updated_at: arg<string>(11),
    })
    .where('id', '=', arg<number>(12)),
);

/** Every page of a batch, in the order found (the findings, the exports). */
/** Up to `limit` of a batch's pages after page id `afterId`, in id order (a batch's pages read in chunks). */
export async function pagesAfter(
  db: Db,
  batchId: number,
  afterId: number,
  limit: number,
): Promise<BatchPageRow[]> {
  const rows = await pageQuery(db)
    .where('batch_id', '=', batchId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toPage);
}

export async function listFailedPages(
  db: Db,
  batchId: number,
  page: { limit: number; offset: number },
): Promise<{ items: BatchPageRow[]; total: number }> {
  const states = ['failed', 'skipped'] as PageState[];
  const total = await db
    .selectFrom('batch_pages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('batch_id', '=', batchId)
    .where('state', 'in', states)
    .executeTakeFirstOrThrow();
  const rows = await pageQuery(db)
    .where('batch_id', '=', batchId)
    .where('state', 'in', states)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { items: rows.map(toPage), total: toNumber(total.n) };
}

/** The ids of the batch's reports, in the order audited; with the total. */
export async function batchReportIds(
  db: Db,
  batchId: number,
  page: { limit: number; offset: number } | null,
): Promise<{ ids: number[]; total: number }> {
  const total = await db
    .selectFrom('batch_pages')
    .innerJoin('reports', 'reports.id', 'batch_pages.report_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('batch_pages.batch_id', '=', batchId)
    .executeTakeFirstOrThrow();
  let q = db
    .selectFrom('batch_pages')
    .innerJoin('reports', 'reports.id', 'batch_pages.report_id')
    .select('reports.id')
    .where('batch_pages.batch_id', '=', batchId)
    .orderBy('reports.id');
  if (page) q = q.limit(page.limit).offset(page.offset);
  const rows = await q.execute();
  return { ids: rows.map((r) => r.id), total: toNumber(total.n) };
}
