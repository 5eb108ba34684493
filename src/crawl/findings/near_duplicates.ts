import { bandRows, SIGNATURE_SIZE, similarity } from '../similarity.js';
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

export function nearDuplicates(done: readonly DonePage[], threshold: number): FindingPage[] {
  const pages = done.filter((p) => typeof p.facts.minhash === 'string');
  const sig = pages.map((p) => p.facts.minhash!);
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
    const sim = similarity(sig[i]!, sig[j]!);
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
      const s = sig[i]!;
      let key = 0x811c9dc5;
      for (let c = from; c < from + rows * 2; c++) key = Math.imul(key ^ s.charCodeAt(c), 0x01000193);
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
