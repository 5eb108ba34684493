// A page's resources as a batch checks them (issue 21 §1, docs/sites.md "Links and resources
// checked"): what a browser loads to show the page — images and their srcset candidates,
// stylesheets, scripts, frames, fonts, video and audio sources — read from the artifacts'
// subresources (one HTML pass); and, in a rendered batch, the requests the browser saw fail.
import type { Artifacts } from '../analyzer/artifacts/types.js';
import type { AuditReport } from '../analyzer/types.js';
import { absoluteHttpUrl } from './url.js';

/** a page's resources kept (a page with more keeps its first ones) */
export const MAX_PAGE_RESOURCES = 200;
/** a rendered page's failed requests kept */
const MAX_FAILED_REQUESTS = 20;

export interface PageResource {
  /** image, stylesheet, script, iframe, media, font, other (an icon, a preload) */
  kind: string;
  /** absolute http(s) URL, its fragment dropped */
  url: string;
}

/** The URLs of a srcset (`a.jpg 1x, b.jpg 2x`), as written (the HTML standard's candidate split). */
export function srcsetUrls(srcset: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = srcset.length;
  const space = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < n) {
    while (i < n && (space(srcset[i]) || srcset[i] === ',')) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !space(srcset[i])) i++;
    let url = srcset.slice(start, i);
    if (url.endsWith(',')) {
      // a URL ended by commas has no descriptor
      url = url.replace(/,+$/, '');
    } else {
      // its descriptor, up to the next comma outside parentheses
      let depth = 0;
      while (i < n && (srcset[i] !== ',' || depth > 0)) {
        if (srcset[i] === '(') depth++;
        else if (srcset[i] === ')') depth = Math.max(0, depth - 1);
        i++;
      }
    }
    if (url !== '') out.push(url);
  }
  return out;
}

const absolute = absoluteHttpUrl;

export function pageResources(a: Artifacts): PageResource[] {
  const out: PageResource[] = [];
  const seen = new Set<string>();
  const add = (kind: string, url: string | null) => {
    if (url === null || seen.has(url) || out.length >= MAX_PAGE_RESOURCES) return;
    seen.add(url);
    out.push({ kind, url });
  };
  for (const r of a.subresources) add(r.kind, absolute(r.url, a.baseUrl));
  for (const img of a.images) {
    if (img.inNoscript) continue;
    // the <img>'s own srcset and its <picture>'s <source srcset> candidates
    for (const srcset of [...(img.srcset === null ? [] : [img.srcset]), ...img.pictureSrcsets])
      for (const u of srcsetUrls(srcset)) add('image', absolute(u, a.baseUrl));
  }
  return out;
}

/** A rendered page's failed requests (the failed_requests check's rows), when it has some. */
export function failedRequests(report: AuditReport): {
  failedRequests?: { url: string; status: number | null; reason: string }[];
} {
  const details = report.render ? report.results['failed_requests']?.details : undefined;
  if (!details || details.type !== 'table') return {};
  const rows = details.rows
    .slice(0, MAX_FAILED_REQUESTS)
    .map((r) => ({
      url: String(r[0]),
      status: typeof r[1] === 'number' ? r[1] : null,
      reason: String(r[2] ?? ''),
    }));
  return rows.length === 0 ? {} : { failedRequests: rows };
}
