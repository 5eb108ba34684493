// Rendered audits against Lighthouse 12 (issue 11): wall time per page and peak memory of the
// whole process tree, Pagegrade's warm render pool next to Lighthouse (`seo,best-practices`,
// the same Chromium, the same pages) in the same run, plus the raw audit of the same pages.
//
//   npx tsx bench/render.ts [--pages N] [--rounds R] [--lighthouse PATH] [--chrome-path PATH]
//                           [--no-persistent]
//
// The corpus pages (../shared/corpus/pages, never copied into the repo) are served by a loopback
// server in this process, each at /<file> with robots.txt, a sitemap, a favicon and 404s.
// External hosts are unreachable on both sides and nothing but 127.0.0.1 is ever contacted:
//   - Pagegrade: the audit runs in a forked child (its own process tree: node + Chromium) through
//     the real path (auditPage → analyze → Renderer.render). The renderer's guard is on: its DNS
//     resolves only the fixture host and refuses every other name, every address is refused, and
//     only the fixture's host:port is opened (allowHosts). Its proxy is the renderer's own sink.
//   - Lighthouse (not a dependency: installed apart, found by --lighthouse or PAGEGRADE_LIGHTHOUSE,
//     default /work/lh/node_modules/lighthouse/cli/index.js; missing → only Pagegrade is measured)
//     runs as `node cli/index.js URL --only-categories=seo,best-practices --output json` with
//     CHROME_PATH set, and Chromium flags mapping every host name to NOTFOUND except 127.0.0.1
//     and a proxy that is a sink in this process (accepts, records the first line, closes,
//     forwards nothing). Its report's network-requests are checked: a request to a host other than
//     127.0.0.1 that got an answer would be counted (must be 0).
// Lighthouse is run as users run it (Chrome launched per page) and, unless --no-persistent, also
// against a Chromium launched once by this bench (`--port`). One page at a time on every side;
// pages and sides are interleaved so that load changes hit all of them alike.
// Memory: every ~50 ms, RSS and Pss summed over the side's process tree (/proc), peak kept.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { analyze } from '../src/analyzer/index.js';
import type { AnalyzeFn } from '../src/services/shared/config.js';
import { startBenchSite } from './lib/bench-site.js';
import { treeMemKb, type TreeMem } from './lib/tree-mem.js';
import {
  DEFAULT_LIGHTHOUSE,
  leftLoopback,
  lighthouseChromeFlags,
  runLighthouse,
  startSink,
  type LighthouseRun,
} from './lib/lighthouse.js';
import { median } from './lib/stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// ../shared/corpus/pages beside the repository (or beside the folder holding a worktree of it)
const corpus =
  [join(root, '..', 'shared', 'corpus', 'pages'), join(root, '..', '..', 'shared', 'corpus', 'pages')].find(
    (d) => existsSync(d),
  ) ?? join(root, '..', 'shared', 'corpus', 'pages');
const args = process.argv.slice(2);
const num = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]) || fallback;
};
const str = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : (args[i + 1] ?? fallback);
};
const CHROMIUM = str('--chrome-path', process.env.PAGEGRADE_CHROMIUM_PATH ?? '/usr/bin/chromium');

/** The bench's DNS: only the fixture host (127.0.0.1) resolves; every other name is unknown. */
function loopbackOnlyLookup(fixtureHost: string, refusedNames?: Set<string>) {
  return async (hostname: string): Promise<{ address: string; family: number }[]> => {
    if (hostname === fixtureHost) return [{ address: '127.0.0.1', family: 4 }];
    refusedNames?.add(hostname);
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
}

// ---------------------------------------------------------------------------------------------
// The Pagegrade side: a forked child (`--child ORIGIN`), driven over IPC.
// ---------------------------------------------------------------------------------------------
interface AuditRequest {
  type: 'audit';
  url: string;
  render: boolean;
}
interface AuditAnswer {
  type: 'audited';
  ms: number;
  status: string;
  timings: Record<string, number> | null;
  requests: number;
  refused: number;
}

async function child(origin: string): Promise<void> {
  const { configFromEnv } = await import('../src/config.js');
  const { Renderer } = await import('../src/render/browser.js');
  const { auditPage } = await import('../src/services/audit/audit.js');
  type Ctx = Parameters<typeof auditPage>[0];
  const fixture = new URL(origin);
  // the fetcher reaches the fixture (a loopback address) and, with this DNS, nothing else
  const config = configFromEnv({ LOG_LEVEL: 'silent', PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1' });
  const refusedNames = new Set<string>();
  const lookup = loopbackOnlyLookup(fixture.hostname, refusedNames);
  const renderer = new Renderer({
    executablePath: CHROMIUM,
    concurrency: config.renderConcurrency,
    timeoutMs: config.renderTimeoutMs,
    maxRequests: config.renderMaxRequests,
    maxBytes: config.renderMaxBytes,
    // the guard on: only the fixture's host:port is opened; every other name fails in this DNS
    // and every address (an IP literal in a URL) is refused, so no connection leaves loopback
    network: {
      allowPrivateHosts: false,
      allowHosts: [`${fixture.hostname}:${fixture.port}`],
      lookup,
      classifyAddress: () => 'the benchmark reaches only its loopback fixture',
    },
    userAgent: 'Pagegrade-bench',
  });
  const benchAnalyze: AnalyzeFn = (url, options) => analyze(url, { ...options, lookup });
  // auditPage reads only the configuration, the analyzer and the renderer of its context
  const ctx = { config, analyze: benchAnalyze, renderer, now: () => new Date() } as unknown as Ctx;
  await renderer.warm();
  process.on('message', (m: AuditRequest | { type: 'stop' }) => {
    if (m.type === 'stop') {
      void renderer.close().finally(() => {
        process.send!(
          {
            type: 'stopped',
            sinkConnections: renderer.sinkConnections,
            sinkRequests: renderer.sinkRequests,
            refusedNames: refusedNames.size,
          },
          () => process.exit(0),
        );
      });
      return;
    }
    void (async () => {
      const t0 = performance.now();
      const report = await auditPage(ctx, m.url, { render: m.render, userId: null });
      const ms = performance.now() - t0;
      const r = report.render;
      const answer: AuditAnswer = {
        type: 'audited',
        ms,
        status: r ? r.status : 'raw',
        timings: r ? (r.timings as unknown as Record<string, number>) : null,
        requests: r?.requests ?? 0,
        refused: r?.refused_count ?? 0,
      };
      if (r && r.status !== 'completed') answer.status = `${r.status}: ${r.reason ?? ''}`;
      process.send!(answer);
    })();
  });
  process.send!({ type: 'ready' });
}

if (args[0] === '--child') {
  await child(args[1]!);
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------
// The orchestrator.
// ---------------------------------------------------------------------------------------------

interface Side {
  name: string;
  times: number[];
  peakRss: number;
  peakPss: number;
  roots: number[];
  /** the tree's Pss by kind of process when its Pss peaked */
  peakKinds: TreeMem['kinds'];
}

function newSide(name: string): Side {
  return { name, times: [], peakRss: 0, peakPss: 0, roots: [], peakKinds: new Map() };
}

async function main(): Promise<void> {
  const { descendants } = await import('../src/render/browser.js');
  const PAGES = num('--pages', 27);
  const ROUNDS = num('--rounds', 2);
  const PERSISTENT = !args.includes('--no-persistent');
  const lhPath = str('--lighthouse', process.env.PAGEGRADE_LIGHTHOUSE ?? DEFAULT_LIGHTHOUSE);
  const haveLighthouse = existsSync(lhPath);
  if (!existsSync(CHROMIUM)) {
    console.error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
    process.exit(2);
  }
  if (!haveLighthouse) {
    console.log(
      `Lighthouse not found at ${lhPath}: measuring Pagegrade only. Install it outside the repo ` +
        '(mkdir -p /work/lh && cd /work/lh && npm init -y && npm i lighthouse@12) and pass --lighthouse.',
    );
  }
  // N pages spread over the corpus by size (all 27 by default), smallest first
  const all = readdirSync(corpus)
    .filter((n) => n.endsWith('.html'))
    .map((n) => ({ n, size: statSync(join(corpus, n)).size }))
    .sort((a, b) => a.size - b.size || a.n.localeCompare(b.n));
  const count = Math.min(PAGES, all.length);
  const names = [
    ...new Set(
      Array.from(
        { length: count },
        (_, i) => all[count === 1 ? 0 : Math.round((i * (all.length - 1)) / (count - 1))]!.n,
      ),
    ),
  ];
  const pages = new Map(names.map((n) => [`/${n}`, readFileSync(join(corpus, n))]));

  // the fixture: the corpus pages and the site files an audit asks for
  const site = await startBenchSite({
    page: (path) => pages.get(path) ?? null,
    sitemapPaths: () => names.map((n) => `/${n}`),
  });
  const { origin } = site;

  // Lighthouse's Chromium proxy: a sink that forwards nothing
  const sink = await startSink();
  const chromeFlags = lighthouseChromeFlags(sink.port);

  // memory sampling of every side's tree
  const sides: Side[] = [];
  const sampler = setInterval(() => {
    for (const s of sides) {
      if (s.roots.length === 0) continue;
      const m = treeMemKb(s.roots, descendants);
      s.peakRss = Math.max(s.peakRss, m.rss);
      if (m.pss > s.peakPss) {
        s.peakPss = m.pss;
        s.peakKinds = m.kinds;
      }
    }
  }, 50);

  // Pagegrade's child
  const pg = newSide('Pagegrade rendered (warm pool)');
  const raw = newSide('Pagegrade raw');
  const renderTimings: Record<string, number[]> = { load_ms: [], idle_ms: [], axe_ms: [], total_ms: [] };
  const statuses = new Map<string, number>();
  const pgChild: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child', origin], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waitFor = <T>(type: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMessage = (m: { type: string }) => {
        if (m.type === type) {
          pgChild.off('message', onMessage);
          pgChild.off('exit', onExit);
          resolve(m as T);
        }
      };
      const onExit = (code: number | null) => reject(new Error(`the Pagegrade child exited (${code})`));
      pgChild.on('message', onMessage);
      pgChild.once('exit', onExit);
    });
  const tStart = performance.now();
  await waitFor('ready');
  const pgStartMs = performance.now() - tStart;
  const auditOnce = async (url: string, render: boolean): Promise<AuditAnswer> => {
    pgChild.send({ type: 'audit', url, render } satisfies AuditRequest);
    return waitFor<AuditAnswer>('audited');
  };
  pg.roots = [pgChild.pid!];
  sides.push(pg);

  // Lighthouse
  const lh = newSide('Lighthouse 12 (Chrome per run, as users run it)');
  const lhp = newSide('Lighthouse 12 (persistent Chromium, --port)');
  const lhTotals: number[] = [];
  const lhpTotals: number[] = [];
  let leaked = 0;
  let lhRequests = 0;
  let lhNonLoopback = 0;
  let internalRedirects = 0;
  const lhErrors: string[] = [];
  let persistent: ChildProcess | null = null;
  let persistentDir = '';
  let persistentPort = 0;
  if (haveLighthouse && PERSISTENT) {
    persistentDir = mkdtempSync(join(tmpdir(), 'pagegrade-lh-'));
    persistentPort = await freePort();
    persistent = spawn(
      CHROMIUM,
      [
        ...chromeFlags,
        `--remote-debugging-port=${persistentPort}`,
        `--user-data-dir=${persistentDir}`,
        'about:blank',
      ],
      { stdio: 'ignore' },
    );
    await waitForDevtools(persistentPort);
  }

  /** One Lighthouse run: wall time, and what its report says (its own total, the network). */
  const lighthouse = async (url: string, side: Side, totals: number[], port: number | null) => {
    let run: LighthouseRun;
    try {
      run = await runLighthouse({
        lighthouse: lhPath,
        chromium: CHROMIUM,
        url,
        chromeFlags,
        port,
        onSpawn: (pid) => (side.roots = port !== null && persistent ? [pid, persistent.pid!] : [pid]),
      });
    } catch (err) {
      lhErrors.push((err as Error).message);
      return null;
    } finally {
      side.roots = persistent && port !== null ? [persistent.pid!] : [];
    }
    if (run.runtimeError) lhErrors.push(`${url}: ${run.runtimeError}`);
    totals.push(run.totalMs);
    for (const item of run.requests) {
      lhRequests++;
      let host = '';
      try {
        host = new URL(item.url).hostname;
      } catch {
        continue;
      }
      if (!/^(http|https):$/.test(new URL(item.url).protocol)) continue;
      if (host !== '127.0.0.1') {
        lhNonLoopback++;
        const status = item.statusCode ?? 0;
        // Chromium's own 307 "internal redirect" (an HSTS upgrade to https, made without any
        // network: 0 bytes) is listed with its status; the https request after it is what failed
        if (status >= 300 && status < 400 && !(item.transferSize ?? 0)) internalRedirects++;
      }
    }
    leaked += leftLoopback(run).length;
    return run.ms;
  };

  if (haveLighthouse) {
    sides.push(lh);
    if (persistent) {
      sides.push(lhp);
      lhp.roots = [persistent.pid!];
    }
  }
  sides.push(raw);
  raw.roots = [];

  // warm-up (not measured): one audit of each kind, one Lighthouse run of each kind
  const first = `${origin}/${names[0]}`;
  await auditOnce(first, true);
  await auditOnce(first, false);
  if (haveLighthouse) {
    await lighthouse(first, lh, [], null);
    if (persistent) await lighthouse(first, lhp, [], persistentPort);
  }
  pg.peakRss = 0;
  pg.peakPss = 0;
  lh.peakRss = lh.peakPss = lhp.peakRss = lhp.peakPss = 0;
  lhTotals.length = lhpTotals.length = 0;
  leaked = lhRequests = lhNonLoopback = internalRedirects = 0;
  const load0 = loadavg();

  const perPage = new Map<string, { pg: number[]; raw: number[]; lh: number[]; lhp: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of names) {
      const url = `${origin}/${n}`;
      const row = perPage.get(n) ?? { pg: [], raw: [], lh: [], lhp: [] };
      perPage.set(n, row);
      const a = await auditOnce(url, true);
      pg.times.push(a.ms);
      row.pg.push(a.ms);
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      if (a.timings) for (const k of Object.keys(renderTimings)) renderTimings[k]!.push(a.timings[k] ?? NaN);
      // raw: the same child, the same pages (its memory is the rendered side's tree: not apart)
      const r = await auditOnce(url, false);
      raw.times.push(r.ms);
      row.raw.push(r.ms);
      if (haveLighthouse) {
        const ms = await lighthouse(url, lh, lhTotals, null);
        if (ms !== null) {
          lh.times.push(ms);
          row.lh.push(ms);
        }
        if (persistent) {
          const msp = await lighthouse(url, lhp, lhpTotals, persistentPort);
          if (msp !== null) {
            lhp.times.push(msp);
            row.lhp.push(msp);
          }
        }
      }
      process.stderr.write('.');
    }
  }
  process.stderr.write('\n');
  const load1 = loadavg();
  clearInterval(sampler);

  pgChild.send({ type: 'stop' });
  const stopped = await waitFor<{ sinkConnections: number; sinkRequests: string[]; refusedNames: number }>(
    'stopped',
  );
  if (persistent) {
    persistent.kill('SIGKILL');
    await new Promise((resolve) => persistent!.once('exit', resolve));
    rmSync(persistentDir, { recursive: true, force: true });
  }
  await sink.close();
  await site.close();

  // the report
  const fmt = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms)}` : '—');
  const mb = (kb: number) => `${Math.round(kb / 1024)}`;
  const max = (xs: number[]) => (xs.length ? Math.max(...xs) : NaN);
  console.log(
    `\n${names.length} corpus pages × ${ROUNDS} rounds, one page at a time, served on ${origin}; ` +
      `Chromium ${CHROMIUM}; ${cpus().length} cores; load average ${load0.map((l) => l.toFixed(2)).join(' ')} ` +
      `at the start, ${load1.map((l) => l.toFixed(2)).join(' ')} at the end; ` +
      `Pagegrade child ready (Chromium launched) in ${Math.round(pgStartMs)} ms.\n`,
  );
  console.log(
    '| side | pages | median ms / page | max ms / page | peak RSS of the tree (MB) | peak Pss (MB) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const s of [pg, ...(haveLighthouse ? [lh, ...(persistent ? [lhp] : [])] : [])]) {
    console.log(
      `| ${s.name} | ${s.times.length} | ${fmt(median(s.times))} | ${fmt(max(s.times))} | ${mb(s.peakRss)} | ${mb(s.peakPss)} |`,
    );
  }
  console.log(
    `| Pagegrade raw (same child) | ${raw.times.length} | ${median(raw.times).toFixed(1)} | ${max(raw.times).toFixed(1)} | (in the tree above) | |`,
  );
  console.log('\nPss (MB) by process kind when the tree peaked:\n');
  for (const s of [pg, ...(haveLighthouse ? [lh, ...(persistent ? [lhp] : [])] : [])]) {
    const parts = [...s.peakKinds]
      .sort((a, b) => b[1].kb - a[1].kb)
      .map(([k, v]) => `${k}${v.n > 1 ? ` ×${v.n}` : ''} ${mb(v.kb)}`);
    console.log(`- ${s.name}: ${parts.join(', ')}`);
  }
  if (haveLighthouse) {
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    console.log('\nRatios, Pagegrade rendered / Lighthouse (targets: time ≤ 0.33, memory ≤ 0.50):\n');
    console.log('| against | median time | max time | peak RSS | peak Pss |');
    console.log('|---|---:|---:|---:|---:|');
    for (const s of [lh, ...(persistent ? [lhp] : [])]) {
      console.log(
        `| ${s.name} | ${ratio(median(pg.times), median(s.times))} | ${ratio(max(pg.times), max(s.times))} | ${ratio(pg.peakRss, s.peakRss)} | ${ratio(pg.peakPss, s.peakPss)} |`,
      );
    }
    console.log(
      `\nLighthouse's own timing.total (excludes node start): median ${fmt(median(lhTotals))} ms (Chrome per run)` +
        (persistent ? `, ${fmt(median(lhpTotals))} ms (persistent)` : '') +
        '.',
    );
    console.log(
      `Lighthouse network: ${lhRequests} requests in network-requests, ${lhNonLoopback} to hosts other than 127.0.0.1, ` +
        `${leaked} of them answered (must be 0; ${internalRedirects} were Chromium's internal 307 to https, 0 bytes, whose next hop failed); ${sink.connections()} connections reached the bench's sink proxy (nothing forwarded)` +
        (sink.lines.length ? `, for ${sinkHosts(sink.lines)}` : '') +
        '.',
    );
    if (lhErrors.length)
      console.log(`Lighthouse errors: ${lhErrors.length}\n  ${lhErrors.slice(0, 10).join('\n  ')}`);
  }
  console.log(
    `\nPagegrade render phases, median ms: load ${fmt(median(renderTimings.load_ms!))}, network idle ${fmt(median(renderTimings.idle_ms!))}, ` +
      `axe ${fmt(median(renderTimings.axe_ms!))}, render total ${fmt(median(renderTimings.total_ms!))}. ` +
      `Statuses: ${[...statuses].map(([k, v]) => `${k} ×${v}`).join(', ')}.`,
  );
  console.log(
    `Pagegrade network: ${stopped.refusedNames} host names refused by the bench DNS (never resolved, never connected); ` +
      `${stopped.sinkConnections} connections reached the renderer's sink proxy (nothing forwarded)` +
      (stopped.sinkRequests.length ? `, for ${sinkHosts(stopped.sinkRequests)}` : '') +
      '.',
  );
  if (args.includes('--per-page')) {
    console.log('\n| page | Pagegrade rendered | raw | Lighthouse | Lighthouse (persistent) |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [n, r] of perPage)
      console.log(
        `| ${n} | ${fmt(median(r.pg))} | ${median(r.raw).toFixed(1)} | ${fmt(median(r.lh))} | ${fmt(median(r.lhp))} |`,
      );
  }
}

/** The hosts named by the first lines that reached a sink proxy (CONNECT host:port, GET http://host/…), with counts. */
function sinkHosts(lines: string[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const target = line.split(' ')[1] ?? '';
    let host = target;
    try {
      host = new URL(target.includes('://') ? target : `https://${target}`).hostname;
    } catch {
      // keep it as it is
    }
    counts.set(host, (counts.get(host) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([h, n]) => `${h} ×${n}`)
    .join(', ');
}

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function waitForDevtools(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the persistent Chromium did not open its DevTools port');
}
