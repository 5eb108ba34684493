// Custom extraction's cost a page (docs/sites.md, "Custom extraction"): css, xpath and regex
// extractors over the real saved pages of shared/corpus/pages (read from ../shared, never
// copied), each kind alone, against the baseline of the same page's whole audit
// (analyzeSnapshot: every check and the score, no network) timed in the same rounds,
// interleaved. Prints per kind the mean and worst ms a page and the ratio of the kind's total
// to the audits' total (median of the rounds).
// Each kind runs twice a page: in this thread without a bound (inThread below: the extraction
// worker's own calls, the work alone, as batches ran it before the time bound) and as a batch runs it now, through the extraction
// worker with its time bound (extractBounded: the page sent to the worker thread, the values
// sent back); the worker's overhead is the ratio of the two (median of the rounds).
//
//   npx tsx bench/extract.ts [--rounds 5]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeSnapshot } from '../src/analyzer/index.js';
import { ExtractionPage, keptValue, type Extractor } from '../src/crawl/extract.js';
import { extractBounded } from '../src/services/batches/extract-pool.js';
import { snapshotOf } from './lib/page-snapshot.js';
import { median } from './lib/stats.js';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(args.rounds);
const dir = new URL('../../shared/corpus/pages/', import.meta.url).pathname;
const pages = readdirSync(dir)
  .filter((f) => f.endsWith('.html'))
  .map((f) => {
    const body = readFileSync(join(dir, f));
    return { f, html: body.toString('utf8'), snapshot: snapshotOf(f, body) };
  });
const kinds: Record<string, Extractor[]> = {
  css: [
    { name: 'h1', css: 'h1' },
    { name: 'links', css: 'a[href]', attribute: 'href', all: true },
  ],
  xpath: [
    { name: 'h1', xpath: '//h1' },
    { name: 'canonical', xpath: '//link[@rel="canonical"]/@href' },
  ],
  regex: [
    { name: 'ga', regex: 'UA-(\\d+)' },
    { name: 'pathological', regex: '(a+)+$' },
  ],
};
/**
 * A page's values in this thread, without a bound: what the extraction worker does with a page
 * (src/services/batches/extract-worker.ts: the DOM built, then each extractor's values), kept as
 * a batch keeps them (keptValue, as extract-pool.ts does with the worker's answers).
 */
const inThread = (html: string, extractors: readonly Extractor[]) => {
  const page = new ExtractionPage(html);
  page.prepare(extractors);
  return extractors.map((e) => keptValue(e, page.values(e)));
};
const time = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const timeAsync = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
// a bound no corpus page reaches (the overhead is measured, not the bound)
const BOUND_MS = 600_000;
// warm up every path (and start the worker)
for (const p of pages.slice(0, 3)) {
  analyzeSnapshot(p.snapshot);
  for (const e of Object.values(kinds)) {
    inThread(p.html, e);
    await extractBounded(p.html, e, BOUND_MS);
  }
}
const workerKinds = Object.keys(kinds).map((k) => `${k} (worker)`);
const ratios = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
const totals = new Map<string, number[]>([
  ['audit', []],
  ...[...Object.keys(kinds), ...workerKinds].map((k) => [k, []] as [string, number[]]),
]);
const overheads = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
const worst = new Map<string, { ms: number; page: string }>();
for (let r = 0; r < rounds; r++) {
  const sum = new Map<string, number>();
  for (const p of pages) {
    // the page's audit, then each kind on it: the same moment of the machine for all of them
    sum.set('audit', (sum.get('audit') ?? 0) + time(() => analyzeSnapshot(p.snapshot)));
    for (const [kind, extractors] of Object.entries(kinds)) {
      const ms = time(() => inThread(p.html, extractors));
      sum.set(kind, (sum.get(kind) ?? 0) + ms);
      if (ms > (worst.get(kind)?.ms ?? 0)) worst.set(kind, { ms, page: `${p.f} (${p.html.length} chars)` });
      const bounded = await timeAsync(() => extractBounded(p.html, extractors, BOUND_MS));
      const w = `${kind} (worker)`;
      sum.set(w, (sum.get(w) ?? 0) + bounded);
      if (bounded > (worst.get(w)?.ms ?? 0))
        worst.set(w, { ms: bounded, page: `${p.f} (${p.html.length} chars)` });
    }
  }
  for (const [k, v] of sum) totals.get(k)!.push(v / pages.length);
  for (const kind of Object.keys(kinds)) {
    ratios.get(kind)!.push(sum.get(kind)! / sum.get('audit')!);
    overheads.get(kind)!.push(sum.get(`${kind} (worker)`)! / sum.get(kind)!);
  }
}
console.log(
  `${pages.length} corpus pages, ${rounds} rounds; the page's whole audit: median mean ${median(totals.get('audit')!).toFixed(1)} ms a page`,
);
for (const kind of Object.keys(kinds)) {
  const w = worst.get(kind)!;
  console.log(
    `${kind}: mean ${median(totals.get(kind)!).toFixed(1)} ms a page (median of rounds), ${median(ratios.get(kind)!).toFixed(2)}× the audit (rounds ${ratios
      .get(kind)!
      .map((x) => x.toFixed(2))
      .join(', ')}), worst ${w.ms.toFixed(1)} ms (${w.page})`,
  );
}
for (const kind of Object.keys(kinds)) {
  const w = worst.get(`${kind} (worker)`)!;
  const o = overheads.get(kind)!;
  console.log(
    `${kind} through the worker (time-bounded): mean ${median(totals.get(`${kind} (worker)`)!).toFixed(1)} ms a page, ${median(o).toFixed(2)}× the same in this thread (rounds ${o
      .map((x) => x.toFixed(2))
      .join(', ')}), worst ${w.ms.toFixed(1)} ms (${w.page})`,
  );
}
