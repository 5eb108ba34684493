// The site findings at the end of a batch (issue 21: docs/sites.md, BENCHMARKS.md "Site
// findings"): computeFindings over synthetic facts of N pages (default 100,000) — time and heap
// — and the near-duplicate pass alone; and the per-page cost of the main text's fingerprints.
//
//   node --expose-gc --import tsx bench/findings.ts [--pages 100000] [--rounds 3]
//
// The facts are shaped like a real site's: 20 internal links a page, titles and h1s (a few
// shared), 5 % canonicalised, 10 % with an hreflang set, 2 % noindex, 1 % failing; MinHash
// signatures random (an unrelated page's) except 1 % exact copies and 2 % near duplicates (a
// copy with 4 of the 128 bytes changed: ~97 % similar). The signatures are made as random bytes,
// not from text: the fingerprinting is measured apart, per page, on a 1,000-word text.
import { parseArgs } from 'node:util';
import { computeFindings, type PageForFindings } from '../src/crawl/findings/index.js';
import { nearDuplicates } from '../src/crawl/findings/near_duplicates.js';
import type { DonePage } from '../src/crawl/findings/types.js';
import { minhash, SIGNATURE_SIZE, textHash, words } from '../src/crawl/similarity.js';
import { prng } from './lib/corpus.js';

const { values: args } = parseArgs({
  options: { pages: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '3' } },
});
const N = Number(args.pages);
const ROUNDS = Number(args.rounds);
const LINKS = 20;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

/** a seeded PRNG (mulberry32): the same site every run */
const rnd = prng(42);
const pick = (n: number) => Math.floor(rnd() * n);
const hex = (bytes: number) => {
  let s = '';
  for (let i = 0; i < bytes; i++) s += pick(256).toString(16).padStart(2, '0');
  return s;
};

function site(): PageForFindings[] {
  const url = (i: number) => `https://example.test/p/${i}`;
  const pages: PageForFindings[] = [];
  for (let i = 0; i < N; i++) {
    const r = rnd();
    if (r < 0.01) {
      pages.push({
        url: url(i),
        state: 'failed',
        inSitemap: true,
        statusCode: 404,
        finalUrl: url(i),
        error: null,
        facts: null,
      });
      continue;
    }
    let sig = hex(SIGNATURE_SIZE);
    let hash = hex(8);
    const prev = i > 0 ? pages[pick(i)]!.facts : null;
    if (prev?.minhash && r < 0.02) {
      sig = prev.minhash;
      hash = prev.mainHash!;
    } else if (prev?.minhash && r < 0.04) {
      const b = prev.minhash.split('');
      for (let k = 0; k < 4; k++) {
        const at = pick(SIGNATURE_SIZE) * 2;
        const v = hex(1);
        b[at] = v[0]!;
        b[at + 1] = v[1]!;
      }
      sig = b.join('');
    }
    const lang = rnd() < 0.1;
    pages.push({
      url: url(i),
      state: 'done',
      inSitemap: rnd() < 0.9,
      statusCode: 200,
      finalUrl: url(i),
      error: null,
      facts: {
        title: rnd() < 0.02 ? 'Shared title' : `Page ${i}`,
        description: `About page ${i}`,
        canonical: rnd() < 0.05 ? url(pick(N)) : url(i),
        hreflang: lang
          ? [
              { lang: 'en', url: url(i) },
              { lang: 'de', url: url(pick(N)) },
              { lang: 'x-default', url: url(i) },
            ]
          : [],
        noindex: rnd() < 0.02,
        links: Array.from({ length: LINKS }, () => url(pick(N))),
        nofollow: [],
        redirected: false,
        result: 'good',
        score: 80 + pick(20),
        failed: [],
        totalMs: 50,
        htmlBytes: 30_000,
        mainWords: 100 + pick(900),
        mainHash: hash,
        minhash: sig,
        h1: [rnd() < 0.02 ? 'Shared heading' : `Heading ${i}`],
      },
    });
  }
  return pages;
}

const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
function measure<T>(label: string, f: () => T): T {
  gc!();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const probe = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const t0 = performance.now();
  const out = f();
  const ms = performance.now() - t0;
  clearInterval(probe);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  console.log(`${label}: ${ms.toFixed(0)} ms, heap +${mb(peak - before)} MB at the end (over the facts)`);
  return out;
}

const pages = site();
gc();
console.log(
  `${N} pages of synthetic facts: heap ${mb(process.memoryUsage().heapUsed)} MB, RSS ${mb(process.memoryUsage().rss)} MB`,
);
const done = pages.filter((p): p is DonePage => p.state === 'done' && p.facts !== null);
for (let r = 1; r <= ROUNDS; r++) {
  const findings = measure(`round ${r}: computeFindings (${pages.length} pages)`, () =>
    computeFindings(pages, pages[0]!.url),
  );
  const near = measure(`round ${r}: near_duplicates alone`, () => nearDuplicates(done, 0.9));
  if (r === ROUNDS) {
    const count = (id: string) => findings.find((f) => f.id === id)!.count;
    console.log(
      `found: duplicate_content ${count('duplicate_content')}, near_duplicates ${count('near_duplicates')} (${near.length} rows), canonicalised ${count('canonicalised')}, broken_links ${count('broken_links')}`,
    );
  }
}
console.log(`peak RSS ${mb(process.resourceUsage().maxRSS * 1024)} MB`);

// the fingerprints, per page: words, hash and MinHash of a 1,000-word main text
const text = Array.from({ length: 1000 }, (_, i) => `word${i % 700}x${i % 13}`).join(' ');
const t0 = performance.now();
const K = 500;
for (let i = 0; i < K; i++) {
  const ws = words(text);
  textHash(ws);
  minhash(ws);
}
console.log(`fingerprints of a 1,000-word main text: ${((performance.now() - t0) / K).toFixed(2)} ms a page`);
