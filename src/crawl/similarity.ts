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

/** a letter or a digit (any script) */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
/**
 * Whether each character of the Basic Multilingual Plane is a letter or a digit, learned at its
 * first sight (0: not yet known, 1: no, 2: yes; ASCII known from the start): 64 kB.
 */
const BMP_WORD = new Uint8Array(0x10000);
for (let c = 0; c < 128; c++) BMP_WORD[c] = LETTER_OR_DIGIT.test(String.fromCharCode(c)) ? 2 : 1;

/** The length (1 or 2 code units) of the letter or digit at `i`, or 0 when there is none. */
function wordChar(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const known = BMP_WORD[c]!;
  if (known !== 0) return known - 1;
  // a surrogate pair is one character (a letter of an astral script, a digit of one); a lone
  // surrogate is neither
  if (c >= 0xd800 && c <= 0xdfff) {
    const pair = c <= 0xdbff && i + 1 < text.length ? text.slice(i, i + 2) : '';
    return pair !== '' && LETTER_OR_DIGIT.test(pair) ? 2 : 0;
  }
  const yes = LETTER_OR_DIGIT.test(text[i]!);
  BMP_WORD[c] = yes ? 2 : 1;
  return yes ? 1 : 0;
}

/** an apostrophe (either), or a hyphen: joins two runs of letters and digits into one word */
const isJoiner = (c: number) => c === 39 || c === 0x2019 || c === 45;

/**
 * The words of a text, lower-cased (punctuation and whitespace dropped): the runs of letters and
 * digits, two runs joined by one apostrophe or hyphen being one word (`don't`, `e-mail`) — the
 * matches of `[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*` (flags `gu`), found in one pass over the
 * characters instead (issue 24 §4: the expression was most of the signature's time).
 */
export function words(text: string): string[] {
  const t = text.toLowerCase();
  const out: string[] = [];
  const n = t.length;
  let i = 0;
  while (i < n) {
    let w = wordChar(t, i);
    if (w === 0) {
      i++;
      continue;
    }
    const start = i;
    i += w;
    for (;;) {
      while (i < n && (w = wordChar(t, i)) !== 0) i += w;
      // a joiner continues the word only when a letter or digit follows it
      if (i + 1 < n && isJoiner(t.charCodeAt(i)) && (w = wordChar(t, i + 1)) !== 0) i += 1 + w;
      else break;
    }
    out.push(t.slice(start, i));
  }
  return out;
}

/** A hash of the text's words (16 hex characters): the same words in the same order, the same hash. */
export function textHash(ws: readonly string[]): string {
  return createHash('sha256').update(ws.join(' ')).digest('hex').slice(0, 16);
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bits, of `s` continued from the hash `h` (unsigned: h >>> 0 once done) */
function fnv1aOn(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/** FNV-1a, 32 bits */
function fnv1a(s: string): number {
  return fnv1aOn(FNV_OFFSET, s) >>> 0;
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

/**
 * The distinct 3-word shingles of the words, hashed (a text under 3 words is one shingle): the
 * FNV-1a of "w1 w2 w3", hashed word by word without the string being made.
 */
export function shingles(ws: readonly string[]): Set<number> {
  const out = new Set<number>();
  if (ws.length === 0) return out;
  if (ws.length < SHINGLE) out.add(fnv1a(ws.join(' ')));
  for (let i = 0; i + SHINGLE <= ws.length; i++) {
    let h = fnv1aOn(FNV_OFFSET, ws[i]!);
    h = fnv1aOn(Math.imul(h ^ 32, FNV_PRIME), ws[i + 1]!);
    h = fnv1aOn(Math.imul(h ^ 32, FNV_PRIME), ws[i + 2]!);
    out.add(h >>> 0);
  }
  return out;
}

/** two hex digits of each byte */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** The MinHash signature of the words (2 × SIGNATURE_SIZE hex characters), null for no words. */
export function minhash(ws: readonly string[]): string | null {
  const set = shingles(ws);
  if (set.size === 0) return null;
  // the shingles in a typed array, each position's minimum taken over all of them in turn
  const hashes = Uint32Array.from(set);
  let out = '';
  for (let i = 0; i < SIGNATURE_SIZE; i++) {
    const seed = SEEDS[i]!;
    let min = 0xffffffff;
    for (let j = 0; j < hashes.length; j++) {
      const v = mix(hashes[j]! ^ seed);
      if (v < min) min = v;
    }
    out += HEX[min & 0xff];
  }
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
