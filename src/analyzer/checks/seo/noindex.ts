import { listDetails, type CheckDefinition } from '../types.js';

/** robots directives that keep a page out of the index */
const BLOCKING = new Set(['noindex', 'none']);
/** the names a robots meta tag or an X-Robots-Tag scope may address that concern us */
const OUR_SCOPES = new Set(['robots', 'googlebot', 'pagegrade', 'bingbot']);
const KNOWN_DIRECTIVES = new Set([
  'all',
  'noindex',
  'nofollow',
  'none',
  'noarchive',
  'nosnippet',
  'notranslate',
  'noimageindex',
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'indexifembedded',
  'index',
  'follow',
  'nocache',
  'noodp',
  'noydir',
]);

/** Whether a robots directive list ("nofollow, NOINDEX") blocks indexing. */
export function blocksIndexing(content: string): boolean {
  return content
    .toLowerCase()
    .split(/[\s,]+/)
    .some((d) => BLOCKING.has(d));
}

/**
 * X-Robots-Tag: "noindex", "googlebot: noindex, nofollow", "otherbot: noindex" (scoped to another
 * crawler, so not ours). A scope runs until the next "name:" that is not a known directive.
 */
export function headerBlocks(value: string): boolean {
  for (const line of value.split(/\n/)) {
    let scope: string | null = null;
    for (const raw of line.split(',')) {
      let part = raw.trim().toLowerCase();
      const colon = part.indexOf(':');
      if (colon > 0) {
        const head = part.slice(0, colon).trim();
        if (!KNOWN_DIRECTIVES.has(head)) {
          scope = head;
          part = part.slice(colon + 1).trim();
        }
      }
      if (scope !== null && !OUR_SCOPES.has(scope)) continue;
      for (const d of part.split(/\s+/)) if (BLOCKING.has(d)) return true;
    }
  }
  return false;
}

const check: CheckDefinition = {
  id: 'noindex',
  category: 'seo',
  priority: 'high',
  title: 'Search engines may index the page',
  failTitle: 'The page asks search engines not to index it',
  howToFix:
    'Remove "noindex" (or "none") from the robots meta tag and the X-Robots-Tag header, unless the page is meant to stay out of search results.',
  failsWhen:
    '`<meta name="robots|googlebot|bingbot|pagegrade">` or an `X-Robots-Tag` header (unscoped or scoped to those crawlers) says `noindex` or `none`',
  needsContent: true,
  run(a) {
    const found: string[] = [];
    for (const m of a.metas) {
      if (m.name !== null && OUR_SCOPES.has(m.name) && m.content !== null && blocksIndexing(m.content)) {
        found.push(`<meta name="${m.name}" content="${m.content}">`);
      }
    }
    const header = a.headers['x-robots-tag'];
    if (header !== undefined && headerBlocks(header)) found.push(`X-Robots-Tag: ${header}`);
    if (found.length === 0)
      return { passed: true, message: 'No robots directive forbids indexing.', value: true };
    return {
      passed: false,
      message: `The page forbids indexing: ${found[0]}.`,
      value: false,
      details: listDetails(found),
    };
  },
};

export default check;
