// Benchmark: a full audit of a real page served on 127.0.0.1, against the page's slowest single
// fetch, and the peak RSS of 20 concurrent audits.
//
//   npx tsx bench/audit-loopback.ts [corpus-file.html] [--runs N]
//
// The page comes from ../shared/corpus/pages (relative to the repo root; never copied into the
// repo). The server answers /, /robots.txt (with a Sitemap: line), /sitemap.xml, /favicon.ico
// and 404s, each after a fixed delay: 0 ms (raw loopback) and 50 ms (a nearby server), since on
// raw loopback a fetch takes about a millisecond and the ratio only measures the parsing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from 'undici';
import { fetchPage } from '../src/analyzer/fetch/index.js';
import { startBenchSite } from './lib/bench-site.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const RUNS = runsFlag !== -1 ? Number(args[runsFlag + 1]) : 15;
const file = args.find((a, i) => a.endsWith('.html') && args[i - 1] !== '--runs') ?? 'hpb-bbc-news-2013.html';
const root = fileURLToPath(new URL('..', import.meta.url));
const pageHtml = readFileSync(join(root, '../shared/corpus/pages', file));
const CONCURRENT = 20;

type Audit = (url: string) => Promise<unknown>;
let audit: Audit;
let auditName = 'analyze()';
try {
  const { analyze } = await import('../src/analyzer/index.js');
  audit = (url) => analyze(url, { allowPrivateHosts: true });
} catch (err) {
  auditName = 'fetchPage() (analyze() not available)';
  console.error(`analyze() could not be loaded (${String(err)}); timing fetchPage() instead`);
  audit = (url) => fetchPage(url, { allowPrivateHosts: true });
}

async function plainGet(origin: string, path: string): Promise<number> {
  const client = new Client(origin);
  const t0 = performance.now();
  const res = await client.request({ path, method: 'GET', headers: { 'accept-encoding': 'identity' } });
  await res.body.arrayBuffer();
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

const rows: string[] = [];
for (const latency of [0, 50]) {
  // / is the page; the sitemap lists 200 pages that are not there (only their count matters)
  const site = await startBenchSite({
    page: (path) => (path === '/' ? pageHtml : null),
    sitemapPaths: () => Array.from({ length: 200 }, (_, i) => `/page-${i}`),
    robotsRules: 'User-agent: *\nDisallow: /private/',
    pageHeaders: { 'cache-control': 'max-age=60' },
    latencyMs: latency,
  });
  const { origin } = site;
  const url = `${origin}/`;
  // warm up both paths: a running service has audited pages before (JIT-compiled checks), so
  // the timed audits are those of a warm process
  for (let i = 0; i < 25; i++) {
    await plainGet(origin, '/');
    await audit(url);
  }
  const paths = ['/', '/robots.txt', '/sitemap.xml', '/pagegrade-404-check-0123456789abcdef', '/favicon.ico'];
  const singles: Record<string, number> = {};
  for (const p of paths) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await plainGet(origin, p));
    singles[p] = median(times);
  }
  const [slowestPath, slowest] = Object.entries(singles).sort((a, b) => b[1] - a[1])[0]!;
  const auditTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await audit(url);
    auditTimes.push(performance.now() - t0);
  }
  const auditMs = median(auditTimes);
  const fetchTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fetchPage(url, { allowPrivateHosts: true });
    fetchTimes.push(performance.now() - t0);
  }
  const fetchMs = median(fetchTimes);

  // 20 concurrent audits: wall time and peak RSS (sampled every 5 ms)
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, () => audit(url)));
  const wall = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);

  rows.push(
    `| ${latency} ms | ${slowest.toFixed(1)} ms (${slowestPath}) | ${fetchMs.toFixed(1)} ms (${(fetchMs / slowest).toFixed(2)}x) | ${auditMs.toFixed(1)} ms | ${(auditMs / slowest).toFixed(2)}x | ${wall.toFixed(0)} ms | ${(peak / 1048576).toFixed(0)} MB (+${((peak - rssBefore) / 1048576).toFixed(0)} MB) |`,
  );
  await site.close();
}

console.log(
  `\nPage: ${file} (${(pageHtml.length / 1024).toFixed(0)} KB), ${RUNS} runs each, medians; audit = ${auditName}\n`,
);
console.log(
  `| server delay | slowest single fetch (plain undici GET) | fetchPage() alone (ratio) | full audit | ratio (target ≤ 1.2x) | ${CONCURRENT} concurrent audits | peak RSS (${CONCURRENT} concurrent) |`,
);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
