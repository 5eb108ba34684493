// A batch as the services answer it: the stored row presented, its pages with their facts,
// and the findings and summary computed from them (src/crawl/findings).
import type { Db } from '../../store/database.js';
import {
  findSitemapFiles,
  findStoredFindings,
  pagesAfter,
  type BatchPageRow,
  type BatchRow,
} from '../../store/batches.repository.js';
import { countBatchPageReports, listBatchPages } from '../../store/batch-pages.repository.js';
import { internalNofollowLinks } from '../../store/batch-links.repository.js';
import { compactPages } from '../../crawl/compact.js';
import { externalLinks, listChecks } from '../../store/batch-checks.repository.js';
import { factsSharer, type PageFacts } from '../../crawl/facts.js';
import type { Extracted } from '../../crawl/extract.js';
import type { SitemapFile } from '../../crawl/sitemap.js';
import {
  computeFindings,
  computeSummary,
  type BatchSummary,
  type Finding,
} from '../../crawl/findings/index.js';
import { activeRules, ignoreFindings } from '../../crawl/ignore.js';
import { projectRules } from '../audit/ignore.js';
import { optionsOf } from './deps.js';
import type { Batch, BatchOptions, BatchPageResult, BatchPagesQuery, BatchView } from './types.js';
import type { FindingSettings } from '../../crawl/defaults.js';

export function presentBatchRow(b: BatchRow): Batch {
  const options = optionsOf(b);
  return {
    id: b.id,
    userId: b.userId,
    mode: b.mode,
    url: b.url,
    status: b.status,
    options,
    progress: {
      discovered: b.discovered,
      audited: b.audited,
      failed: b.failed,
      skipped: b.skipped,
      remaining: Math.max(0, b.discovered - b.audited - b.failed - b.skipped),
    },
    reports: { created: b.reportsCreated, updated: b.reportsUpdated },
    error: b.error,
    createdAt: b.createdAt,
    startedAt: b.startedAt,
    finishedAt: b.finishedAt,
    summary: b.summary === null ? null : (JSON.parse(b.summary) as BatchSummary),
  };
}

const toResult = (p: BatchPageRow, share: ReturnType<typeof factsSharer>): BatchPageResult => ({
  url: share.url(p.url),
  state: p.state,
  depth: p.depth,
  inSitemap: p.inSitemap,
  reportId: p.reportId,
  statusCode: p.statusCode,
  finalUrl: p.finalUrl,
  canonical: p.canonicalKey,
  error: p.error,
  facts: p.facts === null ? null : share.facts(JSON.parse(p.facts) as PageFacts),
  redirectPath: p.redirectPath === null ? null : (JSON.parse(p.redirectPath) as string[]),
  extracted: p.extracted === null ? null : (JSON.parse(p.extracted) as Extracted),
  extractErrors: p.extractErrors === null ? null : (JSON.parse(p.extractErrors) as Record<string, string>),
});

/** pages read at a time when a batch's pages are read whole */
const PAGE_CHUNK = 1000;

/**
 * Every page of a batch with its facts, read in chunks of PAGE_CHUNK (each chunk's rows, with
 * their JSON text, are let go once parsed). `compact` (a batch's end): each page kept in the
 * compact form (src/crawl/compact.ts: URLs interned, links as integer ids, …) and its parsed
 * facts let go; otherwise plain facts with the recurring URLs and check entries shared
 * (factsSharer), as an export or a view needs them.
 */
async function readPages(db: Db, batchId: number, compact = false): Promise<BatchPageResult[]> {
  const share = factsSharer();
  const compacted = compact ? compactPages() : null;
  const out: BatchPageResult[] = [];
  for (let after = 0; ;) {
    const rows = await pagesAfter(db, batchId, after, PAGE_CHUNK);
    for (const r of rows) out.push(compacted ? compacted.add(toResult(r, plain)) : toResult(r, share));
    if (rows.length < PAGE_CHUNK) return out;
    after = rows[rows.length - 1]!.id;
  }
}

/** facts as parsed (the compact form shares what recurs) */
const plain = { url: (u: string) => u, facts: (f: PageFacts) => f };

/** The findings' thresholds among a batch's options. */
const thresholdsOf = (o: BatchOptions): FindingSettings => ({
  thinContentWords: o.thinContentWords,
  nearDuplicateThreshold: o.nearDuplicateThreshold,
  deepPageDepth: o.deepPageDepth,
});

/**
 * The findings and summary of a batch's pages as they stand, the pages that the project's
 * ignore rules (those that apply at `now`) cover listed apart and not counted. `compact`: the
 * pages held in the compact form (a batch's end: they go on to its issue states and diff, never
 * to an export).
 */
export async function analyseBatch(
  db: Db,
  b: BatchRow,
  now: Date,
  opts: { compact?: boolean } = {},
): Promise<{ pages: BatchPageResult[]; findings: Finding[]; summary: BatchSummary }> {
  const pages = await readPages(db, b.id, opts.compact ?? false);
  const rules = b.project === null ? [] : activeRules(await projectRules(db, b.userId, b.project), now);
  // the link findings that need the links' anchors read them from the batch's link graph
  // the URLs the check step asked (checks.ts), and the links to other sites when they were checked
  const checks = await listChecks(db, b.id);
  const graph = {
    nofollow: await internalNofollowLinks(db, b.id),
    checks: new Map(checks.map(({ url, ...c }) => [url, c])),
    ...(optionsOf(b).checkExternal ? { external: await externalLinks(db, b.id) } : {}),
  };
  // the sitemap files discovery read (sitemap_too_large); null: a batch made before they were kept
  const sitemapFiles = await findSitemapFiles(db, b.id);
  const findings = ignoreFindings(
    computeFindings(
      pages,
      b.url,
      graph,
      sitemapFiles === null ? undefined : (JSON.parse(sitemapFiles) as SitemapFile[]),
      thresholdsOf(optionsOf(b)),
    ),
    rules,
  );
  const summary = computeSummary(pages, findings, {
    discovered: b.discovered,
    audited: b.audited,
    failed: b.failed,
    skipped: b.skipped,
  });
  return { pages, findings, summary };
}

/**
 * A batch's pages and findings as a view or an export shows them: an ended batch's findings as
 * stored when it ended (not computed again at every view of a large batch); a running one's,
 * or one that ended before they were stored, computed from its pages.
 */
export async function batchResults(
  db: Db,
  b: BatchRow,
  now: Date,
): Promise<{ pages: BatchPageResult[]; findings: Finding[] }> {
  const stored = b.status === 'queued' || b.status === 'running' ? null : await findStoredFindings(db, b.id);
  if (stored === null) {
    const { pages, findings } = await analyseBatch(db, b, now);
    return { pages, findings };
  }
  const pages = await readPages(db, b.id);
  return { pages, findings: JSON.parse(stored) as Finding[] };
}

/**
 * The batch page (the dashboard): one page of the pages table, filtered, sorted and paged by
 * the database; the findings of an ended batch as stored when it ended (computed from its
 * pages only for a batch that ended before they were stored); none while it runs — the page
 * shows the findings with the summary, once the batch has ended.
 */
export async function batchView(db: Db, b: BatchRow, q: BatchPagesQuery, now: Date): Promise<BatchView> {
  const perPage = q.perPage ?? 25;
  const page = q.page ?? 1;
  const running = b.status === 'queued' || b.status === 'running';
  const [table, reportsCount, stored] = await Promise.all([
    listBatchPages(db, b.id, {
      ...(q.search !== undefined ? { search: q.search } : {}),
      ...(q.state !== undefined ? { state: q.state } : {}),
      ...(q.result !== undefined ? { result: q.result } : {}),
      sortBy: q.sortBy ?? 'found',
      sort: q.sort ?? 'asc',
      limit: perPage,
      offset: (page - 1) * perPage,
    }),
    countBatchPageReports(db, b.id),
    running ? Promise.resolve(null) : findStoredFindings(db, b.id),
  ]);
  const findings = running
    ? []
    : stored !== null
      ? (JSON.parse(stored) as Finding[])
      : (await analyseBatch(db, b, now, { compact: true })).findings;
  const share = factsSharer();
  return {
    batch: presentBatchRow(b),
    findings,
    table: { items: table.items.map((p) => toResult(p, share)), total: table.total },
    reportsCount,
  };
}

/** The batch in a webhook's payload (batch.completed). */
export function webhookBatch(b: Batch) {
  return {
    id: b.id,
    url: b.url,
    mode: b.mode,
    status: b.status,
    discovered: b.progress.discovered,
    audited: b.progress.audited,
    failed: b.progress.failed + b.progress.skipped,
    finished_at: b.finishedAt,
  };
}
