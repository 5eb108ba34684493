// Benchmark: whole-site batches (docs/sites.md) on a generated loopback site — pages audited per
// second and peak RSS, with politeness off (no delay, 8 requests at once: as many as a worker
// process audits) and on (the defaults: 250 ms between requests, 2 at once), at 0 ms and 50 ms of
// server latency; and the peak RSS of a 10,000-page batch. The baseline of the same run:
// analyze() called directly on the same pages, 8 at a time, no batch, no store.
//
//   npx tsx bench/sites.ts [--pages 1000] [--polite-pages 100] [--big 10000] [--skip-big] [--cpu-prof DIR]
//
// The site (this process, 127.0.0.1): /sitemap.xml lists /p/0 … /p/N-1; each page is a
// complete article (~14 kB) linking to 20 others; /robots.txt allows all and names the sitemap;
// /favicon.ico; anything else is a 404 page. Every answer waits the latency first. Each scenario
// runs in its own process (bench/lib/sites-worker.ts) so its peak RSS (getrusage) is its own.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distIsCurrent } from '../scripts/dist-state.cjs';
import { gardenPage as page, startBenchSite } from './lib/bench-site.js';
import { writeWorkerScript } from './lib/worker-script.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const PAGES = flag('--pages', 1000);
const POLITE_PAGES = flag('--polite-pages', 100);
const BIG = flag('--big', 10_000);
const SKIP_BIG = args.includes('--skip-big');
/** --cpu-prof DIR: each measured process writes a V8 CPU profile there (where the time goes) */
const CPU_PROF = args.includes('--cpu-prof') ? args[args.indexOf('--cpu-prof') + 1]! : null;

interface Result {
  pages: number;
  failed: number;
  ms: number;
  /** the measured process's CPU (user + system) for its pages, ms */
  cpuMs: number;
  maxRssKb: number;
}

// The measured process runs as `npm start` does: the compiled build under plain node (the worker
// file's types stripped by esbuild into a temporary .mjs, bench/lib/worker-script.ts), or, without a current build, the
// sources through tsx (whose loader alone adds ~45 MB to the RSS: said in the output).
const workerTs = fileURLToPath(new URL('./lib/sites-worker.ts', import.meta.url));
const COMPILED = distIsCurrent();
const tmp = mkdtempSync(join(tmpdir(), 'pagegrade-bench-sites-worker-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const worker = COMPILED ? join(tmp, 'sites-worker.mjs') : workerTs;
if (COMPILED) writeWorkerScript(workerTs, worker);
const ROOT = pathToFileURL(fileURLToPath(new URL(COMPILED ? '../dist/' : '../src/', import.meta.url))).href;
console.error(
  COMPILED
    ? 'measured processes: node on dist/ (as npm start)'
    : 'measured processes: the sources through tsx (no current dist/: run `npm run build` for figures as npm start runs; the tsx loader adds ~45 MB RSS)',
);

function run(env: Record<string, string>): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(worker, [], {
      execArgv: [
        ...(COMPILED ? [] : ['--import', 'tsx']),
        ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []),
      ],
      env: { ...process.env, SITES_ROOT: ROOT, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: Result | null = null;
    child.on('message', (m: { type: string } & Result) => {
      if (m.type === 'result') result = m;
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`the worker exited (${code})`))));
  });
}

interface Row {
  scenario: string;
  latency: number;
  r: Result;
}
const rows: Row[] = [];
const rate = (r: Result) => (r.pages / r.ms) * 1000;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

async function scenario(name: string, latency: number, pages: number, env: Record<string, string>) {
  // /p/0 … /p/N-1, all in the sitemap
  const total = Math.max(pages, PAGES);
  const site = await startBenchSite({
    page: (path) => {
      const m = /^\/p\/(\d+)$/.exec(path);
      return m && Number(m[1]) < total ? page(Number(m[1]), total) : null;
    },
    sitemapPaths: () => Array.from({ length: total }, (_, i) => `/p/${i}`),
    latencyMs: latency,
  });
  try {
    const r = await run({ SITES_ORIGIN: site.origin, SITES_PAGES: String(pages), ...env });
    rows.push({ scenario: name, latency, r });
    console.error(
      `${name}, ${latency} ms: ${r.pages} pages (${r.failed} failed) in ${(r.ms / 1000).toFixed(1)} s = ${rate(r).toFixed(1)} pages/s, CPU ${(r.cpuMs / r.pages).toFixed(2)} ms a page, peak RSS ${mb(r.maxRssKb)}`,
    );
  } finally {
    await site.close();
  }
}

const OFF = { SITES_MODE: 'batch', SITES_DELAY_MS: '0', SITES_CONCURRENCY: '8' };
const ON = { SITES_MODE: 'batch', SITES_DELAY_MS: '250', SITES_CONCURRENCY: '2' };
for (const latency of [0, 50]) {
  await scenario('baseline: analyze() direct, 8 at a time', latency, PAGES, { SITES_MODE: 'direct' });
  await scenario('batch, politeness off (delay 0, 8 at a time)', latency, PAGES, OFF);
  await scenario('batch, politeness on (defaults: 250 ms, 2 at a time)', latency, POLITE_PAGES, ON);
}
if (!SKIP_BIG) await scenario(`batch of ${BIG} pages, politeness off`, 0, BIG, OFF);

console.log(`\n| scenario | latency | pages | pages/s | vs baseline | peak RSS |`);
console.log(`|---|---:|---:|---:|---:|---:|`);
for (const row of rows) {
  const base = rows.find((b) => b.latency === row.latency && b.scenario.startsWith('baseline'));
  const ratio =
    base && !row.scenario.startsWith('baseline') ? `${(rate(row.r) / rate(base.r)).toFixed(2)}×` : '1.00×';
  console.log(
    `| ${row.scenario} | ${row.latency} ms | ${row.r.pages}${row.r.failed ? ` (+${row.r.failed} failed)` : ''} | ${rate(row.r).toFixed(1)} | ${ratio} | ${mb(row.r.maxRssKb)} |`,
  );
}
