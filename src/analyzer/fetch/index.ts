// The fetcher: the only code in Pagegrade that does network I/O. fetchPage() GETs a page
// (redirects followed by hand, each hop through the address guard), enforces the time and
// size limits while streaming, detects the charset, and meanwhile fetches robots.txt, the
// sitemap, a 404 probe and the favicon — all within the one time budget — into a PageSnapshot.
// Decisions are written down in docs/fetcher.md.
import { PACKAGE } from '../../package-info.js';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { Client, Pool } from './undici.js';
import {
  FetchError,
  type ExtraResource,
  type FetchOptions,
  type PageSnapshot,
  type PageTimings,
} from '../types.js';
import { normalizeUrl, sameSite } from '../url.js';
import { ACCEPT_ENCODING, LimitExceeded, readBody } from './body.js';
import { decodeBody, isHtmlMediaType, looksLikeHtml, parseContentType, canonicalCharset } from './charset.js';
import {
  defaultLookup,
  guardedConnector,
  resolveHost,
  type ConnectionInfo,
  type GuardPolicy,
  type Resolved,
} from './connect.js';
import { timeoutError, toFetchError } from './errors.js';
import { classifyAddress, normalizeHost } from './guard.js';

export { classifyAddress, normalizeHost } from './guard.js';
export { checkTarget, postGuarded, type GuardOptions } from './send.js';

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
export const EXTRA_MAX_REDIRECTS = 5;
export const EXTRA_CAPS = {
  robots: 512 * 1024,
  sitemap: 5 * 1024 * 1024,
  notFoundProbe: 256 * 1024,
} as const;
/** Extras must end by start + EXTRAS_FACTOR × (the page's own time) + EXTRAS_GRACE_MS, and within the budget. */
export const EXTRAS_FACTOR = 1.2;
export const EXTRAS_GRACE_MS = 1000;

export const DEFAULT_USER_AGENT = `Pagegrade/${PACKAGE.version} (+https://github.com/pagegrade/pagegrade)`;

/**
 * 16 hex digits for the not-found probe's path (/pagegrade-404-check-…): a path no site has,
 * not a secret, so Math.random serves (node:crypto would cost every audit its load).
 */
export function probeToken(): string {
  let token = '';
  while (token.length < 16)
    token += Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  return token;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

const formatBytes = (n: number) =>
  n >= 1024 * 1024
    ? `${Number.isInteger(n / 1048576) ? n / 1048576 : (n / 1048576).toFixed(1)} MB`
    : n >= 1024
      ? `${Math.round(n / 1024)} KB`
      : `${n} bytes`;

/** Lower-cased names; repeated headers joined with ", " (set-cookie with "\n"). */
function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    out[name] = Array.isArray(v) ? v.join(name === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

interface DispatcherEntry {
  dispatcher: Dispatcher & { destroy(): Promise<void> };
  info: ConnectionInfo;
}

/** One fetchPage call's connections and DNS answers; everything is closed at the end. */
class Session {
  private readonly dispatchers = new Map<string, DispatcherEntry>();
  private readonly dns = new Map<string, Promise<Resolved>>();

  constructor(
    readonly policy: GuardPolicy,
    readonly budgetMs: number,
    /** DNS lookups and the page's connections end with the page's signal; site files' connections with theirs */
    private readonly signals: Record<'page' | 'extra', AbortSignal>,
    private readonly tlsCa?: string | Buffer,
  ) {}

  async open(url: URL, kind: 'page' | 'extra'): Promise<{ entry: DispatcherEntry; dnsMs: number | null }> {
    const host = normalizeHost(url.hostname);
    if (!host) throw new FetchError('invalid_url', `The URL ${url.href} has an invalid host.`);
    let pending = this.dns.get(host.host);
    if (!pending) {
      pending = resolveHost(host, this.policy, this.signals.page);
      this.dns.set(host.host, pending);
    }
    const resolved = await pending;
    // one lookup per host per fetch, shared by the page and the site files: its time is the host's DNS time
    const dnsMs = resolved.dnsMs;
    const key = `${kind} ${url.origin}`;
    let entry = this.dispatchers.get(key);
    if (!entry) {
      const info: ConnectionInfo = { fresh: false, connectMs: null, tlsMs: null, alpn: null };
      const common = {
        connect: guardedConnector(resolved, this.policy, info, this.signals[kind], this.tlsCa),
        allowH2: true,
        headersTimeout: this.budgetMs,
        bodyTimeout: this.budgetMs,
        keepAliveTimeout: 4000,
      };
      const dispatcher =
        kind === 'page'
          ? new Client(url.origin, common)
          : new Pool(url.origin, { ...common, connections: 4 });
      entry = { dispatcher, info };
      this.dispatchers.set(key, entry);
    }
    return { entry, dnsMs };
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.dispatchers.values()].map((e) => e.dispatcher.destroy()));
    this.dispatchers.clear();
  }
}

interface ResourceOptions {
  kind: 'page' | 'extra';
  maxRedirects: number;
  maxBytes: number;
  /** keep the first maxBytes instead of failing */
  truncate: boolean;
  signal: AbortSignal;
  headers: Record<string, string>;
  /** stop after the headers (favicon) */
  headersOnly?: boolean;
  /** asked before a redirect is followed: a reason refuses it (FetchOptions.redirectCheck) */
  redirectCheck?: ((url: string) => string | null) | undefined;
  /** called on the final (non-redirect) response's headers; may throw to stop */
  onFinalHeaders?: (finalUrl: URL, status: number, headers: Record<string, string>) => void;
}

interface ResourceResult {
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  redirects: { url: string; status: number }[];
  body: Buffer;
  transferBytes: number;
  truncated: boolean;
  httpVersion: string;
  hop: { dnsMs: number | null; connectMs: number | null; tlsMs: number | null; ttfbMs: number };
}

async function fetchResource(
  session: Session,
  startUrl: string,
  o: ResourceOptions,
): Promise<ResourceResult> {
  const redirects: { url: string; status: number }[] = [];
  let url = new URL(startUrl);
  for (;;) {
    const hopStart = performance.now();
    const { entry, dnsMs } = await session.open(url, o.kind);
    entry.info.fresh = false;
    const res = await entry.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: o.headers,
      signal: o.signal,
    });
    const ttfbMs = performance.now() - hopStart;
    const headers = flattenHeaders(res.headers);
    const location = headers['location'];
    if (REDIRECT_STATUSES.has(res.statusCode) && location) {
      await res.body.dump({ signal: o.signal, limit: 65536 }).catch(() => undefined);
      redirects.push({ url: url.href, status: res.statusCode });
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new FetchError(
          'invalid_url',
          `The page at ${url.href} redirects to an invalid URL (${location}).`,
        );
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new FetchError(
          'invalid_url',
          `The page at ${url.href} redirects to ${next.href}, which is not an http or https URL.`,
        );
      }
      if (redirects.length > o.maxRedirects) {
        throw new FetchError(
          'too_many_redirects',
          `The page at ${startUrl} redirects more than ${o.maxRedirects} times (the last hop was ${url.href}).`,
        );
      }
      next.hash = '';
      // credentials in a Location are never sent; dropped so that no report shows them
      next.username = '';
      next.password = '';
      const refused = o.redirectCheck?.(next.href) ?? null;
      if (refused !== null) {
        throw new FetchError(
          'redirect_refused',
          `The page at ${url.href} redirects to ${next.href}, which is not followed: ${refused}.`,
        );
      }
      url = next;
      continue;
    }
    o.onFinalHeaders?.(url, res.statusCode, headers);
    const fresh = entry.info.fresh;
    const hop = {
      dnsMs,
      connectMs: fresh ? entry.info.connectMs : 0,
      tlsMs: url.protocol === 'https:' ? (fresh ? entry.info.tlsMs : 0) : null,
      ttfbMs,
    };
    const httpVersion = entry.info.alpn === 'h2' ? '2' : '1.1';
    if (o.headersOnly) {
      // drop the body: destroying it ends the connection, and its abort error is expected
      res.body.on('error', () => undefined);
      res.body.destroy();
      return {
        finalUrl: url.href,
        status: res.statusCode,
        headers,
        redirects,
        body: Buffer.alloc(0),
        transferBytes: 0,
        truncated: false,
        httpVersion,
        hop,
      };
    }
    const read = await readBody(res.body, headers['content-encoding'], o.maxBytes, o.truncate, o.signal);
    return { finalUrl: url.href, status: res.statusCode, headers, redirects, ...read, httpVersion, hop };
  }
}

/** The first `Sitemap:` URL of a robots.txt on the same site (same host, `www.` aside), if any. */
export function sitemapFromRobots(robotsText: string, robotsUrl: string, pageUrl: string): string | null {
  const pageHost = new URL(pageUrl).hostname;
  for (const line of robotsText.split(/\r\n|\r|\n/)) {
    const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!m) continue;
    try {
      const u = new URL(m[1]!, robotsUrl);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && sameSite(u.hostname, pageHost))
        return u.href;
    } catch {
      // not a URL: skip it
    }
  }
  return null;
}

async function fetchExtra(
  session: Session,
  url: string,
  cap: number,
  signal: AbortSignal,
  userAgent: string,
  headersOnly = false,
): Promise<ExtraResource> {
  const t0 = performance.now();
  try {
    const r = await fetchResource(session, url, {
      kind: 'extra',
      maxRedirects: EXTRA_MAX_REDIRECTS,
      maxBytes: cap,
      truncate: true,
      signal,
      headers: { 'user-agent': userAgent, accept: '*/*', 'accept-encoding': ACCEPT_ENCODING },
      headersOnly,
    });
    let body = r.body;
    // a gzipped file served without Content-Encoding (sitemap.xml.gz)
    if (body.length > 2 && body[0] === 0x1f && body[1] === 0x8b) {
      try {
        body = gunzipSync(body, { maxOutputLength: cap });
      } catch {
        // keep the bytes as they came
      }
    }
    const charset =
      canonicalCharset(parseContentType(r.headers['content-type']).charset ?? 'utf-8') ?? 'utf-8';
    let text: string;
    try {
      text = new TextDecoder(charset).decode(body);
    } catch {
      text = new TextDecoder().decode(body);
    }
    const extra: ExtraResource = {
      url,
      finalUrl: r.finalUrl,
      status: r.status,
      headers: r.headers,
      body: text,
      durationMs: Math.round(performance.now() - t0),
    };
    if (r.truncated) extra.truncated = true;
    return extra;
  } catch (err) {
    const message = signal.aborted
      ? `The request for ${url} did not finish within the audit's time allowance for site files.`
      : toFetchError(err, url, 0).message;
    return {
      url,
      finalUrl: url,
      status: null,
      headers: {},
      body: '',
      error: message,
      durationMs: Math.round(performance.now() - t0),
    };
  }
}

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
  const session = new Session(policy, timeoutMs, { page: pageSignal, extra: extrasSignal }, options.tlsCa);
  let extrasTimer: NodeJS.Timeout | undefined;

  // robots.txt (then the sitemap) and the 404 probe start with the page, for the requested
  // URL's origin; if redirects end on another origin, that batch is dropped and a new one
  // starts for the final origin (the site files always belong to the final URL).
  let siteExtras: Promise<[ExtraResource, ExtraResource, ExtraResource, ExtraResource]> | null = null;
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
    const get = (path: string, cap: number) =>
      fetchExtra(session, `${origin}${path}`, cap, signal, userAgent);
    // /sitemap.xml is asked for at once, in parallel with robots.txt; it is kept when
    // robots.txt names no same-site sitemap or names that one
    const defaultSitemap = get('/sitemap.xml', EXTRA_CAPS.sitemap);
    const robotsAndSitemap = get('/robots.txt', EXTRA_CAPS.robots).then(async (robots) => {
      const fromRobots =
        robots.status !== null && robots.status >= 200 && robots.status < 300
          ? sitemapFromRobots(robots.body, robots.finalUrl, pageUrl.href)
          : null;
      if (fromRobots === null || fromRobots === `${origin}/sitemap.xml`)
        return [robots, await defaultSitemap] as const;
      const sitemap = await fetchExtra(session, fromRobots, EXTRA_CAPS.sitemap, signal, userAgent);
      return [robots, sitemap] as const;
    });
    const probe = get(`/pagegrade-404-check-${probeToken()}`, EXTRA_CAPS.notFoundProbe);
    // /favicon.ico is asked for at once too (headers only, as every browser does); the artifacts
    // consult its answer only when the page declares no icon (HtmlFacts.declaresIcon). Asking after the body instead would
    // add a whole round trip to every audit of such a page.
    const favicon = fetchExtra(session, `${origin}/favicon.ico`, 0, signal, userAgent, true);
    const batch = Promise.all([robotsAndSitemap, probe, favicon, defaultSitemap]).then(
      ([[robots, sitemap], p, fav]) =>
        [robots, sitemap, p, fav] as [ExtraResource, ExtraResource, ExtraResource, ExtraResource],
    );
    siteExtras = previous ? Promise.allSettled([previous]).then(() => batch) : batch;
  };
  if (options.siteFiles) {
    // the caller fetched the site files once (a batch): only the page is requested here
    const f = options.siteFiles;
    siteExtras = Promise.resolve([f.robots, f.sitemap, f.notFoundProbe, f.favicon] as [
      ExtraResource,
      ExtraResource,
      ExtraResource,
      ExtraResource,
    ]);
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
      robots: extras?.[0] ?? null,
      sitemap: extras?.[1] ?? null,
      notFoundProbe: extras?.[2] ?? null,
      favicon: extras?.[3] ?? null,
    };
  } finally {
    clearTimeout(budgetTimer);
    extrasLimit.abort();
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
  options: FetchOptions & FetchTestSeams & { cap?: number; headersOnly?: boolean } = {},
): Promise<ExtraResource> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy: GuardPolicy = {
    allowPrivateHosts: options.allowPrivateHosts ?? false,
    classify: options.classifyAddress ?? classifyAddress,
    lookup: options.lookup ?? defaultLookup,
  };
  const budget = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([budget, options.signal]) : budget;
  const session = new Session(policy, timeoutMs, { page: signal, extra: signal }, options.tlsCa);
  try {
    return await fetchExtra(
      session,
      url,
      options.cap ?? EXTRA_CAPS.sitemap,
      signal,
      options.userAgent ?? DEFAULT_USER_AGENT,
      options.headersOnly ?? false,
    );
  } finally {
    await session.close();
  }
}

function round(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 10) / 10;
}
