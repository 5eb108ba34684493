// The start of a batch (job batch.discover): robots.txt and the site files once (the analyzer's
// site-files fetcher, in the crawl's polite order), the sitemap(s), the seeds; then the batch
// runs and its first pages are enqueued (frontier.ts), or, when a crawl's start page may not be
// requested (robots.txt, the patterns), it fails at once. Does nothing for a batch that is no
// longer queued: a second run after a crash finds it running.
import { fetchSiteFiles } from '../../analyzer/fetch/site-files.js';
import { parseRobots, type Robots } from '../../analyzer/robots.js';
import { parseSitemap, type SitemapFile } from '../../crawl/sitemap.js';
import { crawlUrl, onSite } from '../../crawl/url.js';
import { withTransaction } from '../../store/database.js';
import { bumpBatchCounters, findBatch, updateBatch } from '../../store/batches.repository.js';
import { insertPages, markInSitemap } from '../../store/batch-frontier.repository.js';
import { fetchText, optionsOf, type BatchDeps } from './deps.js';
import { admissible, finish, pump, ROBOTS_DISALLOW_ALL } from './frontier.js';
import { siteHeadersOf } from './request-settings.js';
import type { SiteHeaders } from '../../analyzer/fetch/index.js';
import type { ExtraResource } from '../../analyzer/types.js';
import { sharedNow } from '../../timers.js';
import { BATCH_PAGE } from '../../contract/jobs.js';

/** sitemap indexes are followed this many levels deep, at most this many files */
const SITEMAP_NESTING = 3;
const SITEMAP_FILES = 50;

const answered = (status: number | null) => status !== null && status >= 200 && status < 300;

export async function discover(d: BatchDeps, batchId: number, signal?: AbortSignal): Promise<void> {
  const { db } = d.ctx;
  const b = await findBatch(db, batchId, null);
  if (!b || b.status !== 'queued') return;
  // the project's headers, cookies and basic auth go with every request to the start URL's origin
  const request = await siteHeadersOf(d, b);
  if (request.error !== undefined) return failQueued(d, batchId, request.error);
  const siteHeaders = request.siteHeaders ? { siteHeaders: request.siteHeaders } : {};
  const options = optionsOf(b);
  const start = new URL(b.url);
  const origin = start.origin;
  // robots.txt once for the batch (a 404 or a failure: everything allowed), then the site files
  // every page's audit reads (the 404 probe and the favicon only where robots.txt allows): in
  // turn, or with no delay between the batch's requests, its requests at once
  let robots: Robots = parseRobots(`${origin}/robots.txt`, null);
  let robotsTxt: string | null = null;
  let sitemapRoots: string[] = [];
  const siteFiles = await fetchSiteFiles(start, {
    fetchFile: (url, { cap, headersOnly }) =>
      d.fetchFile(url, {
        ...d.fetchOptions(),
        ...siteHeaders,
        cap,
        headersOnly,
        ...(signal ? { signal } : {}),
      }),
    afterRobots: (r) => {
      robotsTxt = answered(r.status) ? r.body : null;
      robots = parseRobots(`${origin}/robots.txt`, robotsTxt);
      sitemapRoots =
        b.mode === 'sitemap' && start.pathname !== '/'
          ? [b.url]
          : robots.sitemaps.length > 0
            ? robots.sitemaps
            : [`${origin}/sitemap.xml`];
      return {
        sitemap: sitemapRoots.find((s) => onSite(s, start.hostname)) ?? `${origin}/sitemap.xml`,
        allowed: (url) => robots.allowed(url),
        // no delay between the batch's requests: the other files its requests at once
        atOnce: Math.max(d.minDelay, robots.delayMs ?? 0) === 0 ? d.perSite : 1,
      };
    },
  });

  // the seeds
  const seeds: { url: string; inSitemap: boolean }[] = [];
  if (b.mode === 'list') for (const u of options.urls ?? []) seeds.push({ url: u, inSitemap: false });
  if (b.mode === 'crawl') seeds.push({ url: b.url, inSitemap: false });
  const sitemapFiles: SitemapFile[] = [];
  const fromSitemap =
    b.mode === 'list'
      ? []
      : await sitemapUrls(
          d,
          sitemapRoots,
          start.hostname,
          Math.max(options.maxPages * 4, 1000),
          request.siteHeaders,
          sitemapFiles,
          siteFiles.sitemap,
          signal,
        );
  for (const u of fromSitemap) seeds.push({ url: u, inSitemap: true });

  const now = d.iso();
  await withTransaction(db, async (trx) => {
    const current = await findBatch(trx, batchId, null, true);
    if (!current || current.status !== 'queued') return;
    const rows: { url: string; depth: number; inSitemap: boolean; state?: 'skipped'; error?: string }[] = [];
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
        sitemapFiles: b.mode === 'list' ? null : JSON.stringify(sitemapFiles),
        delayMs: Math.max(d.minDelay, robots.delayMs ?? 0),
        deadlineAt: sharedNow() + d.budgetMs,
        startedAt: now,
      },
      now,
    );
    // crawl mode: sitemap URLs beyond the seeds are still known as "in the sitemap"
    if (b.mode === 'crawl') await markInSitemap(trx, batchId, fromSitemap);
    // a crawl whose start page may not be requested has nothing to crawl: it fails at once
    // (a batch that ends with no page audited fails too: frontier.ts, finish)
    const startWhy = b.mode === 'crawl' ? admissible(current, robots, b.url) : null;
    if (startWhy !== null)
      await finish(
        d,
        trx,
        batchId,
        'failed',
        startWhy === 'disallowed by robots.txt'
          ? ROBOTS_DISALLOW_ALL
          : `The start page may not be requested: ${startWhy}.`,
      );
    else await pump(d, trx, batchId);
  });
  // the first pages' jobs are committed: this process's workers look now
  d.ctx.queue.committed(BATCH_PAGE.kind);
}

/**
 * The sitemap URLs reachable from `roots` (indexes followed, gzip parts unpacked), on the site;
 * each file read (answered 2xx) is noted in `files` with its entries and uncompressed size.
 */
async function sitemapUrls(
  d: BatchDeps,
  roots: string[],
  host: string,
  limit: number,
  siteHeaders: SiteHeaders | undefined,
  files: SitemapFile[],
  /** the sitemap the site files read (not asked for again) */
  known: ExtraResource | null,
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
      const r = known?.url === file ? known : await fetchText(d, file, signal, siteHeaders);
      if (!answered(r.status)) continue;
      const parsed = parseSitemap(r.body);
      files.push({
        url: file,
        urls: parsed.urls.length + parsed.sitemaps.length,
        bytes: Buffer.byteLength(r.body),
        ...(r.truncated ? { truncated: true } : {}),
      });
      for (const u of parsed.urls) {
        const n = crawlUrl(u, r.finalUrl, d.tracking);
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

/**
 * The batch's discovery job failed on its last attempt (not the site's fault — the site's
 * failures end the batch themselves: the database, a bug): a batch still queued ends failed
 * with the reason, so it is never left queued for ever.
 */
export async function discoverGaveUp(d: BatchDeps, batchId: number, reason: string): Promise<void> {
  await failQueued(d, batchId, `The batch could not start: ${reason}`);
}

/** A batch still queued ends failed with `error` (batch.failed). */
async function failQueued(d: BatchDeps, batchId: number, error: string): Promise<void> {
  await withTransaction(d.ctx.db, async (trx) => {
    const b = await findBatch(trx, batchId, null, true);
    if (!b || b.status !== 'queued') return;
    await finish(d, trx, batchId, 'failed', error);
  });
}
