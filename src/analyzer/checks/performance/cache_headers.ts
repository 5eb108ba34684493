// The HTML response's own caching policy (we fetch no assets, so only the page is judged).
import type { CheckDefinition } from '../types.js';
import { clip, tableDetails } from '../types.js';

const check: CheckDefinition = {
  id: 'cache_headers',
  category: 'performance',
  priority: 'low',
  title: 'The page declares a caching policy',
  failTitle: 'The page declares no caching policy',
  howToFix:
    'Send Cache-Control with the HTML (e.g. "Cache-Control: no-cache" with an ETag or Last-Modified for pages that change, "max-age=…" for static ones) so browsers and CDNs can revalidate instead of downloading the page again.',
  failsWhen: 'the HTML has none of Cache-Control, ETag, Last-Modified',
  needsContent: false,
  run(a) {
    const h = a.headers;
    const cc = h['cache-control'] ?? null;
    const etag = h['etag'] ?? null;
    const lastModified = h['last-modified'] ?? null;
    const expires = h['expires'] ?? null;
    const rows: (string | null)[][] = [
      ['Cache-Control', cc === null ? null : clip(cc)],
      ['ETag', etag === null ? null : clip(etag)],
      ['Last-Modified', lastModified],
      ['Expires', expires],
    ];
    const details = tableDetails(['header', 'value'], rows);
    if (cc === null && etag === null && lastModified === null) {
      return {
        passed: false,
        message:
          expires !== null
            ? `The HTML has only an Expires header (${clip(expires, 60)}), no Cache-Control, ETag or Last-Modified: caches must guess how to revalidate it.`
            : 'The HTML has no Cache-Control, ETag or Last-Modified header: browsers and CDNs must guess how long to keep it and cannot revalidate it cheaply.',
        value: null,
        details,
      };
    }
    const directives = (cc ?? '').toLowerCase();
    const parts: string[] = [];
    if (cc !== null) parts.push(`Cache-Control: ${clip(cc, 80)}`);
    if (etag !== null) parts.push('an ETag');
    if (lastModified !== null) parts.push('Last-Modified');
    let note = '';
    if (/\bno-store\b/.test(directives))
      note =
        ' The page is never stored (no-store), which suits private pages but forces a full download each visit.';
    else if (cc === null) note = ' Without Cache-Control, caches apply heuristic freshness.';
    return {
      passed: true,
      message: `The HTML declares its caching with ${parts.join(', ')}.${note}`,
      value: cc,
      details,
    };
  },
};

export default check;
