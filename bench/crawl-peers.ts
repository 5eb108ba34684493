// Benchmark (issue 24 §4): the crawler side by side with its peers, on one generated loopback
// site of 1,001 pages (/ and /p/0 … /p/999, each a ~14 kB article linking to 20 others; the site
// of bench/sites.ts with a home page), N requests at a time, at 0 ms and 50 ms per answer:
//
//   - Pagegrade: a whole-site batch (mode crawl, from /) through the real services and the
//     embedded job engine on a fresh SQLite file, politeness off (delay 0, N pages in flight),
//     every check run and every report stored — as `npm start` runs it (bench/lib/sites-worker.ts);
//   - linkinator (devDependency, pinned: the last release that runs on Node 20), its API with
//     `recurse` and `concurrency: N` — the crawl of `npx linkinator URL --recurse --concurrency N`
//     (bench/lib/peer-linkinator.mjs): a link check, no audit;
//   - a bare undici GET loop over the 1,001 known URLs, N at a time, one keep-alive Agent
//     (bench/lib/peer-bare.mjs): the floor.
//
// Each run is a process of its own (peak RSS from getrusage); the site, in this process, counts
// the TCP connections each run opens. Rounds are interleaved (each round runs every tool at every
// latency, the order turning from round to round) so that a change of load hits all alike.
//
//   npx tsx bench/crawl-peers.ts [--rounds 3] [--pages 1001] [--concurrency 8] [--latency 0,50]
//                                [--only pagegrade|linkinator|bare] [--cpu-prof DIR]
import { fork } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distIsCurrent } from '../scripts/dist-state.cjs';
import { gardenPage, startBenchSite } from './lib/bench-site.js';
import { summarise } from './lib/profile-summary.js';
import { writeWorkerScript } from './lib/worker-script.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1]!;
};
const ROUNDS = Number(opt('--rounds', '3'));
const PAGES = Number(opt('--pages', '1001'));
const CONCURRENCY = Number(opt('--concurrency', '8'));
const LATENCIES = opt('--latency', '0,50').split(',').map(Number);
const ONLY = opt('--only', '');
const CPU_PROF = args.includes('--cpu-prof') ? opt('--cpu-prof', '') : null;

type Tool = 'pagegrade' | 'linkinator' | 'bare';
const TOOLS: Tool[] = (['pagegrade', 'linkinator', 'bare'] as const).filter((t) => !ONLY || t === ONLY);

interface Result {
  pages: number;
  failed?: number;
  broken?: number;
  links?: number;
  ms: number;
  /** CPU time (user + system) of the measured process during the crawl */
  cpuMs: number;
  maxRssKb: number;
}
interface Run {
  tool: Tool;
  latency: number;
  round: number;
  r: Result;
  connections: number;
  requests: number;
  /** requests in flight at once, at most (the concurrency asked for is CONCURRENCY) */
  inFlight: number;
  load: number;
}

// Pagegrade's measured process runs as `npm start` does (bench/sites.ts does the same)
const workerTs = fileURLToPath(new URL('./lib/sites-worker.ts', import.meta.url));
const COMPILED = distIsCurrent();
const tmp = mkdtempSync(join(tmpdir(), 'pagegrade-bench-peers-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const pagegradeWorker = COMPILED ? join(tmp, 'sites-worker.mjs') : workerTs;
if (COMPILED) writeWorkerScript(workerTs, pagegradeWorker);
const ROOT = pathToFileURL(fileURLToPath(new URL(COMPILED ? '../dist/' : '../src/', import.meta.url))).href;
console.error(
  COMPILED
    ? 'Pagegrade: node on dist/ (as npm start)'
    : 'Pagegrade: the sources through tsx (no current dist/: run `npm run build` first; the tsx loader adds ~45 MB RSS)',
);
const peer = (file: string) => fileURLToPath(new URL(`./lib/${file}`, import.meta.url));

function run(tool: Tool, origin: string): Promise<Result> {
  const [file, execArgv, env]: [string, string[], Record<string, string>] =
    tool === 'pagegrade'
      ? [
          pagegradeWorker,
          [
            ...(COMPILED ? [] : ['--import', 'tsx']),
            ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []),
          ],
          {
            SITES_ROOT: ROOT,
            SITES_ORIGIN: origin,
            SITES_PAGES: String(PAGES),
            SITES_MODE: 'batch',
            SITES_BATCH_MODE: 'crawl',
            SITES_DELAY_MS: '0',
            SITES_CONCURRENCY: String(CONCURRENCY),
          },
        ]
      : tool === 'linkinator'
        ? [peer('peer-linkinator.mjs'), [], { PEER_URL: `${origin}/`, PEER_CONCURRENCY: String(CONCURRENCY) }]
        : [
            peer('peer-bare.mjs'),
            [],
            { PEER_ORIGIN: origin, PEER_PAGES: String(PAGES), PEER_CONCURRENCY: String(CONCURRENCY) },
          ];
  return new Promise((resolve, reject) => {
    const child = fork(file, [], {
      execArgv,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: Result | null = null;
    child.on('message', (m: { type: string } & Result) => {
      if (m.type === 'result') result = m;
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`${tool} exited (${code})`))));
  });
}

const homePage = (
  total: number,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loopback Gardens</title>
<meta name="description" content="The balcony gardening guide of Loopback Gardens, in a thousand parts.">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Loopback Gardens</h1><ul>${Array.from({ length: 10 }, (_, i) => Math.floor((i * total) / 10))
  .map((n) => `<li><a href="/p/${n}">Guide ${n}</a></li>`)
  .join('')}</ul></body></html>`;

const runs: Run[] = [];
const rate = (r: Result) => (r.pages / r.ms) * 1000;
/** CPU ms a page: on a shared machine steadier than the wall time */
const cpuPage = (r: Result) => r.cpuMs / r.pages;
const mb = (kb: number) => Math.round(kb / 1024);

for (let round = 1; round <= ROUNDS; round++) {
  for (const latency of LATENCIES) {
    const total = PAGES - 1;
    const site = await startBenchSite({
      page: (path) => {
        if (path === '/') return homePage(total);
        const m = /^\/p\/(\d+)$/.exec(path);
        return m && Number(m[1]) < total ? gardenPage(Number(m[1]), total) : null;
      },
      sitemapPaths: () => ['/', ...Array.from({ length: total }, (_, i) => `/p/${i}`)],
      latencyMs: latency,
    });
    let connections = 0;
    let requests = 0;
    let open = 0;
    let inFlight = 0;
    site.server.on('connection', () => (connections += 1));
    site.server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      requests += 1;
      inFlight = Math.max(inFlight, ++open);
      res.once('close', () => (open -= 1));
    });
    try {
      // the order turns each round: no tool always runs first (or after the same one)
      const order = TOOLS.map((_, i) => TOOLS[(i + round - 1) % TOOLS.length]!);
      for (const tool of order) {
        connections = 0;
        requests = 0;
        inFlight = 0;
        const load = loadavg()[0]!;
        const r = await run(tool, site.origin);
        // the connections still open are the next run's to count anew
        site.server.closeAllConnections();
        runs.push({ tool, latency, round, r, connections, requests, inFlight, load });
        console.error(
          `round ${round}, ${latency} ms, ${tool}: ${r.pages} pages in ${(r.ms / 1000).toFixed(2)} s = ${rate(r).toFixed(1)} pages/s, CPU ${cpuPage(r).toFixed(2)} ms a page, ${requests} requests (${inFlight} at once at most) over ${connections} connections, peak RSS ${mb(r.maxRssKb)} MB (load ${load.toFixed(1)})${r.failed ? `, ${r.failed} failed` : ''}${r.broken ? `, ${r.broken} broken` : ''}`,
        );
      }
    } finally {
      await site.close();
    }
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const range = (xs: number[], f: (x: number) => string) =>
  xs.length > 1 ? `${f(Math.min(...xs))}–${f(Math.max(...xs))}` : f(xs[0]!);

console.log(
  `\n${PAGES} pages, ${CONCURRENCY} at a time, ${ROUNDS} interleaved rounds, ${cpus().length} cores, load ${range(
    runs.map((x) => x.load),
    (x) => x.toFixed(1),
  )}${COMPILED ? '' : ' (Pagegrade from the sources through tsx)'}\n`,
);
console.log(
  '| latency | tool | time (median; range) | pages/s (median) | CPU a page (median; range) | requests | at once, at most | connections | peak RSS |',
);
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (const latency of LATENCIES) {
  for (const tool of TOOLS) {
    const mine = runs.filter((x) => x.latency === latency && x.tool === tool);
    if (mine.length === 0) continue;
    const secs = mine.map((x) => x.r.ms / 1000);
    console.log(
      `| ${latency} ms | ${tool} | ${median(secs).toFixed(2)} s (${range(secs, (x) => x.toFixed(2))}) | ${median(mine.map((x) => rate(x.r))).toFixed(1)} | ${median(mine.map((x) => cpuPage(x.r))).toFixed(2)} ms (${range(
        mine.map((x) => cpuPage(x.r)),
        (x) => x.toFixed(2),
      )}) | ${range(
        mine.map((x) => x.requests),
        String,
      )} | ${range(
        mine.map((x) => x.inFlight),
        String,
      )} | ${range(
        mine.map((x) => x.connections),
        String,
      )} | ${range(
        mine.map((x) => mb(x.r.maxRssKb)),
        String,
      )} MB |`,
    );
  }
}

// ratios, per round (the runs of one round shared the machine's state) and their median
if (TOOLS.length === 3) {
  console.log('\n| latency | Pagegrade ÷ linkinator pages/s (target) | Pagegrade ÷ bare time (target) |');
  console.log('|---:|---:|---:|');
  for (const latency of LATENCIES) {
    const vsLink: number[] = [];
    const vsBare: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const of = (tool: Tool) =>
        runs.find((x) => x.round === round && x.latency === latency && x.tool === tool)!.r;
      vsLink.push(rate(of('pagegrade')) / rate(of('linkinator')));
      vsBare.push(of('pagegrade').ms / of('bare').ms);
    }
    const [tl, tb] = latency === 0 ? ['≥ 0.5×', '≤ 4×'] : ['≥ 1.0×', '≤ 1.15×'];
    console.log(
      `| ${latency} ms | ${median(vsLink).toFixed(2)}× (${range(vsLink, (x) => x.toFixed(2))}) (${tl}) | ${median(vsBare).toFixed(2)}× (${range(vsBare, (x) => x.toFixed(2))}) (${tb}) |`,
    );
  }
}

// --cpu-prof: where Pagegrade's time went, per profile written
if (CPU_PROF) {
  for (const f of readdirSync(CPU_PROF).filter((n) => n.endsWith('.cpuprofile')))
    console.log(`\n${f}\n\n${summarise(join(CPU_PROF, f), 30)}`);
}
