// The fetcher: the only code in Pagegrade that does network I/O. fetchPage() GETs a page
// (redirects followed by hand, each hop through the address guard), enforces the time and
// size limits while streaming, detects the charset, and meanwhile fetches robots.txt, the
// sitemap, a 404 probe and the favicon (site-files.ts) — all within the one time budget — into
// a PageSnapshot. Connections are session.ts's. Decisions are written down in docs/fetcher.md.
import { PACKAGE } from '../../package-info.js';
import { performance } from 'node:perf_hooks';
import {
  FetchError,
  type ExtraResource,
  type FetchOptions,
  type PageSnapshot,
  type PageTimings,
  type SiteFiles,
} from '../types.js';
import { normalizeUrl } from '../url.js';
import { ACCEPT_ENCODING, LimitExceeded } from './body.js';
import { decodeBody, isHtmlMediaType, looksLikeHtml, parseContentType } from './charset.js';
import { defaultLookup, type GuardPolicy } from './connect.js';
import { timeoutError, toFetchError } from './errors.js';
import { classifyAddress } from './guard.js';
import { ConnectionPool } from './pool.js';
import { fetchResource, Session, type ResourceResult } from './session.js';
import { EXTRA_CAPS, fetchExtra, fetchSiteFiles } from './site-files.js';

export { classifyAddress, normalizeHost } from './guard.js';
export { checkTarget, postGuarded, type GuardOptions } from './send.js';
export { ConnectionPool } from './pool.js';
export { sitemapFromRobots } from './site-files.js';
export type { SiteHeaders } from './site-headers.js';

/**
 * Test seam, not reachable from configuration or the API: replaces the guard's
 * classification (e.g. to treat 127.0.0.1 as public for one test hostname while the guard
 * stays on). Documented in docs/fetcher.md.
 */
export interface FetchTestSeams {
  classifyAddress?: (ip: string) => string | null;
  /** extra CA certificate(s) to trust for https (tests with a self-signed server) */
  tlsCa?: string | Buffer;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 10;
/** Extras must end by start + EXTRAS_FACTOR × (the page's own time) + EXTRAS_GRACE_MS, and within the budget. */
export const EXTRAS_FACTOR = 1.2;
export const EXTRAS_GRACE_MS = 1000;

export const DEFAULT_USER_AGENT = `Pagegrade/${PACKAGE.version} (+https://github.com/pagegrade/pagegrade)`;

const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** Why the site files still in flight stop when the fetch ends: one reason for all (abort() without one makes a DOMException, with its stack, every page). */
const FETCH_ENDED = new DOMException('the fetch has ended', 'AbortError');

const formatBytes = (n: number) =>
  n >= 1024 * 1024
    ? `${Number.isInteger(n / 1048576) ? n / 1048576 : (n / 1048576).toFixed(1)} MB`
    : n >= 1024
      ? `${Math.round(n / 1024)} KB`
      : `${n} bytes`;

/**
 * Fetches a page and its site files. Throws FetchError when the page cannot be fetched;
 * a site file that fails is recorded in its ExtraResource, never thrown.
 */
export async function fetchPage(
  url: string,
  options: FetchOptions & FetchTestSeams = {},
): Promise<PageSnapshot> {
  const start = performance.now();
  const normalized = normalizeUrl(url);
  if (normalized === null)
    throw new FetchError('invalid_url', 'The URL must be an absolute http or https URL.');
  // credentials in a URL would be stored and shown with the report (and are never sent)
  const parsed = new URL(normalized);
  if (parsed.username !== '' || parsed.password !== '')
    throw new FetchError('invalid_url', 'The URL must not contain a user name or password.');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const policy: GuardPolicy = {
    allowPrivateHosts: options.allowPrivateHosts ?? false,
    classify: options.classifyAddress ?? classifyAddress,
    lookup: options.lookup ?? defaultLookup,
  };

  // the whole audit's budget
  const budget = new AbortController();
  const budgetTimer = setTimeout(
    () => budget.abort(new DOMException('time budget exceeded', 'TimeoutError')),
    timeoutMs,
  );
  const pageSignal = options.signal ? AbortSignal.any([budget.signal, options.signal]) : budget.signal;
  // the extras' own, shorter limit (set once the page is in)
  const extrasLimit = new AbortController();
  const extrasSignal = AbortSignal.any([pageSignal, extrasLimit.signal]);
  const pool = options.connections instanceof ConnectionPool ? options.connections : undefined;
  const session = new Session(policy, timeoutMs, { page: pageSignal, extra: extrasSignal }, options.tlsCa, pool);
  let extrasTimer: NodeJS.Timeout | undefined;

  // the site files start with the page, for the requested URL's origin; if redirects end on
  // another origin, that batch is dropped and a new one starts for the final origin (the site
  // files always belong to the final URL)
  let siteExtras: Promise<SiteFiles> | null = null;
  let extrasOrigin = '';
  let dropBatch: AbortController | null = null;
  const startExtras = (pageUrl: URL) => {
    const origin = pageUrl.origin;
    if (origin === extrasOrigin) return;
    const previous = siteExtras;
    dropBatch?.abort();
    dropBatch = new AbortController();
    const signal = AbortSignal.any([extrasSignal, dropBatch.signal]);
    extrasOrigin = origin;
    const batch = fetchSiteFiles(pageUrl, {
      fetchFile: (url, { cap, headersOnly }) =>
        fetchExtra(session, url, cap, signal, userAgent, headersOnly, options.siteHeaders),
    });
    siteExtras = previous ? Promise.allSettled([previous]).then(() => batch) : batch;
  };
  if (options.siteFiles) {
    // the caller fetched the site files once (a batch): only the page is requested here
    siteExtras = Promise.resolve(options.siteFiles);
    extrasOrigin = '*';
  } else startExtras(new URL(normalized));

  try {
    let page: ResourceResult;
    let mediaType = '';
    let headerCharset: string | null = null;
    try {
      page = await fetchResource(session, normalized, {
        kind: 'page',
        maxRedirects: MAX_REDIRECTS,
        redirectCheck: options.redirectCheck,
        siteHeaders: options.siteHeaders,
        maxBytes,
        truncate: false,
        signal: pageSignal,
        headers: { 'user-agent': userAgent, accept: PAGE_ACCEPT, 'accept-encoding': ACCEPT_ENCODING },
        onFinalHeaders: (finalUrl, _status, headers) => {
          ({ mediaType, charset: headerCharset } = parseContentType(headers['content-type']));
          if (mediaType !== '' && !isHtmlMediaType(mediaType)) {
            throw new FetchError(
              'not_html',
              `The URL ${finalUrl.href} returned ${mediaType}, not an HTML page; Pagegrade audits HTML pages only.`,
            );
          }
          if (!options.siteFiles) startExtras(finalUrl);
        },
      });
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (err instanceof LimitExceeded) {
        throw new FetchError(
          'too_large',
          `The page at ${normalized} is larger than ${formatBytes(maxBytes)} (the size limit).`,
        );
      }
      if (budget.signal.aborted) throw timeoutError(normalized, timeoutMs, err);
      throw toFetchError(err, normalized, timeoutMs);
    }
    if (mediaType === '' && !looksLikeHtml(page.body)) {
      throw new FetchError(
        'not_html',
        `The URL ${page.finalUrl} has no Content-Type and does not look like an HTML page; Pagegrade audits HTML pages only.`,
      );
    }
    const totalMs = performance.now() - start;
    const { text, charset } = decodeBody(page.body, headerCharset);

    // the extras: whatever remains of the budget, but at most EXTRAS_FACTOR × the page's time + grace
    const extrasEnd = EXTRAS_FACTOR * totalMs + EXTRAS_GRACE_MS;
    extrasTimer = setTimeout(
      () => extrasLimit.abort(new DOMException('site files took too long', 'TimeoutError')),
      Math.max(0, extrasEnd - (performance.now() - start)),
    );
    const extras = await siteExtras;
    if (options.signal?.aborted) throw options.signal.reason;

    const timings: PageTimings = {
      dns_ms: round(page.hop.dnsMs),
      connect_ms: round(page.hop.connectMs),
      tls_ms: round(page.hop.tlsMs),
      ttfb_ms: round(page.hop.ttfbMs),
      total_ms: Math.round(totalMs),
    };
    return {
      url: normalized,
      finalUrl: page.finalUrl,
      status: page.status,
      httpVersion: page.httpVersion,
      headers: page.headers,
      redirects: page.redirects,
      timings,
      transferBytes: page.transferBytes,
      body: page.body,
      text,
      charset,
      contentType: mediaType,
      robots: extras?.robots ?? null,
      sitemap: extras?.sitemap ?? null,
      notFoundProbe: extras?.notFoundProbe ?? null,
      favicon: extras?.favicon ?? null,
      llms: extras?.llms ?? null,
    };
  } finally {
    clearTimeout(budgetTimer);
    extrasLimit.abort(FETCH_ENDED);
    if (extrasTimer) clearTimeout(extrasTimer);
    // let in-flight extras settle (they are aborted above) before the sockets are closed
    if (siteExtras) await Promise.allSettled([siteExtras]);
    await session.close();
  }
}

/**
 * One site file (robots.txt, a sitemap, a probe) through the address guard, within the limits:
 * never throws — a failure is recorded in the answer's `error` (status null). Used by the batch
 * crawler (docs/sites.md), which fetches a site's files once for all its pages.
 */
export async function fetchSiteFile(
  url: string,
  options: FetchOptions &
    FetchTestSeams & { cap?: number; headersOnly?: boolean; method?: 'GET' | 'HEAD' } = {},
): Promise<ExtraResource> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy: GuardPolicy = {
    allowPrivateHosts: options.allowPrivateHosts ?? false,
    classify: options.classifyAddress ?? classifyAddress,
    lookup: options.lookup ?? defaultLookup,
  };
  const budget = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([budget, options.signal]) : budget;
  // a batch's link checks keep their connections between requests (options.connections)
  const pool = options.connections instanceof ConnectionPool ? options.connections : undefined;
  const session = new Session(policy, timeoutMs, { page: signal, extra: signal }, options.tlsCa, pool);
  try {
    return await fetchExtra(
      session,
      url,
      options.cap ?? EXTRA_CAPS.sitemap,
      signal,
      options.userAgent ?? DEFAULT_USER_AGENT,
      options.headersOnly ?? false,
      options.siteHeaders,
      { method: options.method ?? 'GET', redirectCheck: options.redirectCheck, pooled: pool !== undefined },
    );
  } finally {
    await session.close();
  }
}

function round(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 10) / 10;
}
