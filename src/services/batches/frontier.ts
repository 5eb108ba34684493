// The frontier: which URLs a batch may request, the window of pages in flight (a page is
// `fetching` exactly while its batch.page job exists: both written in one transaction), the
// links a crawled page adds, and the end of a batch (its summary; done, or failed when no page
// was audited; the diff with the project's previous crawl; its events: batch.completed (and
// batch.regressed), .failed or .cancelled). A batch whose pages are all done ends in a job of
// its own (batch.end: end.ts), not in the last page's transaction.
import type { Robots } from '../../analyzer/robots.js';
import { presentDiffDigest } from '../../contract/batches/diff.js';
import { BATCH_END, BATCH_PAGE, enqueueJob } from '../../contract/jobs.js';
import type { PageFacts } from '../../crawl/facts.js';
import type { BatchSummary, Finding } from '../../crawl/findings/index.js';
import { looksNonHtml, onSite, patternFilter } from '../../crawl/url.js';
import type { Db } from '../../store/database.js';
import { bumpBatchCounters, findBatch, updateBatch, type BatchRow } from '../../store/batches.repository.js';
import {
  countPagesInState,
  existingUrls,
  insertPages,
  skipQueuedPages,
  takeQueuedPages,
} from '../../store/batch-frontier.repository.js';
import { optionsOf, type BatchDeps } from './deps.js';
import { storeEndingDiff } from './diff.js';
import { analyseBatch, presentBatchRow, webhookBatch } from './results.js';
import { updateIssueStates } from './issue-states.js';
import { bumpReportsVersion } from '../../store/organizations.repository.js';
import type { BatchPageResult } from './types.js';
import { sharedNow } from '../../timers.js';

/** Why the batch may not request `url` (off-site, not HTML, robots.txt, include/exclude), or null. */
export function admissible(b: BatchRow, robots: Robots, url: string): string | null {
  const options = optionsOf(b);
  const host = new URL(b.url).hostname;
  if (!onSite(url, host)) return 'off-site';
  if (looksNonHtml(url)) return 'not an HTML page';
  if (!robots.allowed(url)) return 'disallowed by robots.txt';
  if (!patternFilter(options.include, options.exclude)(url))
    return 'excluded by the include/exclude patterns';
  return null;
}

/**
 * Fills the batch's window: marks queued pages `fetching` and enqueues their jobs, in one
 * transaction that holds the batch's lock (`locked`: the batch's row as this transaction read
 * it, locked, when the caller has it already); when nothing is left, enqueues the batch's end
 * (batch.end, once: its key is the batch) and answers true. The batch stays `running` until
 * that job has ended it.
 */
export async function pump(d: BatchDeps, trx: Db, batchId: number, locked?: BatchRow): Promise<boolean> {
  const b = locked ?? (await findBatch(trx, batchId, null, true));
  if (!b || b.status !== 'running') return false;
  const now = d.iso();
  if (sharedNow() >= b.deadlineAt) {
    const n = await skipQueuedPages(trx, batchId, 'The batch reached its time budget.', now);
    await bumpBatchCounters(trx, batchId, { skipped: n });
  }
  const inFlight = await countPagesInState(trx, batchId, 'fetching');
  const next = await takeQueuedPages(trx, batchId, d.perSite - inFlight, now);
  for (const p of next) {
    await enqueueJob(d.ctx.queue, BATCH_PAGE, { batchId, pageId: p.id }, { key: `${batchId}:${p.id}`, trx });
  }
  if (inFlight + next.length > 0) return false;
  await enqueueJob(d.ctx.queue, BATCH_END, { batchId }, { key: String(batchId), trx });
  return true;
}

/**
 * Ends the batch with its summary and its event, in `trx`: batch.failed (a batch failed before
 * its pages: few or none). One whose pages are all done ends in its batch.end job, and a
 * cancelled one after its cancel's transaction (end.ts).
 */
export async function finish(
  d: BatchDeps,
  trx: Db,
  batchId: number,
  ending: 'failed',
  error?: string,
): Promise<void> {
  // read in `trx`, after the counters it bumped: the row's counts are the batch's final ones
  const b = (await findBatch(trx, batchId, null, true))!;
  await endWith(d, trx, b, await analyseBatch(trx, b, d.ctx.now(), { compact: true }), ending, error);
}

/**
 * Writes the batch's end in `trx` from its analysis (its findings and summary, computed from its
 * pages as `b`, locked in `trx`, counts them): issue states and the diff (a batch ending done),
 * the row, and its event: batch.completed (and batch.regressed), batch.cancelled, or
 * batch.failed. A batch that ends `done` with no page audited has found nothing: it ends
 * `failed` with why (whyNothing) — a cancelled one stays cancelled.
 */
export async function endWith(
  d: BatchDeps,
  trx: Db,
  b: BatchRow,
  analysed: {
    findings: Finding[];
    summary: BatchSummary;
    /** the pages, for a batch with none audited (whyNothing); null: not kept */
    pages: BatchPageResult[] | null;
  },
  ending: 'done' | 'cancelled' | 'failed',
  error?: string,
): Promise<void> {
  const batchId = b.id;
  const { pages, findings: found, summary } = analysed;
  let status = ending;
  let why = error;
  if (status === 'done' && b.audited === 0) {
    status = 'failed';
    why = whyNothing(b, pages ?? []);
  }
  const now = d.iso();
  // a crawl that ended done moves its project's issue states on (one that was cancelled or
  // failed saw only part of the site: it would call every issue it did not reach fixed)
  const findings =
    status === 'done' && b.project !== null
      ? await updateIssueStates(trx, { id: b.id, userId: b.userId, project: b.project }, found, now)
      : found;
  // compared once, here, with the project's previous finished crawl (docs/sites.md, "Comparing crawls")
  const diff = status === 'done' ? await storeEndingDiff(d, trx, b, { findings, finishedAt: now }) : null;
  await updateBatch(
    trx,
    batchId,
    {
      status,
      summary: JSON.stringify(summary),
      // computed once, here: views and exports of the ended batch read them (results.ts)
      findings: JSON.stringify(findings),
      // a cancelled batch ended when it was cancelled (its end written after: end.ts, endCancelled)
      finishedAt: status === 'cancelled' && b.finishedAt !== null ? b.finishedAt : now,
      endPending: false,
      ...(why !== undefined ? { error: why } : {}),
    },
    now,
  );
  // a new version of the organisation's reports that is not a crawl's page: no list answer kept
  // while the batch ran (trailing its pages by up to a second) outlives its end (docs/api.md)
  await bumpReportsVersion(trx, b.userId);
  const ended = presentBatchRow((await findBatch(trx, batchId, null))!);
  const batch = webhookBatch(ended);
  if (diff !== null) {
    const digest = presentDiffDigest(diff);
    await d.webhooks.emit(ended.userId, 'batch.completed', { batch, diff: digest }, { trx });
    if (diff.regressed)
      await d.webhooks.emit(ended.userId, 'batch.regressed', { batch, diff: digest }, { trx });
  } else if (status === 'cancelled')
    await d.webhooks.emit(ended.userId, 'batch.cancelled', { batch }, { trx });
  else
    await d.webhooks.emit(
      ended.userId,
      'batch.failed',
      { batch: { ...batch, error: ended.error ?? 'The batch failed.' } },
      { trx },
    );
}

const ROBOTS_DISALLOWED = 'Not requested: disallowed by robots.txt.';
export const ROBOTS_DISALLOW_ALL = 'robots.txt disallows every page of the site.';

/** Why a batch that ended with no page audited found nothing: the start page, robots.txt, the first failure. */
function whyNothing(b: BatchRow, pages: BatchPageResult[]): string {
  const start = pages.find((p) => p.url === b.url);
  if (b.mode === 'crawl' && start && start.state === 'failed')
    return start.statusCode !== null
      ? `The start page could not be fetched: it answered HTTP ${start.statusCode}.`
      : `The start page could not be fetched: ${start.error ?? 'no answer'}`;
  if (pages.length > 0 && pages.every((p) => p.error === ROBOTS_DISALLOWED)) return ROBOTS_DISALLOW_ALL;
  if (pages.length === 0)
    return b.mode === 'sitemap'
      ? 'No page could be audited: the sitemap could not be read, or lists no page of this site.'
      : 'No page could be audited: none was found.';
  const first = pages.find((p) => p.state === 'failed') ?? pages.find((p) => p.error !== null);
  return first
    ? `No page could be audited: ${first.url}: ${first.error ?? 'failed'}`
    : 'No page could be audited.';
}

/** A crawl's redirect target joins the frontier as a page of its own (within max_pages). */
export async function addRedirectTarget(
  trx: Db,
  current: BatchRow,
  robots: Robots,
  target: { url: string; depth: number },
  now: string,
): Promise<void> {
  const host = new URL(current.url).hostname;
  if (
    current.mode !== 'crawl' ||
    !onSite(target.url, host) ||
    admissible(current, robots, target.url) !== null
  )
    return;
  const room = optionsOf(current).maxPages - current.discovered;
  if (room <= 0) return;
  const added = await insertPages(trx, current.id, [target], now);
  await bumpBatchCounters(trx, current.id, { discovered: added });
}

/** A crawled page's links (its canonical target and hreflang alternates too) join the frontier, within the limits. */
export async function addLinks(
  trx: Db,
  current: BatchRow,
  robots: Robots,
  page: { depth: number },
  facts: PageFacts,
  now: string,
): Promise<void> {
  const options = optionsOf(current);
  if (current.mode !== 'crawl' || page.depth >= options.maxDepth || sharedNow() >= current.deadlineAt) return;
  const room = options.maxPages - current.discovered;
  if (room <= 0) return;
  // the canonical target and the hreflang alternates on the site are crawled too: the
  // indexability findings judge them (canonical_to_noindex, hreflang_to_non_200 …)
  const all = [
    ...facts.links,
    ...(facts.canonical ? [facts.canonical] : []),
    ...facts.hreflang.map((h) => h.url),
  ];
  const verdict = new Map(all.map((u) => [u, admissible(current, robots, u)]));
  // links robots.txt disallows are listed (skipped, never requested); others out of bounds are ignored
  const candidates = all.filter(
    (u) => verdict.get(u) === null || verdict.get(u) === 'disallowed by robots.txt',
  );
  const known = await existingUrls(trx, current.id, candidates);
  const fresh = [...new Set(candidates.filter((u) => !known.has(u)))].slice(0, room);
  const rows = fresh.map((url) =>
    verdict.get(url) === null
      ? { url, depth: page.depth + 1 }
      : {
          url,
          depth: page.depth + 1,
          state: 'skipped' as const,
          error: 'Not requested: disallowed by robots.txt.',
        },
  );
  const added = await insertPages(trx, current.id, rows, now);
  const skipped = rows.filter((r) => r.state === 'skipped').length;
  await bumpBatchCounters(trx, current.id, { discovered: added, skipped: Math.min(skipped, added) });
}
