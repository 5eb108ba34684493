// Benchmark of the audit engine's judging half, no network:
//   npx tsx bench/analyze.ts [--iterations N] [--json]
// For each of the 27 saved pages in ../shared/corpus/pages (relative to the repo root), builds
// a PageSnapshot from the saved bytes with synthetic headers and times the whole suite
// (analyzeSnapshot: artifacts in one streaming pass + every check + scoring) next to
// htmlparser2's Parser with no handlers over the same text. Warm-up first, then the two are
// interleaved (alternating which goes first), and medians are taken per page.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'htmlparser2';
import { analyzeSnapshot } from '../src/analyzer/index.js';
import type { PageSnapshot } from '../src/analyzer/types.js';
import { snapshotOf } from './lib/page-snapshot.js';
import { median } from './lib/stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const corpus = join(root, '..', 'shared', 'corpus', 'pages');
const args = process.argv.slice(2);
const iterations = Number(args[args.indexOf('--iterations') + 1]) || 15;
const asJson = args.includes('--json');
const WARMUP = 4;

interface Page {
  name: string;
  bytes: number;
  text: string;
  snapshot: PageSnapshot;
}

function bare(text: string): void {
  const p = new Parser();
  p.write(text);
  p.end();
}

let sink = 0;
function suite(s: PageSnapshot): void {
  sink += analyzeSnapshot(s).score;
}

function time(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const pages: Page[] = readdirSync(corpus)
  .filter((n) => n.endsWith('.html'))
  .sort()
  .map((name) => {
    const body = readFileSync(join(corpus, name));
    const snapshot = snapshotOf(name, body);
    return { name, bytes: body.length, text: snapshot.text, snapshot };
  });

for (let i = 0; i < WARMUP; i++) {
  for (const p of pages) {
    bare(p.text);
    suite(p.snapshot);
  }
}

const tBare = new Map<string, number[]>(pages.map((p) => [p.name, []]));
const tSuite = new Map<string, number[]>(pages.map((p) => [p.name, []]));
for (let i = 0; i < iterations; i++) {
  for (const p of pages) {
    if (i % 2 === 0) {
      tBare.get(p.name)!.push(time(() => bare(p.text)));
      tSuite.get(p.name)!.push(time(() => suite(p.snapshot)));
    } else {
      tSuite.get(p.name)!.push(time(() => suite(p.snapshot)));
      tBare.get(p.name)!.push(time(() => bare(p.text)));
    }
  }
}

let totalBytes = 0;
let totalBare = 0;
let totalSuite = 0;
const rows = pages.map((p) => {
  const b = median(tBare.get(p.name)!);
  const s = median(tSuite.get(p.name)!);
  totalBytes += p.bytes;
  totalBare += b;
  totalSuite += s;
  return { page: p.name, kb: p.bytes / 1000, bare_ms: b, suite_ms: s, ratio: b / s };
});
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
const summary = {
  pages: pages.length,
  iterations,
  total_mb: totalBytes / 1e6,
  bare_mb_s: mbps(totalBytes, totalBare),
  suite_mb_s: mbps(totalBytes, totalSuite),
  ratio: totalBare / totalSuite,
  node: process.version,
};

if (asJson) {
  console.log(JSON.stringify({ summary, rows }, null, 2));
} else {
  console.log('| page | KB | bare parser median ms | full suite median ms | suite / bare throughput |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.page} | ${r.kb.toFixed(1)} | ${r.bare_ms.toFixed(2)} | ${r.suite_ms.toFixed(2)} | ${r.ratio.toFixed(2)} |`,
    );
  }
  console.log(
    `| **total** | ${(totalBytes / 1000).toFixed(0)} | ${totalBare.toFixed(1)} | ${totalSuite.toFixed(1)} | **${summary.ratio.toFixed(2)}** |`,
  );
  console.log('');
  console.log(
    `Bare htmlparser2 Parser: ${summary.bare_mb_s.toFixed(1)} MB/s; full suite (artifacts + ${'all'} checks + scoring): ` +
      `${summary.suite_mb_s.toFixed(1)} MB/s; ratio ${summary.ratio.toFixed(2)} (target ≥ 0.50). ` +
      `${pages.length} pages, ${iterations} interleaved iterations after ${WARMUP} warm-up rounds, medians per page, Node ${process.version}.`,
  );
}
if (sink === -1) console.log(sink);
