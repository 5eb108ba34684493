// buildArtifacts(snapshot): the HTML facts from one streaming pass, plus the fetch facts
// (headers, timings, robots.txt rules, sitemap, probes) in the shape checks read.
import { XMLValidator } from 'fast-xml-parser';
import type { ExtraResource, PageSnapshot } from '../types.js';
import { collectHtml } from './html.js';
import { indexingFacts } from './indexing.js';
import { parseLinkHeader } from './link-header.js';
import { robotsRules, USER_AGENT_TOKEN } from '../robots.js';
import type { Artifacts, ExtraInfo, RobotsInfo, SitemapInfo } from './types.js';

export type * from './types.js';
export { countWords } from './html.js';

const MAX_SITEMAP_URLS = 50_000;

function mediaType(headers: Record<string, string>): string {
  const ct = headers['content-type'] ?? '';
  const i = ct.indexOf(';');
  return (i === -1 ? ct : ct.slice(0, i)).trim().toLowerCase();
}

function charsetParam(v: string | undefined | null): string | null {
  if (!v) return null;
  const m = /charset\s*=\s*["']?([^"';\s]+)/i.exec(v);
  return m ? m[1]!.toLowerCase() : null;
}

function extra(r: ExtraResource): ExtraInfo {
  return {
    url: r.url,
    finalUrl: r.finalUrl,
    status: r.status,
    headers: r.headers,
    contentType: mediaType(r.headers),
    body: r.body,
    error: r.error ?? null,
  };
}

const HTML_START = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body)[\s>]/i;

function robotsInfo(r: ExtraResource): RobotsInfo {
  const e = extra(r);
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  const looksLikeHtml = HTML_START.test(r.body.slice(0, 2048));
  let parsed: RobotsInfo['parsed'] = null;
  if (ok && !looksLikeHtml) {
    try {
      parsed = robotsRules(r.finalUrl || r.url, r.body);
    } catch {
      parsed = null;
    }
  }
  return { ...e, parsed, looksLikeHtml };
}

function decodeXmlText(s: string): string {
  if (s.indexOf('&') === -1) return s;
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&amp;/g, '&');
}

/**
 * The parsed site files, per fetched resource: a batch hands every page of a site the same
 * robots.txt and sitemap objects (FetchOptions.siteFiles), so a 10,000-URL sitemap is
 * validated and read once per batch, not once a page. A single audit's resources are its own.
 */
const robotsMemo = new WeakMap<ExtraResource, RobotsInfo>();
const sitemapMemo = new WeakMap<ExtraResource, SitemapInfo>();

function memo<T>(map: WeakMap<ExtraResource, T>, r: ExtraResource, make: (r: ExtraResource) => T): T {
  let v = map.get(r);
  if (v === undefined) map.set(r, (v = make(r)));
  return v;
}

function sitemapInfo(r: ExtraResource): SitemapInfo {
  const e = extra(r);
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  let isXml = false;
  let parseError: string | null = null;
  let isIndex = false;
  const urls: string[] = [];
  if (ok && /\S/.test(r.body)) {
    const v = XMLValidator.validate(r.body);
    if (v === true) {
      isXml = true;
      isIndex = /<(?:[a-z0-9_-]+:)?sitemapindex[\s>]/i.test(r.body.slice(0, 4096));
      const re = /<(?:[a-z0-9_-]+:)?loc>\s*([^<]*?)\s*<\/(?:[a-z0-9_-]+:)?loc>/gi;
      let m: RegExpExecArray | null;
      while ((m = re.exec(r.body)) !== null && urls.length < MAX_SITEMAP_URLS)
        urls.push(decodeXmlText(m[1]!));
    } else {
      parseError = `${v.err.msg} (line ${v.err.line})`;
    }
  } else if (ok) {
    parseError = 'The file is empty.';
  }
  return { ...e, isXml, parseError, isIndex, urls };
}

const CHALLENGE_TITLES = [
  'just a moment',
  'attention required! | cloudflare',
  'please wait while we verify',
  'checking your browser',
  'pardon our interruption',
  'access denied',
  'are you a robot',
  'human verification',
  'ddos-guard',
  'verify you are human',
];

const CHALLENGE_MARKERS = [
  'cdn-cgi/challenge-platform',
  'cf-browser-verification',
  'cf_chl_opt',
  '_incapsula_resource',
  'captcha-delivery.com',
  'px-captcha',
  'awswaf',
  'hcaptcha.com',
  'recaptcha',
  'challenges.cloudflare.com',
];

function detectBlocked(s: PageSnapshot, a: Omit<Artifacts, 'blocked' | 'indexing'>): { reason: string } | null {
  const st = s.status;
  if (st === 401) return { reason: 'HTTP 401: authentication required' };
  if (st === 403) return { reason: 'HTTP 403: access forbidden' };
  if (st === 429) return { reason: 'HTTP 429: rate limited' };
  if (st === 503) return { reason: 'HTTP 503: service unavailable' };
  const h = s.headers;
  if ((h['cf-mitigated'] ?? '').toLowerCase().includes('challenge'))
    return { reason: 'a Cloudflare bot challenge' };
  const title = (a.titles[0] ?? '').toLowerCase();
  const small = a.wordCount < 300;
  if (small) {
    for (const t of CHALLENGE_TITLES) {
      if (title.startsWith(t)) return { reason: `a bot challenge page ("${a.titles[0]}")` };
    }
    const hay = s.text.length <= 200_000 ? s.text.toLowerCase() : '';
    for (const m of CHALLENGE_MARKERS) {
      if (hay.includes(m)) return { reason: `a bot challenge or captcha page (${m})` };
    }
  }
  return null;
}

function requestCounts(subs: Artifacts['subresources']): Record<string, number> {
  const seen = new Set<string>();
  const counts: Record<string, number> = {
    scripts: 0,
    stylesheets: 0,
    images: 0,
    iframes: 0,
    media: 0,
    fonts: 0,
    other: 0,
  };
  const key: Record<string, string> = {
    script: 'scripts',
    stylesheet: 'stylesheets',
    image: 'images',
    iframe: 'iframes',
    media: 'media',
    font: 'fonts',
    other: 'other',
  };
  for (const r of subs) {
    const k = `${r.kind} ${r.url}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const name = key[r.kind]!;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  let total = 0;
  for (const v of Object.values(counts)) total += v;
  counts.total = total;
  return counts;
}

/** Builds the artifacts of a fetched page: one parse of its HTML plus the fetch facts. */
export function buildArtifacts(s: PageSnapshot): Artifacts {
  let finalUrlParsed: URL;
  try {
    finalUrlParsed = new URL(s.finalUrl);
  } catch {
    finalUrlParsed = new URL(s.url);
  }
  const html = collectHtml(s.text, finalUrlParsed);
  let metaCharset: string | null = null;
  for (const m of html.metas) {
    if (m.charset !== null && m.charset.trim() !== '') {
      metaCharset = m.charset.trim().toLowerCase();
      break;
    }
    if (m.httpEquiv === 'content-type') {
      const c = charsetParam(m.content);
      if (c) {
        metaCharset = c;
        break;
      }
    }
  }
  const base: Omit<Artifacts, 'blocked' | 'indexing'> = {
    url: s.url,
    finalUrl: s.finalUrl,
    finalUrlParsed,
    status: s.status,
    httpVersion: s.httpVersion,
    headers: s.headers,
    redirects: s.redirects,
    timings: s.timings,
    transferBytes: s.transferBytes,
    htmlBytes: s.body.length,
    htmlLength: s.text.length,
    source: s.text,
    contentType: s.contentType,
    charset: {
      name: s.charset.name,
      source: s.charset.source,
      header: charsetParam(s.headers['content-type']),
      meta: metaCharset,
    },
    linkHeader: parseLinkHeader(s.headers['link']),
    robots: s.robots ? memo(robotsMemo, s.robots, robotsInfo) : null,
    sitemap: s.sitemap ? memo(sitemapMemo, s.sitemap, sitemapInfo) : null,
    notFoundProbe: s.notFoundProbe ? extra(s.notFoundProbe) : null,
    // a declared icon wins: the probe's answer is then not consulted
    favicon: s.favicon && !html.declaresIcon ? extra(s.favicon) : null,
    llms: s.llms ? { ...extra(s.llms), resource: s.llms } : null,
    userAgentToken: USER_AGENT_TOKEN,
    ...html,
    requestCounts: requestCounts(html.subresources),
  };
  return { ...base, blocked: detectBlocked(s, base), indexing: indexingFacts(html.metas, s.headers) };
}
