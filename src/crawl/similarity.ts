// The main text's fingerprints, for the batch's content findings (docs/sites.md): a hash of the
// text (exact duplicates) and a MinHash signature of its 3-word shingles (near duplicates).
// Both are short strings kept in the page's facts; the text itself is never kept.
//
// The similarity of two pages is the Jaccard similarity of their sets of 3-word shingles (the
// share of their 3-word sequences they have in common). A signature is SIGNATURE_SIZE one-byte
// minima ("b-bit MinHash", b = 8: two pages agree on a byte with probability J + (1 − J)/256),
// so the estimate is within about ±3 points at 90 %. Near-duplicate candidates come from
// locality-sensitive hashing: the signature cut into bands (bandRows), pages that share a band
// compared — near O(n) in pages (no library of npm fits: the few are unmaintained).
import { createHash } from 'node:crypto';

/** minima in a signature (one byte each: 2 hex characters) */
export const SIGNATURE_SIZE = 128;
/** words in a shingle */
const SHINGLE = 3;
/** a pair at the threshold shares a band with at least this probability */
const RECALL = 0.99;

/**
 * The rows (bytes) of a band for a similarity threshold: the most rows (fewest chance pairs to
 * compare) that still find a pair at the threshold with probability RECALL — 8 at 90 % (16
 * bands: a pair at 90 % shares one with p ≈ 0.9999, a pair at 50 % with p ≈ 0.06).
 */
export function bandRows(threshold: number): number {
  let rows = 1;
  for (let r = 2; r <= SIGNATURE_SIZE / 2; r *= 2) {
    const bands = SIGNATURE_SIZE / r;
    if (1 - (1 - threshold ** r) ** bands >= RECALL) rows = r;
    else break;
  }
  return rows;
}

const WORD = /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*/gu;

/** The words of a text, lower-cased (punctuation and whitespace dropped). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** A hash of the text's words (16 hex characters): the same words in the same order, the same hash. */
export function textHash(ws: readonly string[]): string {
  return createHash('sha256').update(ws.join(' ')).digest('hex').slice(0, 16);
}

/** FNV-1a, 32 bits */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's finaliser: a good 32-bit mix, one per signature position (seeded) */
function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** one seed per signature position (fixed: signatures of different batches compare) */
const SEEDS = Uint32Array.from({ length: SIGNATURE_SIZE }, (_, i) => mix(0x9e3779b9 + i * 0x7f4a7c15));

/** The distinct 3-word shingles of the words, hashed (a text under 3 words is one shingle). */
export function shingles(ws: readonly string[]): Set<number> {
  const out = new Set<number>();
  if (ws.length === 0) return out;
  if (ws.length < SHINGLE) out.add(fnv1a(ws.join(' ')));
  for (let i = 0; i + SHINGLE <= ws.length; i++) out.add(fnv1a(`${ws[i]} ${ws[i + 1]} ${ws[i + 2]}`));
  return out;
}

/** The MinHash signature of the words (2 × SIGNATURE_SIZE hex characters), null for no words. */
export function minhash(ws: readonly string[]): string | null {
  const set = shingles(ws);
  if (set.size === 0) return null;
  const min = new Uint32Array(SIGNATURE_SIZE).fill(0xffffffff);
  for (const h of set) {
    for (let i = 0; i < SIGNATURE_SIZE; i++) {
      const v = mix(h ^ SEEDS[i]!);
      if (v < min[i]!) min[i] = v;
    }
  }
  let out = '';
  for (let i = 0; i < SIGNATURE_SIZE; i++) out += (min[i]! & 0xff).toString(16).padStart(2, '0');
  return out;
}

/** The estimated similarity (0–1) of two signatures. */
export function similarity(a: string, b: string): number {
  let same = 0;
  for (let i = 0; i < a.length; i += 2)
    if (a.charCodeAt(i) === b.charCodeAt(i) && a.charCodeAt(i + 1) === b.charCodeAt(i + 1)) same++;
  return estimate(same);
}

/**
 * similarity() of the signatures at records `i` and `j` of `sigs` (SIGNATURE_SIZE bytes each,
 * the hex text's bytes): the same figure, without a string a signature.
 */
export function similarityAt(sigs: Uint8Array, i: number, j: number): number {
  let same = 0;
  for (let a = i * SIGNATURE_SIZE, b = j * SIGNATURE_SIZE, end = a + SIGNATURE_SIZE; a < end; a++, b++)
    if (sigs[a] === sigs[b]) same++;
  return estimate(same);
}

/** the similarity from the bytes two signatures agree on */
function estimate(same: number): number {
  const p = same / SIGNATURE_SIZE;
  // two different shingle sets still agree on a byte one time in 256
  const chance = 1 / 256;
  return Math.max(0, Math.min(1, (p - chance) / (1 - chance)));
}
