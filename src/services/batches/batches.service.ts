// Batches: a whole site audited as one unit of work (docs/sites.md). The rules live here; the
// crawler's pure parts are src/crawl (URL normal form, robots.txt, sitemaps, per-page facts,
// findings); every SQL statement is in src/store/batches.repository.ts; the jobs are adapters:
//
//   batch.discover {batchId}         robots.txt and the site files once, the sitemap(s), the seeds
//   batch.page     {batchId, pageId} one page: wait for the site's slot, audit, store, follow links
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
import { type AuditReport, type ExtraResource, type SiteFiles } from '../../analyzer/types.js';
import { fetchSiteFile, probeToken } from '../../analyzer/fetch/index.js';
import type { Artifacts } from '../../analyzer/artifacts/types.js';
import { notFound, validationError } from '../../errors.js';
import { sleep } from '../../timers.js';
import { BATCH_DISCOVER, BATCH_PAGE, enqueueJob } from '../../contract/jobs.js';
import { withTransaction, type Db } from '../../store/database.js';
import {
  allPages,
  batchReportIds,
  bumpBatchCounters,
  countPagesInState,
  deleteBatch,
  existingUrls,
  findBatch,
  findDoneByCanonical,
  findPage,
  findSiteFiles,
  finishPage,
  insertBatch,
  insertPages,
  listBatches,
  listFailedPages,
  markInSitemap,
  reserveSlot,
  skipQueuedPages,
  takeQueuedPages,
  updateBatch,
  type BatchPageRow,
  type BatchRow,
} from '../../store/batches.repository.js';
import { addReportToProject, lockProject, removeReportFromProject } from '../../store/projects.repository.js';
import { deleteReport, insertReport, summariesByIds } from '../../store/reports.repository.js';
import { adjustUserCounters } from '../../store/users.repository.js';
import { pageFacts, renderedFacts, type PageFacts } from '../../crawl/facts.js';
import { computeFindings, computeSummary, type BatchSummary, type Finding } from '../../crawl/findings.js';
import { parseRobots, type Robots } from '../../crawl/robots.js';
import { parseSitemap } from '../../crawl/sitemap.js';
import { DEFAULT_TRACKING_PARAMS, crawlUrl, looksNonHtml, onSite, patternFilter } from '../../crawl/url.js';
import { auditColumns, countAudit, isFetchError, renderHook, renderUnavailable } from '../audit/audit.js';
import type { ServiceContext } from '../shared/context.js';
import type { Privacy } from '../reports/types.js';
import type { Services } from '../types.js';
import {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_PAGES,
  MAX_LIST_URLS,
  type Batch,
  type BatchOptions,
  type BatchPageResult,
  type BatchServices,
  type FetchFileFn,
} from './types.js';

/** sitemap indexes are followed this many levels deep, at most this many files */
const SITEMAP_NESTING = 3;
const SITEMAP_FILES = 50;

const batchNotFound = () => notFound('No such batch.');

/** A batch's options: its JSON text, and `render` from its own column. */
const optionsOf = (b: BatchRow): BatchOptions => ({
  ...(JSON.parse(b.options) as Omit<BatchOptions, 'render'>),
  render: b.render,
});

/** batches whose parsed robots.txt and site files a process keeps (the oldest goes first) */
const SITE_CACHE_SIZE = 8;

export function createBatchServices(
  ctx: ServiceContext & { fetchFile?: FetchFileFn },
  webhooks: Pick<Services['webhooks'], 'emit'>,
): BatchServices {
  const { db, config } = ctx;
  const iso = () => ctx.now().toISOString();
  const fetchFile = ctx.fetchFile ?? fetchSiteFile;
  const siteCache = new Map<number, { robots: Robots; siteFiles: SiteFiles | undefined }>();
  const maxPagesLimit = config.batchMaxPages ?? 10_000;
  const tracking = config.crawlTrackingParams ?? DEFAULT_TRACKING_PARAMS;
  const perSite = config.crawlConcurrency ?? 2;
  const minDelay = config.crawlDelayMs ?? 250;
  const budgetMs = config.batchTimeBudgetMs ?? 3_600_000;
  const fetchOptions = () => ({
    allowPrivateHosts: config.allowPrivateHosts,
    timeoutMs: config.fetchTimeoutMs,
    ...(config.userAgent !== null ? { userAgent: config.userAgent } : {}),
  });

  function present(b: BatchRow): Batch {
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
      error: b.error,
      createdAt: b.createdAt,
      startedAt: b.startedAt,
      finishedAt: b.finishedAt,
      summary: b.summary === null ? null : (JSON.parse(b.summary) as BatchSummary),
    };
  }

  async function load(userId: number, id: number): Promise<BatchRow> {
    const b = await findBatch(db, id, userId);
    if (!b) throw batchNotFound();
    return b;
  }

  const toResult = (p: BatchPageRow): BatchPageResult => ({
    url: p.url,
    state: p.state,
    depth: p.depth,
    inSitemap: p.inSitemap,
    reportId: p.reportId,
    statusCode: p.statusCode,
    finalUrl: p.finalUrl,
    error: p.error,
    facts: p.facts === null ? null : (JSON.parse(p.facts) as PageFacts),
  });

  /** The findings and summary of a batch's pages as they stand. */
  async function analyse(
    b: BatchRow,
    from: Db = db,
  ): Promise<{ pages: BatchPageResult[]; findings: Finding[]; summary: BatchSummary }> {
    const pages = (await allPages(from, b.id)).map(toResult);
    const findings = computeFindings(pages, b.url);
    const summary = computeSummary(pages, findings, {
      discovered: b.discovered,
      audited: b.audited,
      failed: b.failed,
      skipped: b.skipped,
    });
    return { pages, findings, summary };
  }

  /**
   * A running batch's robots.txt (parsed) and site files, read once per batch in this process:
   * discovery writes both when it starts the batch, before any page exists, and nothing changes
   * them after; every page of the batch then shares one parsed copy, and the analyzer's
   * per-resource memos (artifacts/index.ts) parse the sitemap once instead of once a page.
   */
  async function siteOf(db: Db, b: BatchRow): Promise<{ robots: Robots; siteFiles: SiteFiles | undefined }> {
    const hit = siteCache.get(b.id);
    if (hit) return hit;
    const row = await findSiteFiles(db, b.id);
    const site = {
      robots: parseRobots(new URL('/robots.txt', b.url).href, row?.robotsTxt ?? null),
      siteFiles: row?.siteFiles ? (JSON.parse(row.siteFiles) as SiteFiles) : undefined,
    };
    if (siteCache.size >= SITE_CACHE_SIZE) siteCache.delete(siteCache.keys().next().value!);
    siteCache.set(b.id, site);
    return site;
  }

  /** A URL found by the batch that it may request: on the site, HTML-looking, robots-allowed, within include/exclude. */
  function admissible(b: BatchRow, robots: Robots, url: string): string | null {
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
   * transaction that holds the batch's lock; finishes the batch when nothing is left.
   */
  async function pump(trx: Db, batchId: number): Promise<void> {
    const b = await findBatch(trx, batchId, null, true);
    if (!b || b.status !== 'running') return;
    const now = iso();
    if (Date.now() >= b.deadlineAt) {
      const n = await skipQueuedPages(trx, batchId, 'The batch reached its time budget.', now);
      await bumpBatchCounters(trx, batchId, { skipped: n });
    }
    const inFlight = await countPagesInState(trx, batchId, 'fetching');
    const next = await takeQueuedPages(trx, batchId, perSite - inFlight, now);
    for (const p of next) {
      await enqueueJob(ctx.queue, BATCH_PAGE, { batchId, pageId: p.id }, { key: `${batchId}:${p.id}`, trx });
    }
    if (inFlight + next.length === 0) await finish(trx, batchId, 'done');
  }

  async function finish(
    trx: Db,
    batchId: number,
    status: 'done' | 'cancelled' | 'failed',
    error?: string,
  ): Promise<void> {
    const b = (await findBatch(trx, batchId, null, true))!;
    const { summary } = await analyse({ ...b, ...(await freshCounters(trx, batchId)) }, trx);
    const now = iso();
    await updateBatch(
      trx,
      batchId,
      {
        status,
        summary: JSON.stringify(summary),
        finishedAt: now,
        ...(error !== undefined ? { error } : {}),
      },
      now,
    );
    if (status === 'done') {
      const done = (await findBatch(trx, batchId, null))!;
      await webhooks.emit(done.userId, 'batch.completed', { batch: webhookBatch(present(done)) }, { trx });
    }
  }

  async function freshCounters(trx: Db, batchId: number) {
    const b = (await findBatch(trx, batchId, null))!;
    return { discovered: b.discovered, audited: b.audited, failed: b.failed, skipped: b.skipped };
  }

  function webhookBatch(b: Batch) {
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

  /**
   * A rendered batch's page: the audit service's render hook (the process's pool; the job's
   * lease is renewed while the page waits in line, and `signal` ends the wait). Without Chromium
   * in this process (a worker elsewhere than where the batch was accepted) the page's render is
   * inconclusive with why and its raw results are kept, as after a crash.
   */
  function pageRenderer(signal?: AbortSignal) {
    const hook = renderHook(ctx, signal);
    if (typeof hook === 'function') return hook;
    return async () => ({
      ok: false as const,
      reason: hook.unavailable,
      timings: { queue_ms: 0, total_ms: 0 },
    });
  }

  async function fetchText(url: string, signal?: AbortSignal): Promise<ExtraResource> {
    return fetchFile(url, { ...fetchOptions(), ...(signal ? { signal } : {}) });
  }

  /** The sitemap URLs reachable from `roots` (indexes followed, gzip parts unpacked), on the site. */
  async function sitemapUrls(
    roots: string[],
    host: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<string[]> {
    const urls: string[] = [];
    const seenFiles = new Set<string>();
    let level = roots.filter((r) => onSite(r, host));
    for (let depth = 0; depth < SITEMAP_NESTING && level.length > 0; depth++) {
      const nextLevel: string[] = [];
      for (const file of level) {
        if (seenFiles.has(file) || seenFiles.size >= SITEMAP_FILES || urls.length >= limit) continue;
        seenFiles.add(file);
        const r = await fetchText(file, signal);
        if (r.status === null || r.status < 200 || r.status >= 300) continue;
        const parsed = parseSitemap(r.body);
        for (const u of parsed.urls) {
          const n = crawlUrl(u, r.finalUrl, tracking);
          if (n !== null && onSite(n, host)) urls.push(n);
        }
        for (const s of parsed.sitemaps) {
          const n = crawlUrl(s, r.finalUrl, []);
          if (n !== null && onSite(n, host)) nextLevel.push(n);
        }
      }
      level = nextLevel;
    }
    return [...new Set(urls)];
  }

  return {
    async create(userId, input) {
      const start = crawlUrl(input.url, input.url, tracking);
      if (start === null) throw validationError({ url: ['The url must be an absolute http or https URL.'] });
      const maxPages = input.maxPages ?? DEFAULT_MAX_PAGES;
      if (maxPages > maxPagesLimit)
        throw validationError({ max_pages: [`The max_pages may not be greater than ${maxPagesLimit}.`] });
      const privacy: Privacy = input.privacy ?? 0;
      if (privacy === 2)
        throw validationError({ privacy: ['The privacy of a batch is 0 (public) or 1 (private).'] });
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
          const n = crawlUrl(u, u, tracking);
          if (n === null)
            throw validationError({ [`urls.${i}`]: ['Each URL must be an absolute http or https URL.'] });
          urls.push(n);
        }
        urls = [...new Set(urls)];
      }
      const options: Omit<BatchOptions, 'render'> = {
        maxPages,
        maxDepth: input.maxDepth ?? DEFAULT_MAX_DEPTH,
        include: input.include ?? [],
        exclude: input.exclude ?? [],
        privacy,
        ...(urls ? { urls } : {}),
      };
      const id = await withTransaction(db, async (trx) => {
        const id = await insertBatch(trx, {
          userId,
          mode: input.mode,
          url: start,
          options: JSON.stringify(options),
          render,
          now: iso(),
        });
        await enqueueJob(ctx.queue, BATCH_DISCOVER, { batchId: id }, { key: String(id), trx });
        return id;
      });
      return present((await findBatch(db, id, userId))!);
    },

    async list(userId, { page, perPage }) {
      const r = await listBatches(db, userId, { limit: perPage, offset: (page - 1) * perPage });
      return { items: r.items.map(present), total: r.total };
    },

    async get(userId, id) {
      return present(await load(userId, id));
    },

    async cancel(userId, id) {
      await load(userId, id);
      await withTransaction(db, async (trx) => {
        const b = await findBatch(trx, id, userId, true);
        if (!b) throw batchNotFound();
        if (b.status !== 'queued' && b.status !== 'running') return;
        const n = await skipQueuedPages(trx, id, 'The batch was cancelled.', iso());
        await bumpBatchCounters(trx, id, { skipped: n });
        await finish(trx, id, 'cancelled');
      });
      return present(await load(userId, id));
    },

    async delete(userId, id, { reports }) {
      await load(userId, id);
      let ids: number[] = [];
      await withTransaction(db, async (trx) => {
        const b = await findBatch(trx, id, userId, true);
        if (!b) throw batchNotFound();
        if (reports) ids = (await batchReportIds(trx, id, null)).ids;
        await deleteBatch(trx, id);
      });
      let reportsDeleted = 0;
      for (const reportId of ids) {
        const summary = (await summariesByIds(db, [reportId]))[0];
        if (!summary || summary.userId !== userId) continue;
        await withTransaction(db, async (trx) => {
          await lockProject(trx, userId, summary.project);
          const gone = await deleteReport(trx, reportId, userId);
          if (!gone) return;
          reportsDeleted++;
          const projectDeleted = await removeReportFromProject(trx, userId, gone.project);
          await adjustUserCounters(trx, userId, {
            projects: projectDeleted ? -1 : 0,
            reports: -1,
            [gone.result]: -1,
          });
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
      const { pages, findings } = await analyse(b);
      return { batch: present(b), pages, findings };
    },

    async discover(batchId, signal) {
      const b = await findBatch(db, batchId, null);
      if (!b || b.status !== 'queued') return;
      const options = optionsOf(b);
      const start = new URL(b.url);
      const origin = start.origin;
      // robots.txt once for the batch (a 404 or a failure: everything allowed)
      const robotsRes = await fetchText(`${origin}/robots.txt`, signal);
      const robotsTxt =
        robotsRes.status !== null && robotsRes.status >= 200 && robotsRes.status < 300
          ? robotsRes.body
          : null;
      const robots = parseRobots(`${origin}/robots.txt`, robotsTxt);
      // the site files every page's audit reads, fetched once (the 404 probe only where robots.txt allows it)
      const sitemapRoots =
        b.mode === 'sitemap' && start.pathname !== '/'
          ? [b.url]
          : robots.sitemaps.length > 0
            ? robots.sitemaps
            : [`${origin}/sitemap.xml`];
      const sitemapFile = await fetchText(
        sitemapRoots.find((s) => onSite(s, start.hostname)) ?? `${origin}/sitemap.xml`,
        signal,
      );
      const probeUrl = `${origin}/pagegrade-404-check-${probeToken()}`;
      const probe = robots.allowed(probeUrl)
        ? await fetchText(probeUrl, signal)
        : {
            url: probeUrl,
            finalUrl: probeUrl,
            status: null,
            headers: {},
            body: '',
            error: 'Not requested: robots.txt disallows it.',
            durationMs: 0,
          };
      const favicon = robots.allowed(`${origin}/favicon.ico`)
        ? await fetchFile(`${origin}/favicon.ico`, {
            ...fetchOptions(),
            cap: 0,
            headersOnly: true,
            ...(signal ? { signal } : {}),
          })
        : null;
      const siteFiles: SiteFiles = {
        robots: robotsRes,
        sitemap: sitemapFile,
        notFoundProbe: probe,
        favicon,
      };

      // the seeds
      const seeds: { url: string; inSitemap: boolean }[] = [];
      if (b.mode === 'list') for (const u of options.urls ?? []) seeds.push({ url: u, inSitemap: false });
      if (b.mode === 'crawl') seeds.push({ url: b.url, inSitemap: false });
      const fromSitemap =
        b.mode === 'list'
          ? []
          : await sitemapUrls(sitemapRoots, start.hostname, Math.max(options.maxPages * 4, 1000), signal);
      for (const u of fromSitemap) seeds.push({ url: u, inSitemap: true });

      const now = iso();
      await withTransaction(db, async (trx) => {
        const current = await findBatch(trx, batchId, null, true);
        if (!current || current.status !== 'queued') return;
        const rows: { url: string; depth: number; inSitemap: boolean; state?: 'skipped'; error?: string }[] =
          [];
        const seen = new Set<string>();
        const sitemapSet = new Set(fromSitemap);
        for (const s of seeds) {
          if (seen.has(s.url) || rows.length >= options.maxPages) continue;
          seen.add(s.url);
          const why = admissible(current, robots, s.url);
          const inSitemap = sitemapSet.has(s.url);
          if (why === null) rows.push({ url: s.url, depth: 0, inSitemap });
          else if (b.mode === 'list' || why === 'disallowed by robots.txt')
            rows.push({ url: s.url, depth: 0, inSitemap, state: 'skipped', error: `Not requested: ${why}.` });
        }
        const added = await insertPages(trx, batchId, rows, now);
        const skipped = rows.filter((r) => r.state === 'skipped').length;
        await bumpBatchCounters(trx, batchId, { discovered: added, skipped });
        await updateBatch(
          trx,
          batchId,
          {
            status: 'running',
            robotsTxt,
            siteFiles: JSON.stringify(siteFiles),
            delayMs: Math.max(minDelay, robots.delayMs ?? 0),
            deadlineAt: Date.now() + budgetMs,
            startedAt: now,
          },
          now,
        );
        // crawl mode: sitemap URLs beyond the seeds are still known as "in the sitemap"
        if (b.mode === 'crawl') await markInSitemap(trx, batchId, fromSitemap);
        await pump(trx, batchId);
      });
    },

    async pageGaveUp(batchId, pageId, reason) {
      await withTransaction(db, async (trx) => {
        const b = await findBatch(trx, batchId, null, true);
        const p = await findPage(trx, batchId, pageId);
        if (!b || !p || p.state !== 'fetching') return;
        await finishPage(
          trx,
          pageId,
          { state: 'failed', error: `The page could not be audited: ${reason}` },
          iso(),
        );
        await bumpBatchCounters(trx, batchId, { failed: 1 });
        await pump(trx, batchId);
      });
    },

    async processPage(batchId, pageId, signal) {
      const b = await findBatch(db, batchId, null);
      if (!b) return;
      const page = await findPage(db, batchId, pageId);
      if (!page || page.state !== 'fetching' || b.status !== 'running') {
        await withTransaction(db, async (trx) => {
          // the batch ended (cancelled) while this page's job waited: the page is closed as
          // skipped, so it does not stay counted as remaining
          const current = await findBatch(trx, batchId, null, true);
          const p = await findPage(trx, batchId, pageId);
          if (
            current &&
            current.status !== 'running' &&
            current.status !== 'queued' &&
            p?.state === 'fetching'
          ) {
            await finishPage(trx, pageId, { state: 'skipped', error: 'The batch was cancelled.' }, iso());
            await bumpBatchCounters(trx, batchId, { skipped: 1 });
            return;
          }
          await pump(trx, batchId);
        });
        return;
      }
      // politeness: the site's next request slot (a minimum delay between requests)
      const slot = await withTransaction(db, async (trx) => {
        await findBatch(trx, batchId, null, true);
        return reserveSlot(trx, batchId, Date.now());
      });
      const wait = slot - Date.now();
      if (wait > 0) await sleep(wait, signal);
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');

      const options = optionsOf(b);
      const host = new URL(b.url).hostname;
      const site = await siteOf(db, b);
      const siteFiles = site.siteFiles;
      let artifacts: Artifacts | null = null;
      let rendered: Artifacts | null = null;
      let report: AuditReport | null = null;
      let error: string | null = null;
      let refusedRedirect = false;
      // the crawler's rules hold for redirect targets too: a redirect that leaves the site or
      // that robots.txt disallows is not followed (a list is the user's own choice of URLs)
      const robots = b.mode === 'list' ? null : site.robots;
      const redirectCheck = (next: string): string | null => {
        if (!robots) return null;
        if (!onSite(next, host)) return 'it leaves the site';
        if (!robots.allowed(next)) return 'robots.txt disallows it';
        return null;
      };
      const started = performance.now();
      try {
        report = await ctx.analyze(page.url, {
          ...fetchOptions(),
          redirectCheck,
          maxBytes: config.fetchMaxBytes,
          ...(siteFiles ? { siteFiles } : {}),
          ...(signal ? { signal } : {}),
          onArtifacts: (a) => {
            artifacts = a;
          },
          // a rendered batch: each page is a rendered audit (one visit: the browser is given the
          // fetched bytes); the crawler then reads the rendered DOM's artifacts too
          ...(options.render
            ? {
                render: pageRenderer(signal),
                onRenderedArtifacts: (a: Artifacts) => {
                  rendered = a;
                },
              }
            : {}),
        });
        countAudit(started, report);
      } catch (err) {
        if (signal?.aborted) throw err;
        if (!isFetchError(err)) throw err;
        error = err.message;
        refusedRedirect = err.code === 'redirect_refused';
        // a redirect the crawl's rules refused is a skipped page, not a failed audit
        if (!refusedRedirect) countAudit(started, err);
      }
      // stopped (shutdown, lease lost) while rendering: nothing is stored, the job runs again
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      const rawFacts = report && artifacts ? pageFacts(artifacts, report, host, tracking) : null;
      const facts =
        rawFacts && report && rendered
          ? renderedFacts(rawFacts, pageFacts(rendered, report, host, tracking))
          : rawFacts;
      const finalUrl = report ? crawlUrl(report.final_url, report.final_url, tracking) : null;
      const canonicalKey =
        facts?.canonical && onSite(facts.canonical, host) ? facts.canonical : (report?.final_url ?? null);

      await withTransaction(db, async (trx) => {
        const current = await findBatch(trx, batchId, null, true);
        const p = await findPage(trx, batchId, pageId);
        if (!current || !p || p.state !== 'fetching') return;
        const now = iso();
        if (current.status !== 'running') {
          await finishPage(trx, pageId, { state: 'skipped', error: 'The batch was cancelled.' }, now);
          await bumpBatchCounters(trx, batchId, { skipped: 1 });
          return;
        }
        if (refusedRedirect) {
          await finishPage(trx, pageId, { state: 'skipped', error }, now);
          await bumpBatchCounters(trx, batchId, { skipped: 1 });
        } else if (report === null || facts === null) {
          await finishPage(
            trx,
            pageId,
            { state: 'failed', error: error ?? 'The page could not be audited.' },
            now,
          );
          await bumpBatchCounters(trx, batchId, { failed: 1 });
        } else if (report.page.status >= 400) {
          await finishPage(
            trx,
            pageId,
            {
              state: 'failed',
              statusCode: report.page.status,
              finalUrl: report.final_url,
              error: `The page answered HTTP ${report.page.status}.`,
              facts: JSON.stringify(facts),
            },
            now,
          );
          await bumpBatchCounters(trx, batchId, { failed: 1 });
        } else if (finalUrl !== null && finalUrl !== page.url) {
          // a redirect: recorded (the findings use it), and its target is a page of its own
          await finishPage(
            trx,
            pageId,
            {
              state: 'skipped',
              statusCode: report.page.redirects[0]?.status ?? report.page.status,
              finalUrl,
              error: `Redirects to ${finalUrl}.`,
            },
            now,
          );
          await bumpBatchCounters(trx, batchId, { skipped: 1 });
          if (
            current.mode === 'crawl' &&
            onSite(finalUrl, host) &&
            admissible(current, robots!, finalUrl) === null
          ) {
            const room = options.maxPages - current.discovered;
            if (room > 0) {
              const added = await insertPages(trx, batchId, [{ url: finalUrl, depth: page.depth }], now);
              await bumpBatchCounters(trx, batchId, { discovered: added });
            }
          }
        } else {
          const duplicateOf =
            canonicalKey !== null && canonicalKey !== page.url
              ? await findDoneByCanonical(trx, batchId, canonicalKey)
              : null;
          if (duplicateOf !== null) {
            await finishPage(
              trx,
              pageId,
              {
                state: 'skipped',
                statusCode: report.page.status,
                finalUrl: report.final_url,
                canonicalKey,
                error: `A duplicate of ${duplicateOf} (same canonical URL).`,
                facts: JSON.stringify(facts),
              },
              now,
            );
            await bumpBatchCounters(trx, batchId, { skipped: 1 });
          } else {
            const projectCreated = await addReportToProject(trx, current.userId, report.project, now);
            const reportId = await insertReport(trx, {
              ...auditColumns(report),
              userId: current.userId,
              url: report.url,
              project: report.project,
              privacy: options.privacy,
              passwordHash: null,
              now,
            });
            await adjustUserCounters(trx, current.userId, {
              projects: projectCreated ? 1 : 0,
              reports: 1,
              [report.result]: 1,
            });
            if (ctx.reportEvents) await ctx.reportEvents.created(trx, current.userId, reportId);
            await finishPage(
              trx,
              pageId,
              {
                state: 'done',
                reportId,
                statusCode: report.page.status,
                finalUrl: report.final_url,
                canonicalKey,
                facts: JSON.stringify(facts),
              },
              now,
            );
            await bumpBatchCounters(trx, batchId, { audited: 1 });
          }
          // crawl: the links found (and the canonical target) join the frontier, within the limits
          if (current.mode === 'crawl' && page.depth < options.maxDepth && Date.now() < current.deadlineAt) {
            const room = options.maxPages - current.discovered;
            if (room > 0) {
              const all = [...facts.links, ...(facts.canonical ? [facts.canonical] : [])];
              const verdict = new Map(all.map((u) => [u, admissible(current, robots!, u)]));
              // links robots.txt disallows are listed (skipped, never requested); others out of bounds are ignored
              const candidates = all.filter(
                (u) => verdict.get(u) === null || verdict.get(u) === 'disallowed by robots.txt',
              );
              const known = await existingUrls(trx, batchId, candidates);
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
              const added = await insertPages(trx, batchId, rows, now);
              const skipped = rows.filter((r) => r.state === 'skipped').length;
              await bumpBatchCounters(trx, batchId, { discovered: added, skipped: Math.min(skipped, added) });
            }
          }
        }
        await pump(trx, batchId);
      });
    },
  };
}
