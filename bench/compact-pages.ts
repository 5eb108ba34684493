// Benchmark: what a batch's end holds for its pages (issue 20 §7; docs/sites.md, "The end of a
// batch") — 100,000 pages with bench/batch-end.ts's facts (20 links, 8 failed checks, a MinHash
// signature, an h1), each parsed from its JSON as the end reads it, then kept either as parsed
// facts with the URLs and check entries shared (factsSharer: the views' and exports' form) or in
// the compact form (src/crawl/compact.ts: the end's). Heap and typed arrays held, after a
// collection.
//
//   npx tsx --expose-gc bench/compact-pages.ts shared|compact [--pages 100000]
import { parseArgs } from 'node:util';
import { compactPages } from '../src/crawl/compact.js';
import { factsSharer } from '../src/crawl/facts.js';
import { prng } from './lib/corpus.js';
const { values: args, positionals } = parseArgs({
  options: { pages: { type: 'string', default: '100000' } },
  allowPositionals: true,
});
const N = Number(args.pages);
const mode = positionals[0] === 'compact' ? 'compact' : 'shared';
const url = (i: number) => `https://bench.example/p/${i}`;
// the corpus's seeded generator (mulberry32): the same pages every run
const rnd = prng(42);
const pick = (n: number) => Math.floor(rnd() * n);
const hex = (b: number) => {
  let s = '';
  for (let i = 0; i < b; i++) s += pick(256).toString(16).padStart(2, '0');
  return s;
};
const facts = (i: number) =>
  JSON.stringify({
    title: `Page ${i}`,
    description: `About page ${i}`,
    canonical: rnd() < 0.05 ? url(pick(N)) : url(i),
    hreflang:
      rnd() < 0.1
        ? [
            { lang: 'en', url: url(i) },
            { lang: 'de', url: url(pick(N)) },
          ]
        : [],
    noindex: rnd() < 0.02,
    links: Array.from({ length: 20 }, () => url(pick(N))),
    nofollow: [],
    redirected: false,
    result: 'good',
    score: 40 + (i % 60),
    failed: Array.from({ length: 8 }, (_, k) => ({
      id: `check_${k}`,
      priority: 'medium',
      title: `A check that failed, number ${k}`,
    })),
    totalMs: 100 + (i % 400),
    htmlBytes: 14000 + i,
    mainWords: 100 + pick(900),
    mainHash: hex(8),
    minhash: hex(128),
    h1: [`Heading ${i}`],
  });
const gc = (globalThis as { gc: () => void }).gc;
gc();
const m0 = process.memoryUsage();
const share = factsSharer();
const comp = compactPages();
const held: unknown[] = [];
for (let i = 0; i < N; i++) {
  const row = {
    url: url(i),
    state: 'done' as const,
    depth: 1,
    inSitemap: false,
    reportId: i,
    statusCode: 200,
    finalUrl: url(i),
    canonical: null,
    error: null,
    redirectPath: null,
    facts: JSON.parse(facts(i)),
  };
  held.push(
    mode === 'compact' ? comp.add(row) : { ...row, url: share.url(row.url), facts: share.facts(row.facts) },
  );
}
gc();
gc();
const m1 = process.memoryUsage();
const mb = (n: number) => (n / 1048576).toFixed(1);
console.log(
  `${mode}: heap ${mb(m1.heapUsed - m0.heapUsed)} MB + typed arrays ${mb(m1.arrayBuffers - m0.arrayBuffers)} MB, ${held.length} pages`,
);
