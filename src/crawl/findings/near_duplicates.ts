import { CompactFacts } from '../compact.js';
import { bandRows, SIGNATURE_SIZE, similarity, similarityAt } from '../similarity.js';
import type { DonePage, FindingPage, FindingRule } from './types.js';

/**
 * Groups of pages whose main texts are at least the batch's near_duplicate_threshold (percent,
 * default 90; Jaccard of their 3-word shingles, estimated) similar but not the
 * same (those are duplicate_content), each page with its closest page of the group and the
 * similarity. Candidates share a band of their MinHash signatures (src/crawl/similarity.ts),
 * so the cost stays near O(n) in pages; a group is the pages linked by similar pairs.
 */
const rule: FindingRule = {
  id: 'near_duplicates',
  priority: 'medium',
  title: 'Pages with nearly the same main text',
  find(ctx) {
    return nearDuplicates(ctx.done, ctx.settings.nearDuplicateThreshold / 100);
  },
};

/** the pages of a band's bucket each page is compared with (the ones just before it) */
const BUCKET_PEERS = 16;

const HEX_SIG = new RegExp(`^[0-9a-f]{${SIGNATURE_SIZE * 2}}$`);
/** the char codes of the hex digits (a band's key hashes the signature's text) */
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * The pages' signatures as bytes, one SIGNATURE_SIZE record a page (a batch's end: copied from
 * the compact pages, no hex text made — 100,000 signatures are 27 MB as strings, 12.8 MB as
 * bytes); null when one is not lowercase hex of that length (then all are compared as text).
 */
function signatureBytes(pages: readonly DonePage[]): Uint8Array | null {
  const out = new Uint8Array(pages.length * SIGNATURE_SIZE);
  for (let i = 0; i < pages.length; i++) {
    const f = pages[i]!.facts;
    if (f instanceof CompactFacts) {
      if (!f.copySignature(out, i * SIGNATURE_SIZE)) return null;
      continue;
    }
    const hex = f.minhash!;
    if (!HEX_SIG.test(hex)) return null;
    out.set(Buffer.from(hex, 'hex'), i * SIGNATURE_SIZE);
  }
  return out;
}

export function nearDuplicates(done: readonly DonePage[], threshold: number): FindingPage[] {
  const pages = done.filter((p) =>
    p.facts instanceof CompactFacts ? p.facts.hasSignature() : typeof p.facts.minhash === 'string',
  );
  // the signatures as bytes (the same keys and similarities as their text), else as text
  const bytes = signatureBytes(pages);
  const sig = bytes === null ? pages.map((p) => p.facts.minhash!) : [];
  // union-find over the similar pairs; each page's best match
  const parent = pages.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const best = new Map<number, { other: number; sim: number }>();
  const note = (i: number, j: number, sim: number) => {
    const b = best.get(i);
    if (!b || sim > b.sim || (sim === b.sim && j < b.other)) best.set(i, { other: j, sim });
  };
  const rows = bandRows(threshold);
  // a pair met again in another band is compared again (cheap, and the result is the same):
  // a set of the pairs compared would grow with the square of a cluster's size
  const compare = (i: number, j: number) => {
    // the same text is duplicate_content, not a near duplicate
    if (pages[i]!.facts.mainHash === pages[j]!.facts.mainHash) return;
    const sim = bytes === null ? similarity(sig[i]!, sig[j]!) : similarityAt(bytes, i, j);
    if (sim < threshold) return;
    note(i, j, sim);
    note(j, i, sim);
    parent[root(i)] = root(j);
  };
  for (let band = 0; band < SIGNATURE_SIZE / rows; band++) {
    // a band's key is a 32-bit hash of its bytes (numbers are cheap Map keys); a pair that
    // only shares the hash is compared and found apart, no harm done. Most buckets hold one
    // page: the first page of a bucket is a number, the rest a list beside it.
    const first = new Map<number, number>();
    const more = new Map<number, number[]>();
    const from = band * rows * 2;
    for (let i = 0; i < pages.length; i++) {
      let key = 0x811c9dc5;
      if (bytes === null) {
        const s = sig[i]!;
        for (let c = from; c < from + rows * 2; c++) key = Math.imul(key ^ s.charCodeAt(c), 0x01000193);
      } else
        for (let c = i * SIGNATURE_SIZE + from / 2, end = c + rows; c < end; c++) {
          // the two hex digits of the byte, as the text's key hashes them
          key = Math.imul(key ^ HEX_CODES[bytes[c]! >> 4]!, 0x01000193);
          key = Math.imul(key ^ HEX_CODES[bytes[c]! & 15]!, 0x01000193);
        }
      const at = first.get(key);
      if (at === undefined) first.set(key, i);
      else {
        const list = more.get(key);
        if (list) list.push(i);
        else more.set(key, [i]);
      }
    }
    // each page of a bucket is compared with the BUCKET_PEERS pages before it, not all of them:
    // thousands of template pages in one bucket stay linear, and the union-find still joins the
    // whole cluster through the chain (a page's best match is the best of those it met)
    for (const [key, list] of more) {
      const bucket = [first.get(key)!, ...list];
      for (let y = 1; y < bucket.length; y++)
        for (let x = Math.max(0, y - BUCKET_PEERS); x < y; x++) compare(bucket[x]!, bucket[y]!);
    }
  }
  const out: FindingPage[] = [];
  // in page order, a group's pages together (ordered by their group's first page)
  const groups = new Map<number, number[]>();
  for (let i = 0; i < pages.length; i++) {
    if (!best.has(i)) continue;
    const r = root(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  }
  for (const g of groups.values())
    for (const i of g) {
      const b = best.get(i)!;
      out.push({
        url: pages[i]!.url,
        detail: `${Math.round(b.sim * 100)} % similar to ${pages[b.other]!.url}`,
      });
    }
  return out;
}

export default rule;
