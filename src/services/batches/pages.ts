// One page of a batch (job batch.page): wait for the site's request slot, audit, then record
// the outcome with its report in one transaction — done (the project's report of the page gets
// a run, or a new report is made: one report per page; a page whose canonical
// names another URL is audited too, its row recording that target), failed, skipped (a
// redirect: its final URL is a page of its own, so one final URL is audited once; a cancelled
// batch) — and let the frontier go on.
// Idempotent: a page that is no longer `fetching` is left alone, so after a crash the page is
// audited once and its report stored once.
import type { Artifacts } from '../../analyzer/artifacts/types.js';
import { parseRobots, type Robots } from '../../analyzer/robots.js';
import type { AuditReport, SiteFiles } from '../../analyzer/types.js';
import { pageFacts, renderedFacts, type PageFacts } from '../../crawl/facts.js';
import { mergeLinks, pageLinks } from '../../crawl/links.js';
import { insertPageLinks } from '../../store/batch-links.repository.js';
import { crawlUrl, onSite } from '../../crawl/url.js';
import { factsDigest } from '../../crawl/diff.js';
import { extractBounded } from './extract-pool.js';
import { withTransaction, type Db } from '../../store/database.js';
import {
  bumpBatchCounters,
  findBatch,
  findPage,
  findSiteFiles,
  finishPage,
  type BatchRow,
} from '../../store/batches.repository.js';
import { reserveSlot } from '../../store/batch-frontier.repository.js';
import { BATCH_END } from '../../contract/jobs.js';
import { sharedNow, sleep } from '../../timers.js';
import { countAudit, isFetchError, renderHook } from '../audit/audit.js';
import { applyRules, projectRules } from '../audit/ignore.js';
import type { IgnoreRule } from '../../crawl/ignore.js';
import { storeCrawledPage } from '../audit/store.js';
import { optionsOf, type BatchDeps } from './deps.js';
import { addLinks, addRedirectTarget, pump } from './frontier.js';
import { siteHeadersOf } from './request-settings.js';
import { ConnectionPool, type SiteHeaders } from '../../analyzer/fetch/index.js';

/** batches whose parsed robots.txt and site files a process keeps (the oldest goes first) */
const SITE_CACHE_SIZE = 8;

interface Site {
  robots: Robots;
  siteFiles: SiteFiles | undefined;
  /** the project's ignore rules as the batch's first page here read them (expiry: at each page) */
  rules: IgnoreRule[];
  /** the project's crawl request settings as request headers, or why they cannot be used */
  request: Awaited<ReturnType<typeof siteHeadersOf>>;
  /** the batch's pages' connections, kept between its pages (docs/fetcher.md "Connections kept") */
  connections: ConnectionPool;
}

/** a page whose connection failed is asked once more after this long (its fetch error, code `connection`) */
const NETWORK_RETRY_MS = 1000;

export function createPageProcessor(d: BatchDeps) {
  const { db } = d.ctx;
  const siteCache = new Map<number, Site>();
  /** a batch's entry leaves the cache: its kept connections close (those in use when their page ends) */
  const forget = (batchId: number) => {
    const site = siteCache.get(batchId);
    if (!site) return;
    siteCache.delete(batchId);
    void site.connections.close();
  };

  /**
   * A running batch's robots.txt (parsed) and site files, read once per batch in this process:
   * discovery writes both when it starts the batch, before any page exists, and nothing changes
   * them after; every page of the batch then shares one parsed copy, and the analyzer's
   * per-resource memos (artifacts/index.ts) parse the sitemap once instead of once a page.
   * The project's ignore rules and its crawl request settings (decrypted) are read here once
   * too, not once a page: a change of either while the batch runs applies from the next batch
   * (docs/sites.md).
   */
  async function siteOf(from: Db, b: BatchRow): Promise<Site> {
    const hit = siteCache.get(b.id);
    if (hit) return hit;
    const row = await findSiteFiles(from, b.id);
    const site = {
      robots: parseRobots(new URL('/robots.txt', b.url).href, row?.robotsTxt ?? null),
      siteFiles: row?.siteFiles ? (JSON.parse(row.siteFiles) as SiteFiles) : undefined,
      rules: b.project === null ? [] : await projectRules(from, b.userId, b.project),
      request: await siteHeadersOf(d, b),
      // at most the batch's pages in flight (+2, for a page whose connection is still closing)
      connections: new ConnectionPool({ perOrigin: d.perSite + 2, timeoutMs: d.ctx.config.fetchTimeoutMs }),
    };
    // another page of the batch read it meanwhile: one copy (and one pool) per batch
    const raced = siteCache.get(b.id);
    if (raced) {
      void site.connections.close();
      return raced;
    }
    if (siteCache.size >= SITE_CACHE_SIZE) forget(siteCache.keys().next().value!);
    siteCache.set(b.id, site);
    return site;
  }

  /**
   * A rendered batch's page: the audit service's render hook (the process's pool; the job's
   * lease is renewed while the page waits in line, and `signal` ends the wait). Without Chromium
   * in this process (a worker elsewhere than where the batch was accepted) the page's render is
   * inconclusive with why and its raw results are kept, as after a crash.
   */
  function pageRenderer(signal?: AbortSignal, siteHeaders?: SiteHeaders) {
    const hook = renderHook(d.ctx, signal, siteHeaders);
    if (typeof hook === 'function') return hook;
    return async () => ({
      ok: false as const,
      reason: hook.unavailable,
      timings: { queue_ms: 0, total_ms: 0 },
    });
  }

  /** The page's job found it no longer `fetching`, or its batch no longer running. */
  async function closeStale(batchId: number, pageId: number): Promise<void> {
    await withTransaction(db, async (trx) => {
      // the batch ended (cancelled) while this page's job waited: the page is closed as
      // skipped, so it does not stay counted as remaining
      const current = await findBatch(trx, batchId, null, true);
      const p = await findPage(trx, batchId, pageId);
      if (current && current.status !== 'running' && current.status !== 'queued' && p?.state === 'fetching') {
        await finishPage(trx, pageId, { state: 'skipped', error: 'The batch was cancelled.' }, d.iso());
        await bumpBatchCounters(trx, batchId, { skipped: 1 });
        return;
      }
      if (current) await pump(d, trx, batchId, current);
    });
  }

  /**
   * The batch's row is read twice a page: before the audit (its options, robots.txt, settings)
   * and once, locked, in the transaction that closes the page — the frontier (pump) is given
   * that row rather than reading it a third time.
   */
  async function processPage(
    batchId: number,
    pageId: number,
    signal?: AbortSignal,
    fence?: (trx: Db) => Promise<void>,
  ): Promise<void> {
    const b = await findBatch(db, batchId, null);
    if (!b) return forget(batchId);
    // an ended batch's connections close here (at the latest, each closes itself when idle)
    if (b.status !== 'running') forget(batchId);
    const page = await findPage(db, batchId, pageId);
    if (!page || page.state !== 'fetching' || b.status !== 'running') return closeStale(batchId, pageId);
    // politeness: the site's next request slot (a minimum delay between requests); a batch with no
    // delay has no slots to reserve, and saves the page a transaction (issue 24 §4: a third of
    // a page's commits)
    if (b.delayMs > 0) {
      const slot = await withTransaction(db, async (trx) => {
        await findBatch(trx, batchId, null, true);
        return reserveSlot(trx, batchId, sharedNow());
      });
      const wait = slot - sharedNow();
      if (wait > 0) await sleep(wait, signal);
    }
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
    /** a redirect loop (or too many redirects): the hops, recorded with the failed page */
    let failedRedirectPath: string[] | null = null;
    // the crawler's rules hold for redirect targets too: a redirect that leaves the site or
    // that robots.txt disallows is not followed (a list is the user's own choice of URLs)
    const robots = b.mode === 'list' ? null : site.robots;
    const redirectCheck = (next: string): string | null => {
      if (!robots) return null;
      if (!onSite(next, host)) return 'it leaves the site';
      if (!robots.allowed(next)) return 'robots.txt disallows it';
      return null;
    };
    // the project's headers, cookies and basic auth, for the start URL's origin only
    const request = site.request;
    const siteHeaders = request.siteHeaders;
    const started = performance.now();
    // settings that cannot be decrypted: the page fails with why (never crawled without them)
    if (request.error !== undefined) error = request.error;
    else
      try {
        const audit = () =>
          d.ctx.analyze(page.url, {
            ...d.fetchOptions(),
            ...(siteHeaders ? { siteHeaders } : {}),
            redirectCheck,
            maxBytes: d.ctx.config.fetchMaxBytes,
            ...(siteFiles ? { siteFiles } : {}),
            ...(signal ? { signal } : {}),
            connections: site.connections,
            onArtifacts: (a) => {
              artifacts = a;
            },
            // a rendered batch: each page is a rendered audit (one visit: the browser is given the
            // fetched bytes); the crawler then reads the rendered DOM's artifacts too
            ...(options.render
              ? {
                  render: pageRenderer(signal, siteHeaders),
                  onRenderedArtifacts: (a: Artifacts) => {
                    rendered = a;
                  },
                }
              : {}),
          });
        try {
          report = await audit();
        } catch (err) {
          // the connection closed or reset, or the host unreachable (a worker whose network has
          // just come back, a server restarting): asked once more after a second, and only then
          // the page fails (docs/sites.md "How it works")
          if (signal?.aborted || !isFetchError(err) || err.code !== 'connection') throw err;
          await sleep(NETWORK_RETRY_MS, signal);
          if (signal?.aborted) throw err;
          report = await audit();
        }
        countAudit(started, report);
      } catch (err) {
        if (signal?.aborted) throw err;
        if (!isFetchError(err)) throw err;
        error = err.message;
        refusedRedirect = err.code === 'redirect_refused';
        failedRedirectPath = err.redirectPath ?? null;
        // a redirect the crawl's rules refused is a skipped page, not a failed audit
        if (!refusedRedirect) countAudit(started, err);
      }
    // stopped (shutdown, lease lost) while rendering: nothing is stored, the job runs again
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    // the project's ignore rules, before the facts and the report are stored: an ignored check
    // is not judged, and the page's score leaves it out
    let ignored: NonNullable<PageFacts['ignored']> = [];
    if (report) ({ report, ignored } = applyRules(report, site.rules, d.ctx.now()));
    const rawFacts = report && artifacts ? pageFacts(artifacts, report, host, d.tracking) : null;
    const allFacts =
      rawFacts && report && rendered
        ? renderedFacts(rawFacts, pageFacts(rendered, report, host, d.tracking))
        : rawFacts;
    const facts = allFacts && ignored.length > 0 ? { ...allFacts, ignored } : allFacts;
    // the link graph's rows (batch_links): every link with its anchor, rel, internal or not
    const rawLinks = report && artifacts ? pageLinks(artifacts, host, d.tracking) : [];
    const links = rendered ? mergeLinks(rawLinks, pageLinks(rendered, host, d.tracking)) : rawLinks;
    const finalUrl = report ? crawlUrl(report.final_url, report.final_url, d.tracking) : null;
    // custom extraction (src/crawl/extract.ts): over the HTML the audit judged (a rendered
    // batch's: the rendered HTML, when its render completed), for a page that will be audited
    // (not an error page, not a redirect); in the process's extraction worker, each extractor
    // with its time bound (extract-pool.ts)
    const extractors = options.extractors ?? [];
    const judged = (rendered ?? artifacts) as Artifacts | null;
    const kept = report !== null && report.page.status < 400 && (finalUrl === null || finalUrl === page.url);
    const extraction =
      extractors.length > 0 && kept && judged
        ? await extractBounded(judged.source, extractors, d.ctx.config.extractTimeoutMs)
        : null;
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const extracted = extraction ? JSON.stringify(extraction.values) : null;
    const extractErrors =
      extraction && Object.keys(extraction.errors).length > 0 ? JSON.stringify(extraction.errors) : null;
    // the page is canonicalised to another URL: recorded with the page (it is audited all the same)
    const canonical = facts?.canonical && facts.canonical !== page.url ? facts.canonical : null;

    let ended = false;
    await withTransaction(db, async (trx) => {
      // this run still holds the page's job (throws otherwise: a worker cut off past its lease
      // must not record what it saw, e.g. a time-out of its own network, over the run that
      // took the page over) — asked first, before the batch's row is locked, so that a worker
      // cut off while BullMQ's lock is asked in Redis holds no lock the others wait for
      await fence?.(trx);
      const current = await findBatch(trx, batchId, null, true);
      const p = await findPage(trx, batchId, pageId);
      if (!current || !p || p.state !== 'fetching') return;
      const now = d.iso();
      const close = async (
        outcome: Parameters<typeof finishPage>[2],
        counter: 'audited' | 'failed' | 'skipped',
      ) => {
        await finishPage(trx, pageId, outcome, now);
        await bumpBatchCounters(trx, batchId, { [counter]: 1 });
      };
      if (current.status !== 'running') {
        await close({ state: 'skipped', error: 'The batch was cancelled.' }, 'skipped');
        return;
      }
      if (refusedRedirect) {
        await close({ state: 'skipped', error }, 'skipped');
      } else if (report === null || facts === null) {
        await close(
          {
            state: 'failed',
            error: error ?? 'The page could not be audited.',
            redirectPath: failedRedirectPath,
          },
          'failed',
        );
      } else if (report.page.status >= 400) {
        await close(
          {
            state: 'failed',
            statusCode: report.page.status,
            finalUrl: report.final_url,
            error: `The page answered HTTP ${report.page.status}.`,
            facts: JSON.stringify(facts),
          },
          'failed',
        );
      } else if (finalUrl !== null && finalUrl !== page.url) {
        // a redirect: recorded (the findings use it), and its target is a page of its own
        await close(
          {
            state: 'skipped',
            statusCode: report.page.redirects[0]?.status ?? report.page.status,
            finalUrl,
            error: `Redirects to ${finalUrl}.`,
            redirectPath: [...report.page.redirects.map((r) => r.url), report.final_url],
          },
          'skipped',
        );
        await addRedirectTarget(trx, current, site.robots, { url: finalUrl, depth: page.depth }, now);
      } else {
        // only the same final URL is one page: a redirect ends above (its target is a page of
        // its own, and a batch's URLs are unique), so every page that gets here is audited
        // the project's report of the page gets a run (its privacy and password kept), or
        // the page is new to the project and gets a report with the batch's privacy
        const stored = await storeCrawledPage(trx, d.ctx, {
          userId: current.userId,
          report,
          privacy: options.privacy,
          now,
          batch: { id: batchId, url: page.url },
        });
        if ('refused' in stored) {
          // over the organisation's reports a month: skipped, naming the quota; its links are
          // still followed, so the crawl's pages that have a report get their run
          await close(
            {
              state: 'skipped',
              statusCode: report.page.status,
              finalUrl: report.final_url,
              error: stored.refused,
            },
            'skipped',
          );
        } else {
          await bumpBatchCounters(
            trx,
            batchId,
            stored.created ? { reports_created: 1 } : { reports_updated: 1 },
          );
          await close(
            {
              state: 'done',
              reportId: stored.reportId,
              statusCode: report.page.status,
              finalUrl: report.final_url,
              canonicalKey: canonical,
              facts: JSON.stringify(facts),
              // what a comparison with another crawl reads of the page (services/batches/diff.ts)
              digest: factsDigest(facts),
              extracted,
              extractErrors,
            },
            'audited',
          );
          await insertPageLinks(trx, batchId, pageId, links);
        }
        // crawl: the links found (and the canonical target) join the frontier, within the limits
        await addLinks(trx, current, site.robots, page, facts, now);
      }
      // the row read (and locked) above: pump reads its status and deadline, which the page did not change
      ended = await pump(d, trx, batchId, current);
    });
    // the batch's last page: its kept connections close now, and its end's job is looked for
    if (ended) {
      forget(batchId);
      d.ctx.queue.committed(BATCH_END.kind);
    }
  }

  /**
   * The page's last attempt failed (not the page's fault: the database, a bug): it ends failed
   * with the reason, so that the batch goes on and finishes.
   */
  async function pageGaveUp(batchId: number, pageId: number, reason: string): Promise<void> {
    await withTransaction(db, async (trx) => {
      const b = await findBatch(trx, batchId, null, true);
      const p = await findPage(trx, batchId, pageId);
      if (!b || !p || p.state !== 'fetching') return;
      await finishPage(
        trx,
        pageId,
        { state: 'failed', error: `The page could not be audited: ${reason}` },
        d.iso(),
      );
      await bumpBatchCounters(trx, batchId, { failed: 1 });
      await pump(d, trx, batchId, b);
    });
  }

  return { processPage, pageGaveUp };
}
