// Benchmark: a large site on one machine (docs/sites.md, issue "Sites over time" §7). One
// process — the API and the embedded job engine's workers on SQLite, as `npm start` runs —
// crawls a generated N-page loopback site (default 100,000), politeness off, and the driver
// measures against baselines of the same run:
//
// - peak RSS of that process (getrusage) — target ≤ 400 MB;
// - pages/s of the last window (default 10,000 audited pages) against the first — target ≥ 0.8×
//   (the cost of a page stays flat as the batch grows);
// - the API's list (`GET /api/v1/reports?per_page=20`, 4 connections) p99 while the crawl runs,
//   against the same list's p99 once the crawl has ended (idle, with every report stored) —
//   target ≤ 2×.
//
//   npx tsx bench/sites-large.ts [--pages 100000] [--window 10000] [--load-s 10] [--only one|split]
//     [--worker-nice N]   (split: the worker process at nice N, docs/jobs.md)
//
// The site (this process, 127.0.0.1): `/` links to /p/0 … /p/19; /p/i is the ~14 kB article of
// bench/sites.ts linking to 20 others, so a crawl reaches every page within a few levels; its
// sitemap lists `/` alone (the crawl finds the pages by their links, the frontier's work).
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { distIsCurrent } from '../scripts/dist-state.cjs';
import { startBenchSite } from './lib/bench-site.js';
import { measure, type Measurement } from './lib/load.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const PAGES = flag('--pages', 100_000);
const WINDOW = Math.min(flag('--window', 10_000), Math.floor(PAGES / 2));
const LOAD_S = flag('--load-s', 10);
/** --only one | split: one topology alone (each 100,000-page crawl takes a while) */
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
/** --worker-nice N: the worker process (split) at this priority, as docs/jobs.md advises (default 0) */
const WORKER_NICE = flag('--worker-nice', 0);

const PARAGRAPH =
  'Balcony gardens reward patience: a south-facing rail gives tomatoes the sun they need, while herbs such as mint and parsley prefer the morning light and a deep pot that keeps their roots cool through the afternoon. ';
const links = (i: number) =>
  Array.from({ length: 20 }, (_, k) => (i * 31 + k * 7 + 1) % PAGES)
    .map((n) => `<li><a href="/p/${n}">Guide ${n}: containers, soil and light</a></li>`)
    .join('\n');
function page(i: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Balcony gardening guide ${i} — Loopback Gardens</title>
<meta name="description" content="Part ${i} of the balcony gardening guide: what to grow, which containers to pick, how much light and water each plant needs.">
<link rel="canonical" href="/p/${i}">
<link rel="icon" href="/favicon.ico">
</head><body>
<header><nav><a href="/">Home</a> <a href="/p/0">Start</a></nav></header>
<main><h1>Balcony gardening guide, part ${i}</h1>
${Array.from({ length: 40 }, (_, k) => `<p>${PARAGRAPH}(${i}.${k})</p>`).join('\n')}
<img src="/favicon.ico" alt="A small logo" width="16" height="16">
<h2>Read next</h2><ul>${links(i)}</ul></main>
<footer><p>Loopback Gardens</p></footer>
</body></html>`;
}
const home = page(0).replace(
  /<h2>Read next<\/h2><ul>[\s\S]*<\/ul>/,
  `<ul>${links(-1 + PAGES) /* 20 links */}</ul>`,
);

// the measured process runs the compiled build when it is current (as npm start), else tsx
const workerTs = fileURLToPath(new URL('./lib/sites-large-worker.ts', import.meta.url));
const COMPILED = distIsCurrent();
const tmp = mkdtempSync(join(tmpdir(), 'pagegrade-bench-large-worker-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const worker = COMPILED ? join(tmp, 'sites-large-worker.mjs') : workerTs;
if (COMPILED)
  writeFileSync(worker, transformSync(readFileSync(workerTs, 'utf8'), { loader: 'ts', format: 'esm' }).code);
const ROOT = pathToFileURL(fileURLToPath(new URL(COMPILED ? '../dist/' : '../src/', import.meta.url))).href;
console.error(
  COMPILED ? 'measured process: node on dist/ (as npm start)' : 'measured process: sources through tsx',
);

const site = await startBenchSite({
  page: (path) => {
    if (path === '/') return home;
    const m = /^\/p\/(\d+)$/.exec(path);
    return m && Number(m[1]) < PAGES ? page(Number(m[1])) : null;
  },
  sitemapPaths: () => ['/'],
});

interface Progress {
  audited: number;
  t: number;
}
interface Done {
  status: string;
  error: string | null;
  audited: number;
  failed: number;
  skipped: number;
  ms: number;
}
interface Proc {
  ready: Promise<{ port?: number; key?: string }>;
  rssKb: Promise<number>;
  quit(): void;
}
type Message = { type: string; port?: number; key?: string; audited?: number; t?: number; maxRssKb?: number };

function start(role: 'all' | 'api' | 'worker', db: string | null, on: (m: Message) => void): Proc {
  let ready!: (v: { port?: number; key?: string }) => void;
  let rss!: (kb: number) => void;
  const readyP = new Promise<{ port?: number; key?: string }>((r) => (ready = r));
  const rssKb = new Promise<number>((r) => (rss = r));
  const child = fork(worker, [], {
    execArgv: COMPILED ? [] : ['--import', 'tsx'],
    env: {
      ...process.env,
      SITES_ROOT: ROOT,
      SITES_ORIGIN: site.origin,
      SITES_PAGES: String(PAGES),
      SITES_ROLE: role,
      ...(db ? { SITES_DB: db } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (role === 'worker' && WORKER_NICE !== 0) setPriority(child.pid!, WORKER_NICE);
  child.on('message', (m: Message) => {
    if (m.type === 'ready') ready({ ...(m.port ? { port: m.port, key: m.key! } : {}) });
    else if (m.type === 'result') rss(m.maxRssKb!);
    else on(m);
  });
  child.on('exit', (code) => {
    if (code !== 0) {
      console.error(`the measured ${role} process exited (${code})`);
      process.exit(1);
    }
  });
  return { ready: readyP, rssKb, quit: () => child.send({ type: 'quit' }) };
}

/** One crawl of the site: API and workers in one process, or an API process and a worker process. */
async function scenario(topology: 'one process' | 'API + worker processes') {
  const progress: Progress[] = [];
  let done: Done | null = null;
  let finished!: () => void;
  const finishedP = new Promise<void>((r) => (finished = r));
  const on = (m: Message) => {
    if (m.type === 'progress') progress.push({ audited: m.audited!, t: m.t! });
    if (m.type === 'done') {
      done = m as unknown as Done;
      finished();
    }
  };
  const dbDir = mkdtempSync(join(tmpdir(), 'pagegrade-bench-large-db-'));
  const split = topology !== 'one process';
  const api = start(split ? 'api' : 'all', split ? join(dbDir, 'pagegrade.db') : null, on);
  const { port, key } = await api.ready;
  const workerProc = split ? start('worker', join(dbDir, 'pagegrade.db'), on) : null;
  const list = {
    name: 'GET /api/v1/reports?per_page=20',
    paths: ['/api/v1/reports?per_page=20', '/api/v1/reports?per_page=20&sort_by=score'],
    headers: { authorization: `Bearer ${key}` },
  };
  const load = (): Promise<Measurement> =>
    measure(list, { origins: [`http://127.0.0.1:${port}`], connections: 4, durationS: LOAD_S, warmupS: 1 });
  // during: a load run once half the pages are audited
  let during: Measurement | null = null;
  const half = (async () => {
    while (!done && (progress.at(-1)?.audited ?? 0) < PAGES / 2) await new Promise((r) => setTimeout(r, 500));
    if (!done) during = await load();
  })();
  await finishedP;
  await half;
  const idle = await load();
  api.quit();
  workerProc?.quit();
  const rss = [await api.rssKb, ...(workerProc ? [await workerProc.rssKb] : [])];
  rmSync(dbDir, { recursive: true, force: true });
  report(topology, done!, progress, rss, during, idle);
}

/** when the audited count first reached n (ms from the start), interpolated between samples */
function timeAt(progress: Progress[], n: number): number {
  const i = progress.findIndex((p) => p.audited >= n);
  if (i <= 0) return progress[Math.max(0, i)]?.t ?? 0;
  const a = progress[i - 1]!;
  const b = progress[i]!;
  return a.t + ((b.t - a.t) * (n - a.audited)) / Math.max(1, b.audited - a.audited);
}
function report(
  topology: string,
  done: Done,
  progress: Progress[],
  rssKb: number[],
  during: Measurement | null,
  idle: Measurement,
): void {
  const maxRssKb = Math.max(...rssKb);
  console.log(
    `\n### ${topology}${WORKER_NICE !== 0 && topology !== 'one process' ? ` (the worker at nice ${WORKER_NICE})` : ''}`,
  );
  const total = done.audited;
  const firstRate = (WINDOW / (timeAt(progress, WINDOW) - timeAt(progress, 0))) * 1000;
  const lastRate = (WINDOW / (timeAt(progress, total) - timeAt(progress, total - WINDOW))) * 1000;
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

  console.log(
    `\n${PAGES}-page crawl: ${done.status}${done.error ? ` (${done.error})` : ''}, ${total} audited, ${done.failed} failed, ${done.skipped} skipped in ${(done.ms / 1000).toFixed(0)} s (${((total / done.ms) * 1000).toFixed(1)} pages/s)\n`,
  );
  console.log('| measure | figure | baseline | ratio | target |');
  console.log('|---|---:|---:|---:|---|');
  console.log(
    `| peak RSS (${rssKb.map(mb).join(' + ')}: the largest) | ${mb(maxRssKb)} | – | – | ≤ 400 MB: ${maxRssKb / 1024 <= 400 ? 'met' : 'missed'} |`,
  );
  const flat = lastRate / firstRate;
  console.log(
    `| pages/s of the last ${WINDOW} vs the first ${WINDOW} | ${lastRate.toFixed(1)} | ${firstRate.toFixed(1)} | ${flat.toFixed(2)}× | ≥ 0.8×: ${flat >= 0.8 ? 'met' : 'missed'} |`,
  );
  if (during) {
    const d = during;
    const r = d.p99 / Math.max(1, idle.p99);
    console.log(
      `| list p99 during the crawl vs idle (ms) | ${d.p99} | ${idle.p99} | ${r.toFixed(2)}× | ≤ 2×: ${r <= 2 ? 'met' : 'missed'} |`,
    );
  } else console.log('| list p99 during the crawl | not measured: the crawl ended before half | | | |');
}

if (ONLY !== 'split') await scenario('one process');
if (ONLY !== 'one') await scenario('API + worker processes');
await site.close();
process.exit(0);
