// The page's robots directives, read once per audit from its meta tags and its X-Robots-Tag
// header: the noindex check, the rendered audit (javascript_indexing) and the batch crawler
// (per-page facts: noindex, nofollow) all read Artifacts.indexing.
import type { IndexingFacts, MetaTag } from './types.js';

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

const directives = (content: string) => content.toLowerCase().split(/[\s,]+/);

/** Whether a robots directive list ("nofollow, NOINDEX") blocks indexing. */
export function blocksIndexing(content: string): boolean {
  return directives(content).some((d) => BLOCKING.has(d));
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

/** The indexing facts of a page: its meta tags (names lower-cased) and its response headers. */
export function indexingFacts(metas: readonly MetaTag[], headers: Record<string, string>): IndexingFacts {
  const noindexMetas: MetaTag[] = [];
  let nofollow = false;
  for (const m of metas) {
    if (m.name === null || m.content === null || !OUR_SCOPES.has(m.name)) continue;
    if (blocksIndexing(m.content)) noindexMetas.push(m);
    if (m.name === 'robots' && directives(m.content).includes('nofollow')) nofollow = true;
  }
  const header = headers['x-robots-tag'];
  return {
    noindexMetas,
    noindexHeader: header !== undefined && headerBlocks(header),
    nofollow,
    aiDirectives: aiDirectivesOf(metas, header),
  };
}

const AI_DIRECTIVES = ['noai', 'noimageai'] as const;

/** noai / noimageai in robots meta tags (any crawler's name) and in X-Robots-Tag (any scope). */
function aiDirectivesOf(metas: readonly MetaTag[], header: string | undefined): string[] {
  const out: string[] = [];
  for (const m of metas) {
    // cheap test first: most pages have robots metas without either directive
    if (m.name === null || m.content === null || !/no(?:image)?ai/i.test(m.content)) continue;
    const found = directives(m.content);
    for (const d of AI_DIRECTIVES) if (found.includes(d)) out.push(`${d} (meta ${m.name})`);
  }
  if (header !== undefined) {
    const found = header.toLowerCase().split(/[\s,:]+/);
    for (const d of AI_DIRECTIVES) if (found.includes(d)) out.push(`${d} (X-Robots-Tag)`);
  }
  return [...new Set(out)];
}
