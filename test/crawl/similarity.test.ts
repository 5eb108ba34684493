// The main text's fingerprints (src/crawl/similarity.ts) are stored in a page's facts and
// compared across batches (the near-duplicate findings, the crawl diff): the one-pass word
// reader, the shingle hashes made word by word and the signature taken position by position
// must give exactly what their definitions give — the words as the expression
// /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*/gu matches them, FNV-1a of each "w1 w2 w3" string,
// and each position's minimum over the shingles — on texts of every script, with surrogate
// pairs (lone ones too), joiners at the edges, and signatures fixed since they were first stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  minhash,
  shingles,
  similarity,
  SIGNATURE_SIZE,
  textHash,
  words,
} from '../../src/crawl/similarity.js';
import { gardenPage } from '../../bench/lib/bench-site.js';
import { prng } from '../../bench/lib/corpus.js';

// the definitions, written out plainly
const WORD = /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*/gu;
const refWords = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];
function refFnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}
const SEEDS = Array.from({ length: SIGNATURE_SIZE }, (_, i) => mix(0x9e3779b9 + i * 0x7f4a7c15));
function refShingles(ws: string[]): Set<number> {
  const out = new Set<number>();
  if (ws.length > 0 && ws.length < 3) out.add(refFnv1a(ws.join(' ')));
  for (let i = 0; i + 3 <= ws.length; i++) out.add(refFnv1a(`${ws[i]} ${ws[i + 1]} ${ws[i + 2]}`));
  return out;
}
function refMinhash(ws: string[]): string | null {
  const set = refShingles(ws);
  if (set.size === 0) return null;
  const min = new Array<number>(SIGNATURE_SIZE).fill(0xffffffff);
  for (const h of set)
    for (let i = 0; i < SIGNATURE_SIZE; i++) {
      const v = mix(h ^ SEEDS[i]!);
      if (v < min[i]!) min[i] = v;
    }
  return min.map((m) => (m & 0xff).toString(16).padStart(2, '0')).join('');
}

const PIECES = [
  'a',
  'B',
  'z',
  'Z',
  '0',
  '9',
  ' ',
  '  ',
  '\n',
  '\t',
  '\u00a0',
  "'",
  '\u2019',
  '-',
  '--',
  '.',
  ',',
  '!',
  'é',
  'É',
  'ß',
  'İ',
  'ı',
  'ﬁ',
  'ﬀ',
  'ǅ',
  'Σ',
  'ς',
  'Ω',
  'ж',
  '中',
  '文',
  '٣',
  '²',
  '½',
  'Ⅻ',
  '\u0301',
  '😀',
  '𝐀',
  '𝟘',
  '𐌰',
  '\ud800',
  '\udc00',
  'a-',
  '-a',
  "'s",
  'x\u2019y',
  "rock'n'roll",
  'e-mail',
];

test("words: the expression's matches, on 20,000 generated texts of every script and edge", () => {
  const rnd = prng(11);
  for (let k = 0; k < 20_000; k++) {
    let t = '';
    const len = Math.floor(rnd() * 60);
    for (let i = 0; i < len; i++) t += PIECES[Math.floor(rnd() * PIECES.length)];
    assert.deepEqual(words(t), refWords(t), JSON.stringify(t));
  }
  assert.deepEqual(words("Don't e-mail the CO-OP's 3 x² -- rock\u2019n\u2019roll-"), [
    "don't",
    'e-mail',
    'the',
    "co-op's",
    '3',
    'x²',
    'rock\u2019n\u2019roll',
  ]);
  assert.deepEqual(words(''), []);
  assert.deepEqual(words('— … !'), []);
});

test('shingles, the signature and the text hash: as defined, on long texts of several scripts', () => {
  const rnd = prng(5);
  const vocab = [
    'Straße',
    'don\u2019t',
    'e-mail',
    'Ελληνικά',
    'русский',
    '中文字',
    'العربية',
    'naïve',
    '𝐀𝐁',
    'Ⅻ',
    'word',
  ];
  const texts = [
    ...Array.from({ length: 20 }, (_, i) => gardenPage(i * 37, 1001).replace(/<[^>]*>/g, ' ')),
    ...Array.from({ length: 10 }, () =>
      Array.from({ length: 2000 }, () => vocab[Math.floor(rnd() * vocab.length)]).join(
        rnd() < 0.5 ? ' ' : ', ',
      ),
    ),
    'one',
    'one two',
    'one two three',
  ];
  for (const t of texts) {
    const ws = words(t);
    assert.deepEqual(ws, refWords(t));
    assert.deepEqual([...shingles(ws)], [...refShingles(ws)]);
    assert.equal(minhash(ws), refMinhash(ws));
    assert.equal(textHash(ws), createHash('sha256').update(ws.join(' ')).digest('hex').slice(0, 16));
  }
  assert.equal(minhash([]), null);
  // a signature stored by an earlier batch still compares: the same text, the same signature
  const ws = words(gardenPage(0, 1001).replace(/<[^>]*>/g, ' '));
  assert.equal(similarity(minhash(ws)!, refMinhash(ws)!), 1);
  assert.equal(
    minhash(words('The quick brown fox jumps over the lazy dog')),
    refMinhash(refWords('The quick brown fox jumps over the lazy dog')),
  );
});
