// The site files: robots.txt, the sitemap, a 404 probe, /favicon.ico and /llms.txt.
// fetchSiteFiles asks for all five of a site, for an audit (fetchPage, all at once within its time budget) and for
// a batch's discovery (one after another, as robots.txt allows); how each file is fetched is the
// caller's (SiteFilesOptions.fetchFile), so each keeps its own guard, signal and time budget.
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import type { ExtraResource, SiteFiles } from '../types.js';
import { sameSite } from '../url.js';
import { ACCEPT_ENCODING } from './body.js';
import { canonicalCharset, parseContentType } from './charset.js';
import { toFetchError } from './errors.js';
import { fetchResource, type Session } from './session.js';
import type { SiteHeaders } from './site-headers.js';

export const EXTRA_MAX_REDIRECTS = 5;
export const EXTRA_CAPS = {
  robots: 512 * 1024,
  sitemap: 5 * 1024 * 1024,
  notFoundProbe: 256 * 1024,
  /** /llms.txt: enough for its structure (the H1, the summary, the link lists); the rest is cut */
  llms: 256 * 1024,
} as const;

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

/** One site file through a fetch's session, within its cap: never throws (a failure is recorded in `error`, status null). */
export async function fetchExtra(
  session: Session,
  url: string,
  cap: number,
  signal: AbortSignal,
  userAgent: string,
  headersOnly = false,
  siteHeaders?: SiteHeaders,
  /** a batch's link checks: HEAD, and its robots.txt asked before a redirect is followed */
  check: {
    method?: 'GET' | 'HEAD';
    redirectCheck?: (url: string) => string | null;
    /** over the session's kept connections (its pool), as a page's fetch is */
    pooled?: boolean;
  } = {},
): Promise<ExtraResource> {
  const t0 = performance.now();
  try {
    const r = await fetchResource(session, url, {
      kind: check.pooled ? 'page' : 'extra',
      maxRedirects: EXTRA_MAX_REDIRECTS,
      maxBytes: cap,
      truncate: true,
      signal,
      headers: { 'user-agent': userAgent, accept: '*/*', 'accept-encoding': ACCEPT_ENCODING },
      siteHeaders,
      headersOnly,
      method: check.method ?? 'GET',
      redirectCheck: check.redirectCheck,
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
 * Fetches one site file: never throws — a failure is an ExtraResource with `error` and status
 * null. `cap` is the file's size limit in bytes (the rest is cut, `truncated`); `headersOnly`
 * stops after the headers (the favicon).
 */
export type SiteFileFetcher = (
  url: string,
  limits: { cap: number; headersOnly: boolean },
) => Promise<ExtraResource>;

export interface SiteFilesOptions {
  /** how each file is fetched (the audit: its own session and signal; a batch: fetchSiteFile with its guard and budget) */
  fetchFile: SiteFileFetcher;
  /**
   * A crawl's politeness (a batch's discovery, docs/sites.md): called once robots.txt is in, it
   * names the sitemap to fetch and which URLs robots.txt allows — the 404 probe is then recorded
   * as not requested, and the favicon left null, where it does not. With it the files after
   * robots.txt are fetched `atOnce` at a time (default 1: one after another; a batch with no
   * delay between its requests: its requests at once). Without it (an audit) all five are asked
   * for at once, the sitemap being the first same-site `Sitemap:` line of robots.txt, else
   * /sitemap.xml (asked for at once).
   */
  afterRobots?: (robots: ExtraResource) => {
    sitemap?: string;
    allowed?: (url: string) => boolean;
    atOnce?: number;
  };
}

const answered = (r: ExtraResource) => r.status !== null && r.status >= 200 && r.status < 300;

/** Runs `tasks`, at most `atOnce` at a time, in order; their results in the same order. */
async function inTurns<T>(tasks: readonly (() => Promise<T>)[], atOnce: number): Promise<T[]> {
  const out: T[] = new Array<T>(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(atOnce, tasks.length)) }, lane));
  return out;
}

/** robots.txt, the sitemap, the 404 probe, the favicon and /llms.txt of `pageUrl`'s origin. */
export async function fetchSiteFiles(pageUrl: URL, o: SiteFilesOptions): Promise<SiteFiles> {
  const origin = pageUrl.origin;
  const defaultSitemap = `${origin}/sitemap.xml`;
  const probeUrl = () => `${origin}/pagegrade-404-check-${probeToken()}`;
  const faviconUrl = `${origin}/favicon.ico`;
  const llmsUrl = `${origin}/llms.txt`;
  const get = (url: string, cap: number, headersOnly = false) => o.fetchFile(url, { cap, headersOnly });

  if (o.afterRobots) {
    const robots = await get(`${origin}/robots.txt`, EXTRA_CAPS.robots);
    const { sitemap: sitemapUrl = defaultSitemap, allowed = () => true, atOnce = 1 } = o.afterRobots(robots);
    const probe = probeUrl();
    const notRequested = (): ExtraResource => ({
      url: probe,
      finalUrl: probe,
      status: null,
      headers: {},
      body: '',
      error: 'Not requested: robots.txt disallows it.',
      durationMs: 0,
    });
    const [sitemap, notFoundProbe, favicon, llms] = await inTurns(
      [
        () => get(sitemapUrl, EXTRA_CAPS.sitemap),
        () => (allowed(probe) ? get(probe, EXTRA_CAPS.notFoundProbe) : Promise.resolve(notRequested())),
        () => (allowed(faviconUrl) ? get(faviconUrl, 0, true) : Promise.resolve(null)),
        () => (allowed(llmsUrl) ? get(llmsUrl, EXTRA_CAPS.llms) : Promise.resolve(null)),
      ] as const,
      atOnce,
    );
    return {
      robots,
      sitemap: sitemap!,
      notFoundProbe: notFoundProbe!,
      favicon: favicon ?? null,
      llms: llms ?? null,
    };
  }

  // /sitemap.xml is asked for at once, in parallel with robots.txt; it is kept when robots.txt
  // names no same-site sitemap or names that one
  const sitemapXml = get(defaultSitemap, EXTRA_CAPS.sitemap);
  const robotsAndSitemap = get(`${origin}/robots.txt`, EXTRA_CAPS.robots).then(async (robots) => {
    const fromRobots = answered(robots)
      ? sitemapFromRobots(robots.body, robots.finalUrl, pageUrl.href)
      : null;
    if (fromRobots === null || fromRobots === defaultSitemap) return [robots, await sitemapXml] as const;
    return [robots, await get(fromRobots, EXTRA_CAPS.sitemap)] as const;
  });
  const probe = get(probeUrl(), EXTRA_CAPS.notFoundProbe);
  // /favicon.ico is asked for at once too (headers only, as every browser does); the artifacts
  // consult its answer only when the page declares no icon (HtmlFacts.declaresIcon). Asking after
  // the body instead would add a whole round trip to every audit of such a page.
  const favicon = get(faviconUrl, 0, true);
  // /llms.txt (the AI readiness checks) at once too: a small text file, like robots.txt. (For a
  // while it waited for robots.txt and the sitemap, to work around an audit that never ended over
  // a certificate for another name: the cause was undici's, and connect.ts now avoids it —
  // docs/fetcher.md "A certificate that fails".)
  const llmsTxt = get(llmsUrl, EXTRA_CAPS.llms);
  const [[robots, sitemap], notFoundProbe, fav, llms] = await Promise.all([
    robotsAndSitemap,
    probe,
    favicon,
    llmsTxt,
    sitemapXml,
  ]);
  return { robots, sitemap, notFoundProbe, favicon: fav, llms };
}
