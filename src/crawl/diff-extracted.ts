// Custom extraction in the crawl diff (docs/sites.md, "Comparing crawls"): the extractors both
// crawls have (by name: comparedExtractors) are compared page by page. A
// page's digest holds only a short key of its values for those names (extractedKey: the values'
// JSON when short, its length and a 53-bit hash otherwise), so that two 100,000-page crawls stay compact; the values
// are read again only for the pages whose keys differ, and compared name by name
// (fillExtracted, extractedChanges).
import type { CrawlDiff, ExtractedChange } from './diff.js';
import type { Extracted } from './extract.js';

/** The names of the extractors both crawls have (exact names), sorted: those the diff compares. */
export function comparedExtractors(before: readonly string[], after: readonly string[]): string[] {
  const had = new Set(before);
  return [...new Set(after)].filter((n) => had.has(n)).sort();
}

/** keys up to this long are the values' JSON itself (no hash: cheaper, and exact) */
const INLINE_KEY = 40;

/**
 * A 53-bit hash of a string (cyrb53, public domain): no object made, unlike node:crypto's
 * hashes (one a page was tens of megabytes of garbage at 100,000 pages). Keys are only ever
 * compared page with same page, so two different values go unnoticed with a chance of 2⁻⁵³.
 */
function hash53(s: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const valueOf = (values: Extracted, name: string): ExtractedChange['before'] => values[name] ?? null;

/**
 * A short key of a page's values for `names`: equal keys, equal values. Null when there is
 * nothing to compare (no name both crawls have, or no values stored for the page).
 */
export function extractedKey(values: Extracted | null | undefined, names: readonly string[]): string | null {
  if (names.length === 0 || values === null || values === undefined) return null;
  const json = JSON.stringify(names.map((n) => valueOf(values, n)));
  // '=' a literal key, '#' a hash with the length: never equal to each other
  return json.length <= INLINE_KEY ? `=${json}` : `#${json.length.toString(36)}.${hash53(json).toString(36)}`;
}

/** The extractors among `names` whose values differ, in `names` order (none when a side has no values). */
export function extractedChanges(
  before: Extracted | null | undefined,
  after: Extracted | null | undefined,
  names: readonly string[],
): ExtractedChange[] {
  if (!before || !after) return [];
  const out: ExtractedChange[] = [];
  for (const name of names) {
    const a = valueOf(before, name);
    const b = valueOf(after, name);
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ name, before: a, after: b });
  }
  return out;
}

/**
 * The custom extraction values of the pages whose keys differ (their `changes` name
 * `extracted`: extractedPages), by URL from each crawl: each such page gets the extractors whose
 * values changed. A page whose values are not found again (it went between the two reads) loses
 * the change, and the page too when nothing else changed.
 */
export function fillExtracted(
  diff: CrawlDiff,
  before: ReadonlyMap<string, Extracted>,
  after: ReadonlyMap<string, Extracted>,
): void {
  const { names } = diff.summary.extracted;
  diff.pages.changed = diff.pages.changed.filter((c) => {
    if (!c.changes.includes('extracted')) return true;
    c.extracted = extractedChanges(before.get(c.url), after.get(c.url), names);
    if (c.extracted.length > 0) return true;
    c.changes = c.changes.filter((x) => x !== 'extracted');
    diff.summary.extracted.changed--;
    return c.changes.length > 0;
  });
  diff.summary.pages.changed = diff.pages.changed.length;
}

/** The URLs of the changed pages whose custom extraction values fillExtracted reads. */
export const extractedPages = (diff: CrawlDiff): string[] =>
  diff.pages.changed.filter((c) => c.changes.includes('extracted')).map((c) => c.url);

/**
 * A diff as stored (batches.diff): one stored before custom extraction was compared gets its
 * empty parts, so that every reader sees the same shape.
 */
export function storedDiff(text: string): CrawlDiff {
  const d = JSON.parse(text) as CrawlDiff;
  d.summary.extracted ??= { names: [], changed: 0 };
  for (const c of d.pages.changed) c.extracted ??= [];
  return d;
}
