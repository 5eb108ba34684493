// Batches: a whole site audited as one unit of work (docs/sites.md). This file composes the
// feature (create, list, cancel, delete, results); its parts are discovery.ts (batch.discover),
// frontier.ts (admission, the window of pages in flight, the end), pages.ts (batch.page) and
// results.ts (presentation, findings). The rules live here; the
// crawler's pure parts are src/crawl (URL normal form, robots.txt, sitemaps, per-page facts,
// findings); every SQL statement is in src/store/batches.repository.ts; the jobs are adapters:
//
//   batch.discover {batchId}         robots.txt and the site files once, the sitemap(s), the seeds
//   batch.page     {batchId, pageId} one page: wait for the site's slot, audit, store, follow links
//   batch.end      {batchId}         the end: findings, summary, issue states, diff, batch.completed
//
// The frontier and the visited set are the batch_pages rows; a page is `fetching` exactly while
// its batch.page job exists (both are written in one transaction, `pump`), so after a crash the
// engine runs the job again, and the page's outcome is written with its report in one
// transaction — a page is never stored twice and never lost. At most `crawlConcurrency` pages
// of a batch are in flight, whatever the worker's slots: a big or slow batch never takes the
// slots other batches need (fair share).
//
// A batch with `render` makes each page a rendered audit through the audit service's render
// hook (the process's pool: pages wait in line for it, their jobs' leases renewed meanwhile),
// and its crawl follows the rendered DOM's links as well (docs/rendering.md).
import { requirePagesQuota } from '../shared/quotas.js';
import { recordChange } from '../shared/audit-log.js';
import { validationError } from '../../errors.js';
import { BATCH_DISCOVER, BATCH_END, enqueueJob } from '../../contract/jobs.js';
import { crawlUrl } from '../../crawl/url.js';
import { checkExtractors } from '../../crawl/extract.js';
import { CSV_COLUMNS } from '../../contract/batches/schemas.js';
import {
  DEFAULT_FINDING_SETTINGS,
  DEFAULT_MAX_EXTERNAL_CHECKS,
  FINDING_SETTINGS,
  MAX_EXTERNAL_CHECKS,
  DEFAULT_MAX_SITE_CHECKS,
  MAX_SITE_CHECKS,
  type FindingSettingName,
  type FindingSettings,
} from '../../crawl/defaults.js';
import { projectName, projectOf } from '../../analyzer/url.js';
import { withTransaction } from '../../store/database.js';
import {
  batchReportIds,
  bumpBatchCounters,
  deleteBatch,
  findBatch,
  insertBatch,
  updateBatch,
  listBatches,
  listFailedPages,
  type BatchRow,
} from '../../store/batches.repository.js';
import { skipQueuedPages } from '../../store/batch-frontier.repository.js';
import { summariesByIds } from '../../store/reports.repository.js';
import { renderUnavailable } from '../audit/audit.js';
import { removeReport } from '../audit/store.js';
import type { ServiceContext } from '../shared/context.js';
import { batchTopic } from '../shared/changes.js';
import type { Privacy } from '../reports/types.js';
import type { Services } from '../types.js';
import { batchDeps, batchNotFound } from './deps.js';
import { batchDiff, latestProjectDiff } from './diff.js';
import { discover, discoverGaveUp } from './discovery.js';
import { endBatch, endCancelled, endGaveUp } from './end.js';
import { createPageProcessor } from './pages.js';
import { batchLinkChunks, batchLinks, batchPageLinks } from './links.js';
import { batchResults, batchView, presentBatchRow } from './results.js';
import {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_PAGES,
  MAX_LIST_URLS,
  type BatchOptions,
  type BatchServices,
  type CreateBatchInput,
  type FetchFileFn,
} from './types.js';

/**
 * The batch.end job a cancel enqueues runs this long after it: the cancelling request writes
 * the end itself (minutes for 100,000 pages on a loaded machine); the job is there for a request
 * whose process stopped first, and does nothing once the end is written.
 */
const CANCEL_END_AFTER_MS = 10 * 60_000;

export function createBatchServices(
  ctx: ServiceContext & { fetchFile?: FetchFileFn },
  webhooks: Pick<Services['webhooks'], 'emit'>,
): BatchServices {
  const { db } = ctx;
  const d = batchDeps(ctx, webhooks);
  const pages = createPageProcessor(d);

  const changed = (batchId: number) => ctx.changes.publish(batchTopic(batchId));

  async function load(userId: number, id: number): Promise<BatchRow> {
    const b = await findBatch(db, id, userId);
    if (!b) throw batchNotFound();
    return b;
  }

  return {
    async create(userId, input) {
      const start = crawlUrl(input.url, input.url, d.tracking);
      if (start === null) throw validationError({ url: ['The url must be an absolute http or https URL.'] });
      const maxPages = input.maxPages ?? DEFAULT_MAX_PAGES;
      if (maxPages > d.maxPagesLimit)
        throw validationError({ max_pages: [`The max_pages may not be greater than ${d.maxPagesLimit}.`] });
      await requirePagesQuota(db, userId, maxPages);
      const privacy: Privacy = input.privacy ?? 0;
      if (privacy === 2)
        throw validationError({ privacy: ['The privacy of a batch is 0 (public) or 1 (private).'] });
      const maxExternal = input.maxExternalChecks;
      if (
        maxExternal !== undefined &&
        (!Number.isInteger(maxExternal) || maxExternal < 1 || maxExternal > MAX_EXTERNAL_CHECKS)
      )
        throw validationError({
          max_external_checks: [
            `The max_external_checks must be a whole number from 1 to ${MAX_EXTERNAL_CHECKS}.`,
          ],
        });
      const maxSite = input.maxSiteChecks;
      if (maxSite !== undefined && (!Number.isInteger(maxSite) || maxSite < 1 || maxSite > MAX_SITE_CHECKS))
        throw validationError({
          max_site_checks: [`The max_site_checks must be a whole number from 1 to ${MAX_SITE_CHECKS}.`],
        });
      const thresholds = findingSettingsOf(input);
      // a rendered batch needs Chromium here, as a rendered store does: nothing is queued without it
      const render = input.render === true;
      if (render) {
        const why = renderUnavailable(ctx);
        if (why !== null) throw validationError({ render: [why] });
      }
      let urls: string[] | undefined;
      if (input.mode === 'list') {
        const given = input.urls ?? [];
        if (given.length === 0)
          throw validationError({ urls: ['The urls field is required when mode is list.'] });
        if (given.length > MAX_LIST_URLS)
          throw validationError({ urls: [`The urls may not have more than ${MAX_LIST_URLS} items.`] });
        urls = [];
        for (const [i, u] of given.entries()) {
          const n = crawlUrl(u, u, d.tracking);
          if (n === null)
            throw validationError({ [`urls.${i}`]: ['Each URL must be an absolute http or https URL.'] });
          urls.push(n);
        }
        urls = [...new Set(urls)];
      }
      // custom extraction: each expression checked here, a 422 naming the one that is invalid
      const errors: Record<string, string[]> = {};
      const extractors = checkExtractors(input.extractors ?? [], errors, 'extractors', CSV_COLUMNS);
      if (Object.keys(errors).length > 0) throw validationError(errors);
      const options: Omit<BatchOptions, 'render'> = {
        maxPages,
        maxDepth: input.maxDepth ?? DEFAULT_MAX_DEPTH,
        include: input.include ?? [],
        exclude: input.exclude ?? [],
        privacy,
        checkExternal: input.checkExternal === true,
        maxExternalChecks: input.maxExternalChecks ?? DEFAULT_MAX_EXTERNAL_CHECKS,
        maxSiteChecks: input.maxSiteChecks ?? DEFAULT_MAX_SITE_CHECKS,
        ...thresholds,
        ...(urls ? { urls } : {}),
        ...(extractors.length > 0 ? { extractors } : {}),
      };
      const id = await withTransaction(db, async (trx) => {
        const id = await insertBatch(trx, {
          userId,
          mode: input.mode,
          url: start,
          project: projectOf(start),
          options: JSON.stringify(options),
          render,
          now: d.iso(),
        });
        await enqueueJob(ctx.queue, BATCH_DISCOVER, { batchId: id }, { key: String(id), trx });
        return id;
      });
      ctx.queue.committed(BATCH_DISCOVER.kind);
      return presentBatchRow((await findBatch(db, id, userId))!);
    },

    async list(userId, { page, perPage }) {
      const r = await listBatches(db, userId, { limit: perPage, offset: (page - 1) * perPage });
      return { items: r.items.map(presentBatchRow), total: r.total };
    },

    async get(userId, id) {
      return presentBatchRow(await load(userId, id));
    },

    async cancel(userId, id) {
      await load(userId, id);
      // the status at once, in a short transaction (the pages' jobs stop at their next step);
      // the end — findings and summary from every page, batch.cancelled — after it, without the
      // batch's lock (a 100,000-page batch's end takes a minute), here, or by the batch.end job
      // enqueued with the status if this process stops first (end.ts, endCancelled). A process
      // that runs no jobs (PAGEGRADE_WORKER=0: workers apart) leaves the end to that job at once:
      // a worker process computes it, with the workers' memory settings (docs/jobs.md)
      const endHere = ctx.config.worker !== false;
      const cancelled = await withTransaction(db, async (trx) => {
        const b = await findBatch(trx, id, userId, true);
        if (!b) throw batchNotFound();
        if (b.status !== 'queued' && b.status !== 'running') return false;
        const now = d.iso();
        const n = await skipQueuedPages(trx, id, 'The batch was cancelled.', now);
        await bumpBatchCounters(trx, id, { skipped: n });
        await updateBatch(trx, id, { status: 'cancelled', finishedAt: now, endPending: true }, now);
        await enqueueJob(
          ctx.queue,
          BATCH_END,
          { batchId: id },
          { key: String(id), delayMs: endHere ? CANCEL_END_AFTER_MS : 0, trx },
        );
        return true;
      });
      if (cancelled) {
        changed(id);
        if (endHere) {
          // failed here (the database): the job writes it, with its retries and its log
          await endCancelled(d, id).catch(() => {});
          changed(id);
        } else ctx.queue.committed(BATCH_END.kind);
      }
      return presentBatchRow(await load(userId, id));
    },

    async delete(userId, id, { reports }) {
      await load(userId, id);
      let ids: number[] = [];
      await withTransaction(db, async (trx) => {
        const b = await findBatch(trx, id, userId, true);
        if (!b) throw batchNotFound();
        if (reports) ids = (await batchReportIds(trx, id, null)).ids;
        await deleteBatch(trx, id);
        await recordChange(trx, ctx.now(), userId, {
          action: 'batch.deleted',
          target: { type: 'batch', id },
          changes: { url: b.url, reports_deleted: reports ? ids.length : 0 },
        });
      });
      let reportsDeleted = 0;
      for (const reportId of ids) {
        const summary = (await summariesByIds(db, [reportId]))[0];
        if (!summary || summary.userId !== userId) continue;
        await withTransaction(db, async (trx) => {
          if (await removeReport(trx, userId, reportId, summary.project)) reportsDeleted++;
        });
      }
      return { reportsDeleted };
    },

    async failures(userId, id, { page, perPage }) {
      await load(userId, id);
      const r = await listFailedPages(db, id, { limit: perPage, offset: (page - 1) * perPage });
      return {
        items: r.items.map((p) => ({
          url: p.url,
          state: p.state as 'failed' | 'skipped',
          statusCode: p.statusCode,
          reason: p.error ?? 'unknown',
        })),
        total: r.total,
      };
    },

    async reports(userId, id, { page, perPage }) {
      await load(userId, id);
      const r = await batchReportIds(db, id, { limit: perPage, offset: (page - 1) * perPage });
      return { items: await summariesByIds(db, r.ids), total: r.total };
    },

    async results(userId, id) {
      const b = await load(userId, id);
      const { pages, findings } = await batchResults(db, b, ctx.now());
      return { batch: presentBatchRow(b), pages, findings };
    },

    async view(userId, id, query) {
      return batchView(db, await load(userId, id), query, ctx.now());
    },
    async diff(userId, id, from) {
      return batchDiff(d, await load(userId, id), from);
    },
    latestDiff: (userId, project) => latestProjectDiff(d, userId, projectName(project)),

    // each job's change is told to the batch's live viewers once it has committed
    discover: (batchId, signal) => discover(d, batchId, signal).finally(() => changed(batchId)),
    discoverGaveUp: (batchId, reason) => discoverGaveUp(d, batchId, reason).finally(() => changed(batchId)),
    processPage: (batchId, pageId, signal, fence) =>
      pages.processPage(batchId, pageId, signal, fence).finally(() => changed(batchId)),
    pageGaveUp: (batchId, pageId, reason) =>
      pages.pageGaveUp(batchId, pageId, reason).finally(() => changed(batchId)),
    end: (batchId, signal) => endBatch(d, batchId, signal).finally(() => changed(batchId)),
    endGaveUp: (batchId, reason) => endGaveUp(d, batchId, reason).finally(() => changed(batchId)),
    watch: (batchId, onChange) => ctx.changes.subscribe(batchTopic(batchId), onChange),

    // the link graph (links.ts)
    async links(userId, id, query, page) {
      await load(userId, id);
      return batchLinks(db, id, query, page, d.tracking);
    },
    async linkChunks(userId, id, query) {
      await load(userId, id);
      return batchLinkChunks(db, id, query, d.tracking);
    },
    async pageLinks(userId, id, url) {
      await load(userId, id);
      return batchPageLinks(db, id, url, d.tracking);
    },
  };
}

/** The findings' thresholds of a new batch, each within its bounds (a 422 naming the field), or its default. */
function findingSettingsOf(input: CreateBatchInput): FindingSettings {
  const given: Record<FindingSettingName, number | undefined> = {
    thin_content_words: input.thinContentWords,
    near_duplicate_threshold: input.nearDuplicateThreshold,
    deep_page_depth: input.deepPageDepth,
  };
  for (const [name, v] of Object.entries(given) as [FindingSettingName, number | undefined][]) {
    const { min, max } = FINDING_SETTINGS[name];
    if (v !== undefined && (!Number.isInteger(v) || v < min || v > max))
      throw validationError({ [name]: [`The ${name} must be a whole number from ${min} to ${max}.`] });
  }
  return {
    thinContentWords: input.thinContentWords ?? DEFAULT_FINDING_SETTINGS.thinContentWords,
    nearDuplicateThreshold: input.nearDuplicateThreshold ?? DEFAULT_FINDING_SETTINGS.nearDuplicateThreshold,
    deepPageDepth: input.deepPageDepth ?? DEFAULT_FINDING_SETTINGS.deepPageDepth,
  };
}
