// A page's links as the batch's link graph keeps them (docs/sites.md "The link graph"): every
// http(s) link of the page — on the site or not — in page order, with its anchor text, its rel
// tokens, whether it is nofollow and whether it stays on the site. The crawl's own facts
// (facts.ts) keep only the internal URLs it follows; these rows go to batch_links instead.
import type { Artifacts } from '../analyzer/artifacts/types.js';
import { crawlUrl, onSite } from './url.js';

/** the characters of an anchor text kept (the rest is cut) */
export const MAX_ANCHOR_CHARS = 100;
/** a page's links kept (a page with more keeps its first ones) */
export const MAX_PAGE_LINKS = 1000;

export interface PageLink {
  /** the target in the crawler's normal form (crawlUrl) */
  url: string;
  anchor: string;
  /** the anchor's rel tokens, space-separated; null when none */
  rel: string | null;
  /** rel="nofollow" on the link itself (a page-wide `<meta name="robots" content="nofollow">` is the page's, not the link's) */
  nofollow: boolean;
  /** on the site (the start URL's host or its `www.` twin), whatever the scheme */
  internal: boolean;
}

/**
 * The page's links: one per distinct (target, anchor text, rel) in page order, at most
 * MAX_PAGE_LINKS, a link to the page itself included (a graph shows it; the findings leave it out).
 */
export function pageLinks(a: Artifacts, startHost: string, trackingParams: readonly string[]): PageLink[] {
  const out: PageLink[] = [];
  const seen = new Set<string>();
  for (const anchor of a.anchors) {
    if (anchor.href === null) continue;
    const url = crawlUrl(anchor.href, a.baseUrl, trackingParams);
    if (url === null) continue;
    const text = anchor.text.slice(0, MAX_ANCHOR_CHARS);
    const rel = anchor.rel.length === 0 ? null : anchor.rel.join(' ');
    const key = `${url}\u0000${text}\u0000${rel ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ url, anchor: text, rel, nofollow: anchor.rel.includes('nofollow'), internal: onSite(url, startHost) });
    if (out.length >= MAX_PAGE_LINKS) break;
  }
  return out;
}

/** A rendered page's links: the rendered DOM's, then those only the HTML the server sent has. */
export function mergeLinks(raw: PageLink[], rendered: PageLink[]): PageLink[] {
  const key = (l: PageLink) => `${l.url}\u0000${l.anchor}\u0000${l.rel ?? ''}`;
  const seen = new Set(rendered.map(key));
  return [...rendered, ...raw.filter((l) => !seen.has(key(l)))].slice(0, MAX_PAGE_LINKS);
}
