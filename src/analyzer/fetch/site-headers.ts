// Request headers for one origin only: a project's crawl request settings (its headers, its
// cookies as a Cookie header, HTTP basic auth as Authorization; docs/sites.md, "Settings") for a
// site behind a login or a staging wall. Added to each request whose URL is on that origin —
// scheme, host and port — and to no other: a redirect to another host, a cross-origin
// sub-resource of a rendered page, a sitemap elsewhere never gets them. Applied per hop by the
// fetcher (session.ts) and by the rendered page's network (src/render/network.ts).

import type { SiteHeaders } from '../types.js';

export type { SiteHeaders };

/**
 * Headers the settings may not set: the connection's own (undici and Chromium set them) and
 * the framing of the request. The settings refuse them (422); one stored before that is not sent.
 */
export const NOT_SENT: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
]);

/** Whether `url` is on the origin of `site` (false for no site). */
export function onOrigin(url: URL | string, site: SiteHeaders | undefined): boolean {
  if (!site) return false;
  try {
    return (typeof url === 'string' ? new URL(url) : url).origin === site.origin;
  } catch {
    return false;
  }
}

/**
 * `base` with the site's headers when `url` is on its origin, else `base` itself. The site's
 * values replace the fetcher's of the same name (a wall that checks the User-Agent), except
 * the Cookie header, which is joined to the one already there (a rendered page's own cookies).
 */
export function withSiteHeaders(
  url: URL | string,
  base: Record<string, string>,
  site: SiteHeaders | undefined,
): Record<string, string> {
  if (!site || !onOrigin(url, site)) return base;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) out[k.toLowerCase()] = v;
  for (const [k, v] of Object.entries(site.headers)) {
    const name = k.toLowerCase();
    if (NOT_SENT.has(name)) continue;
    out[name] = name === 'cookie' && out.cookie ? `${out.cookie}; ${v}` : v;
  }
  return out;
}
