// URL rules of the batch crawler (docs/sites.md): one normal form per page, so that a page
// linked as `/a`, `/a#top`, `//a` or `/a?utm_source=x` is crawled once; and the site's bounds
// (the start URL's host and its `www.` twin).
import { stripWww } from '../analyzer/url.js';

/** Query parameters dropped by default (PAGEGRADE_CRAWL_TRACKING_PARAMS replaces the list; `*` ends a prefix). */
export { DEFAULT_TRACKING_PARAMS } from './defaults.js';

/** Extensions that are never HTML pages: links to them are not followed. */
const NON_HTML =
  /\.(?:pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|mov|avi|webm|ogg|wav|flac|woff2?|ttf|otf|eot|css|js|mjs|json|xml|rss|atom|txt|csv|xlsx?|docx?|pptx?|exe|dmg|apk|iso)$/i;

export function isTrackingParam(name: string, patterns: readonly string[]): boolean {
  const n = name.toLowerCase();
  return patterns.some((p) =>
    p.endsWith('*') ? n.startsWith(p.slice(0, -1).toLowerCase()) : n === p.toLowerCase(),
  );
}

/**
 * The crawler's normal form of `href` (resolved against `base`): http(s) only, no credentials,
 * fragment dropped, scheme and host lower-cased, default port dropped (WHATWG URL), runs of
 * slashes in the path collapsed, tracking parameters removed. null for anything else.
 */
export function crawlUrl(href: string, base: string | URL, trackingParams: readonly string[]): string | null {
  let u: URL;
  try {
    u = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!u.hostname || u.username !== '' || u.password !== '') return null;
  u.hash = '';
  u.pathname = u.pathname.replace(/\/{2,}/g, '/');
  if (u.search !== '') {
    const kept = [...u.searchParams].filter(([k]) => !isTrackingParam(k, trackingParams));
    u.search = kept.length === 0 ? '' : new URLSearchParams(kept).toString();
  }
  return u.href;
}

/** Whether `url` is on the site of `start`: the same host, or its `www.` twin, and the same scheme family. */
export function onSite(url: string, startHost: string): boolean {
  try {
    const h = new URL(url).hostname.toLowerCase();
    return stripWww(h) === stripWww(startHost.toLowerCase());
  } catch {
    return false;
  }
}

export function looksNonHtml(url: string): boolean {
  try {
    return NON_HTML.test(new URL(url).pathname);
  } catch {
    return true;
  }
}

/**
 * include/exclude patterns: a `*` matches any run of characters, anything else itself; a
 * pattern matches anywhere in the URL unless it starts with `^`. A URL passes when it matches
 * some include (or there is none) and no exclude.
 */
export function patternFilter(
  include: readonly string[],
  exclude: readonly string[],
): (url: string) => boolean {
  const compile = (p: string) => {
    const anchored = p.startsWith('^');
    const body = (anchored ? p.slice(1) : p)
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(anchored ? `^${body}` : body);
  };
  const inc = include.map(compile);
  const exc = exclude.map(compile);
  return (url) => (inc.length === 0 || inc.some((r) => r.test(url))) && !exc.some((r) => r.test(url));
}

/** `href` made absolute against `base`, its fragment dropped; null when it is not http(s) or not a URL. */
export function absoluteHttpUrl(href: string, base: string): string | null {
  try {
    const u = new URL(href.trim(), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}
