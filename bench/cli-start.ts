// Benchmark: how fast the `pagegrade` command starts and audits, as separate processes.
//
//   npm run build && npx tsx bench/cli-start.ts [--runs N] [corpus-file.html]
//
// Runs, interleaved, N times each (default 15): `node -e 0` (the baseline: Node's own start on
// this machine, measured in the same run), `pagegrade --help`, `pagegrade keys list` (a SQLite
// file with one user and one key), and `pagegrade audit URL --json` of a corpus page served on
// 127.0.0.1 (with robots.txt, a sitemap, a favicon and 404s, no delay) — over http, and over
// https with HTTP/2 (a throwaway certificate from openssl, trusted through NODE_EXTRA_CA_CERTS;
// left out, with the reason, without openssl). Reports the median wall
// time (spawn → exit) and the median peak RSS (getrusage maxRSS, written at exit by a CommonJS
// preload that every measured process gets, the baseline included: an ES module preload would
// start Node's module loader in every process) and the ratio of each to `node -e 0`.
// It runs bin/pagegrade.js as a user does: dist/ when it is current (npm run build), else the
// sources through tsx (the line says which).
// --lighthouse [PATH] (PATH default bench/lib/lighthouse.ts's, or PAGEGRADE_LIGHTHOUSE) also runs
// Lighthouse 12 on the same http page in the same rounds, as users run it (a CLI that launches its
// Chromium; `seo,best-practices`), --lighthouse-runs N times (default 5, the first N rounds),
// and reports the audit's time as a fraction of Lighthouse's (wall time, spawn → exit, both).
import { spawn } from 'node:child_process';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../test/helpers/fixture-server.js';
import { makeCert } from '../test/helpers/tls-cert.js';
import { distIsCurrent } from '../scripts/dist-state.cjs';
import { median } from './lib/stats.js';
import {
  DEFAULT_LIGHTHOUSE,
  leftLoopback,
  lighthouseChromeFlags,
  runLighthouse,
  startSink,
} from './lib/lighthouse.js';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt !== -1 ? Number(args[runsAt + 1]) : 15;
const file = args.find((a) => a.endsWith('.html')) ?? 'hpb-bbc-news-2013.html';
const lhAt = args.indexOf('--lighthouse');
const lighthouse =
  lhAt === -1
    ? null
    : args[lhAt + 1] && !args[lhAt + 1]!.startsWith('--')
      ? args[lhAt + 1]!
      : (process.env.PAGEGRADE_LIGHTHOUSE ?? DEFAULT_LIGHTHOUSE);
const lhRunsAt = args.indexOf('--lighthouse-runs');
const LH_RUNS = lhRunsAt !== -1 ? Number(args[lhRunsAt + 1]) : 5;
const CHROMIUM = process.env.PAGEGRADE_CHROMIUM_PATH ?? '/usr/bin/chromium';
if (lighthouse && !existsSync(lighthouse)) {
  console.error(
    `Lighthouse not found at ${lighthouse}: install it outside the repository (mkdir -p /work/lh && cd /work/lh && npm init -y && npm i lighthouse@12.8.2) or pass its cli/index.js`,
  );
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/pagegrade.js');
const probe = join(root, 'bench/lib/rss-probe.cjs');
const page = readFileSync(join(root, '../shared/corpus/pages', file));
const tmp = mkdtempSync(join(tmpdir(), 'pagegrade-cli-start-'));
const rssFile = join(tmp, 'rss');

const routes = {
  '/': { headers: { 'cache-control': 'max-age=60' }, body: page },
  '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private/\n' },
  '/sitemap.xml': {
    headers: { 'content-type': 'application/xml' },
    body: '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/</loc></url></urlset>',
  },
  '/favicon.ico': { headers: { 'content-type': 'image/x-icon' }, body: Buffer.alloc(1150) },
};
const site = await startFixtureServer(routes);

// the same site over https with HTTP/2 (as most sites are served), its certificate trusted by the
// audit's process only (NODE_EXTRA_CA_CERTS)
const cert = makeCert('IP:127.0.0.1');
const secure =
  typeof cert === 'string'
    ? null
    : createSecureServer({ ...cert, allowHTTP1: true }, (req, res) => {
        const r = routes[(req.url ?? '/') as keyof typeof routes];
        res.writeHead(r ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', ...r?.headers });
        res.end(r ? r.body : '<!doctype html><title>Not found</title>');
      });
if (secure) await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
if (typeof cert === 'string') console.log(`(no https case: ${cert})`);
else writeFileSync(join(tmp, 'ca.pem'), cert.cert);

const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(tmp, 'pagegrade.db')}`,
  PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
  PAGEGRADE_RSS_FILE: rssFile,
  LOG_LEVEL: 'silent',
};
delete env.PAGEGRADE_FROM_SOURCE;

interface Sample {
  ms: number;
  rssKb: number;
}

function run(argv: string[], expectCodes: number[] = [0], extraEnv: NodeJS.ProcessEnv = {}): Promise<Sample> {
  writeFileSync(rssFile, '');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', probe, ...argv], {
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (!expectCodes.includes(code ?? -1))
        return reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`));
      resolve({ ms, rssKb: Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) });
    });
  });
}

const cases: [string, string[], number[], NodeJS.ProcessEnv?][] = [
  ['node -e 0 (baseline)', ['-e', '0'], [0]],
  ['pagegrade --help', [bin, '--help'], [0]],
  ['pagegrade --version', [bin, '--version'], [0]],
  ['pagegrade keys list', [bin, 'keys', 'list'], [0]],
  // exit 1 is a "bad" result, a normal outcome of an audit
  [`pagegrade audit (${file}, loopback)`, [bin, 'audit', `${site.origin}/`, '--json'], [0, 1]],
];
if (secure)
  cases.push([
    `pagegrade audit (${file}, loopback, https + HTTP/2)`,
    [bin, 'audit', `https://127.0.0.1:${(secure.address() as AddressInfo).port}/`, '--json'],
    [0, 1],
    { NODE_EXTRA_CA_CERTS: join(tmp, 'ca.pem') },
  ]);

try {
  await run([bin, 'users', 'create', 'bench']);
  const samples = new Map<string, Sample[]>(cases.map(([name]) => [name, []]));
  for (const [, argv, codes, extra] of cases) await run(argv, codes, extra); // warm the file cache
  const sink = lighthouse ? await startSink() : null;
  const lhMs: number[] = [];
  const lhOwn: number[] = [];
  let lhLeft = 0;
  const lhOnce = async () => {
    const r = await runLighthouse({
      lighthouse: lighthouse!,
      chromium: CHROMIUM,
      url: `${site.origin}/`,
      chromeFlags: lighthouseChromeFlags(sink!.port),
    });
    if (r.runtimeError) throw new Error(`Lighthouse: ${r.runtimeError}`);
    lhLeft += leftLoopback(r).length;
    return r;
  };
  if (lighthouse) await lhOnce(); // warm its files too
  for (let i = 0; i < RUNS; i++) {
    for (const [name, argv, codes, extra] of cases) samples.get(name)!.push(await run(argv, codes, extra));
    if (lighthouse && i < LH_RUNS) {
      const r = await lhOnce();
      lhMs.push(r.ms);
      lhOwn.push(r.totalMs);
    }
  }
  await sink?.close();
  const base = samples.get(cases[0]![0])!;
  const baseMs = median(base.map((s) => s.ms));
  const baseKb = median(base.map((s) => s.rssKb));
  console.log(
    `bin/pagegrade.js runs ${distIsCurrent() ? 'dist/ (current build)' : 'the sources through tsx (dist/ missing or stale)'}`,
  );
  console.log(`${RUNS} runs each, interleaved; medians\n`);
  console.log('| command | wall time | × node -e 0 | peak RSS | × node -e 0 |');
  console.log('|---|--:|--:|--:|--:|');
  for (const [name] of cases) {
    const ms = median(samples.get(name)!.map((s) => s.ms));
    const kb = median(samples.get(name)!.map((s) => s.rssKb));
    console.log(
      `| ${name} | ${(ms / 1000).toFixed(3)} s | ${(ms / baseMs).toFixed(2)} | ${(kb / 1024).toFixed(0)} MB | ${(kb / baseKb).toFixed(2)} |`,
    );
  }
  if (lighthouse) {
    const lh = median(lhMs);
    const audit = median(samples.get(cases[4]![0])!.map((s) => s.ms));
    console.log(
      `| Lighthouse 12 (${file}, loopback; its own Chromium, seo + best-practices; ${lhMs.length} runs) | ${(lh / 1000).toFixed(3)} s (range ${(Math.min(...lhMs) / 1000).toFixed(1)}–${(Math.max(...lhMs) / 1000).toFixed(1)} s; its timing.total ${(median(lhOwn) / 1000).toFixed(3)} s) | ${(lh / baseMs).toFixed(1)} | | |`,
    );
    console.log(
      `\npagegrade audit over http: **1/${(lh / audit).toFixed(0)}** of Lighthouse's time (medians, same rounds); requests of Lighthouse's Chromium answered off loopback: ${lhLeft} (must be 0), connections its sink proxy took: ${sink!.connections()}`,
    );
  }
} finally {
  await site.close();
  if (secure) await new Promise((resolve) => secure.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
}
