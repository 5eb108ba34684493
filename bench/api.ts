// API benchmark at scale: seeds N reports (default 1,000,000) straight into the store —
// a SQLite file under bench/.data/ and a fresh PostgreSQL database — then runs the real
// application in a child process (bench/lib/server.ts: buildApp + a bare Fastify route in
// the same process) and measures list, search, sort, filter and show queries with
// autocannon in interleaved rounds with the bare route (API, bare, API, bare …; the median of
// the rounds' ratios is reported, with the server's CPU µs per request of each side). Then, on
// PostgreSQL, one process against two.
//
//   npm run bench -- --reports 1000000 --stores sqlite,postgres --duration 10
//
// Options: --reports N, --projects N (5000), --stores sqlite,postgres, --duration S (10),
// --warmup S (2), --connections N (10), --log-level L (info), --reuse (keep a database
// seeded by an earlier run with the same --reports), --seed-only, --no-scaling, --out FILE,
// --rounds R (3: interleaved API/bare rounds per query, each of --duration; the warm-up runs
// once per query and side).
// Targets: p99 ≤ 20 ms for every query; ≥ 25 % of the bare route's throughput (15 % for
// GET /reports/{id} and its ~22 KB body), as the median ratio of the rounds.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpus, loadavg, totalmem } from 'node:os';
import { transformSync } from 'esbuild';
import pg from 'pg';
import { distIsCurrent } from '../scripts/dist-state.cjs';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { createDb, migrate } from '../src/store/database.js';
import { createServices } from '../src/services/index.js';
import type { AuditReport } from '../src/analyzer/types.js';
import { goodPage, html, startFixtureServer } from '../test/helpers/fixture-server.js';
import { selectiveTerm, synthesizeTemplates, type Band, type Templates } from './lib/corpus.js';
import { measure, roundsTable as table, type Measurement, type Rounds, type Target } from './lib/load.js';
import { seedPostgres, seedSqlite, type SeedResult } from './lib/seed.js';
import { embeddedQueue } from '../src/jobs/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = join(ROOT, 'bench/.data');
const ADMIN_PG = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const P99_TARGET_MS = 20;
const RATIO_TARGET = 0.25;
/** GET /reports/{id} answers ~22 KB: its throughput target is 15 % of the bare route's */
const SHOW_RATIO_TARGET = 0.15;
const SHOW = 'GET /api/v1/reports/{id}';

const { values: args } = parseArgs({
  options: {
    reports: { type: 'string', default: '1000000' },
    projects: { type: 'string', default: '5000' },
    stores: { type: 'string', default: 'sqlite,postgres' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    'log-level': { type: 'string', default: 'info' },
    reuse: { type: 'boolean', default: false },
    /** V8/Node flags for the server process, e.g. --node-flags=--max-semi-space-size=4 */
    'node-flags': { type: 'string', default: '' },
    'no-scaling': { type: 'boolean', default: false },
    'seed-only': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    out: { type: 'string' },
  },
});
const N = Number(args.reports);
const PROJECTS = Number(args.projects);
const STORES = args.stores.split(',').map((s) => s.trim()) as ('sqlite' | 'postgres')[];
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Math.max(1, Number(args.rounds));
const OTHER_USER_REPORTS = 50;

const out: string[] = [];
function emit(line = ''): void {
  console.log(line);
  out.push(line);
}

// ── corpus ────────────────────────────────────────────────────────────────────────────────

/** Results JSON from real audits of fixture pages (good, decent, bad), when the analyzer is complete enough. */
async function realTemplates(): Promise<Templates | null> {
  const fx = await startFixtureServer();
  try {
    const decentExtra = `<img src="/a.png"><img src="/b.png"><p style="color:red">${'<a href="#">click here</a> '.repeat(5)}</p>`;
    fx.route('/good', html(goodPage(fx.origin)));
    fx.route('/decent', html(goodPage(fx.origin, decentExtra).replace(/<meta name="description"[^>]*>/, '')));
    fx.route(
      '/bad',
      html(
        '<html><head></head><body><p>Hello</p><img src="/x.gif"><script src="/a.js"></script></body></html>',
      ),
    );
    const reports: Partial<Record<Band, AuditReport>> = {};
    for (const band of ['good', 'decent', 'bad'] as const) {
      reports[band] = await analyze(`${fx.origin}/${band}`, { allowPrivateHosts: true, timeoutMs: 5000 });
    }
    const checks = Object.keys(reports.good!.results).length;
    if (checks < 20) return null;
    const byBand = Object.fromEntries(
      (['good', 'decent', 'bad'] as const).map((b) => [
        b,
        {
          categories: JSON.stringify(reports[b]!.categories),
          results: JSON.stringify(reports[b]!.results),
          page: JSON.stringify(reports[b]!.page),
        },
      ]),
    ) as Templates['byBand'];
    return {
      source: `real audits of fixture pages (${checks} checks; results JSON good ${byBand.good.results.length} B, decent ${byBand.decent.results.length} B, bad ${byBand.bad.results.length} B)`,
      checks,
      resultsBytes: byBand.decent.results.length,
      byBand,
    };
  } catch (err) {
    console.error(`analyzer unavailable for the corpus (${(err as Error).message}); synthesizing`);
    return null;
  } finally {
    await fx.close();
  }
}

// ── stores ────────────────────────────────────────────────────────────────────────────────

interface Prepared {
  store: 'sqlite' | 'postgres';
  databaseUrl: string;
  seed: SeedResult;
  key: string;
  sizeBytes: number;
}

async function pgQuery<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

async function prepare(store: 'sqlite' | 'postgres', templates: Templates): Promise<Prepared> {
  mkdirSync(DATA, { recursive: true });
  const tag = `${N}`;
  const marker = join(DATA, `${store}-${tag}.seed.json`);
  let databaseUrl: string;
  let seed: SeedResult | null = null;
  const log = (l: string) => console.log(l);
  const opts = { reports: N, projects: PROJECTS, otherUserReports: OTHER_USER_REPORTS, templates, log };

  if (store === 'sqlite') {
    const file = join(DATA, `bench-${tag}.db`);
    databaseUrl = `sqlite:${file}`;
    if (args.reuse && existsSync(marker) && existsSync(file)) {
      seed = JSON.parse(readFileSync(marker, 'utf8')) as SeedResult;
    } else {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      console.log(`seeding SQLite ${file} with ${N} reports…`);
      seed = await seedSqlite(file, opts);
    }
  } else {
    const name = `pagegrade_bench_${tag}`;
    const u = new URL(ADMIN_PG);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    const exists =
      (await pgQuery(ADMIN_PG, 'SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0;
    if (args.reuse && exists && existsSync(marker)) {
      seed = JSON.parse(readFileSync(marker, 'utf8')) as SeedResult;
    } else {
      await pgQuery(ADMIN_PG, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await pgQuery(ADMIN_PG, `CREATE DATABASE ${name}`);
      console.log(`seeding PostgreSQL ${name} with ${N} reports…`);
      seed = await seedPostgres(databaseUrl, opts);
    }
  }
  writeFileSync(marker, JSON.stringify(seed, null, 2));

  // an API key for the main user, through the real service
  const handle = createDb(databaseUrl);
  await migrate(handle.db);
  const config = configFromEnv({
    DATABASE_URL: databaseUrl,
    PAGEGRADE_SESSION_SECRET: 'bench-session-secret-bench-session-secret',
  });
  const services = createServices({ queue: embeddedQueue(handle.db), db: handle.db, analyze, config });
  const issued = await services.keys.create(seed.userName ?? seed.userId);
  await handle.close();

  let sizeBytes = 0;
  if (store === 'sqlite') {
    const file = databaseUrl.slice('sqlite:'.length);
    for (const suffix of ['', '-wal'])
      if (existsSync(file + suffix)) sizeBytes += statSync(file + suffix).size;
  } else {
    const [row] = await pgQuery<{ size: string }>(
      databaseUrl,
      'SELECT pg_database_size(current_database())::text AS size',
    );
    sizeBytes = Number(row!.size);
  }
  return { store, databaseUrl, seed, key: issued.key, sizeBytes };
}

// ── processes under load ──────────────────────────────────────────────────────────────────

interface PhasePeak {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

interface Server {
  child: ChildProcess;
  appOrigin: string;
  bareOrigin: string;
  /** `phase`: also end a phase (the peak sample since the last phase's end is in the answer) */
  rss(phase?: boolean): Promise<{ rss: number; peakRss: number; phase: PhasePeak }>;
  /** the server process's CPU time so far (user + system, µs) */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The server process runs as `npm start` does: plain node on the compiled build (the server
 * file's types stripped by esbuild into bench/.data/server.mjs, its imports of src/ pointed at
 * dist/) when dist/ is current; else the sources through tsx, whose loader alone adds ~45 MB of
 * RSS (said in the output).
 */
function serverEntry(): { file: string; execArgv: string[] } {
  const ts = join(ROOT, 'bench/lib/server.ts');
  if (!distIsCurrent()) {
    console.log(
      'server: the sources through tsx (no current dist/: `npm run build` to measure as npm start runs; the tsx loader adds ~45 MB RSS)',
    );
    return { file: ts, execArgv: ['--import', 'tsx'] };
  }
  mkdirSync(DATA, { recursive: true });
  const file = join(DATA, 'server.mjs'); // bench/.data/ is as deep as bench/lib/: ../../dist/ is the build
  const code = transformSync(readFileSync(ts, 'utf8'), { loader: 'ts', format: 'esm' }).code.replace(
    /(["'])\.\.\/\.\.\/src\//g,
    '$1../../dist/',
  );
  writeFileSync(file, code);
  return { file, execArgv: [] };
}

async function startServer(databaseUrl: string, label: string): Promise<Server> {
  const entry = serverEntry();
  const child = fork(entry.file, [], {
    cwd: ROOT,
    execArgv: [...entry.execArgv, ...args['node-flags'].split(' ').filter(Boolean)],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_LOG_LEVEL: args['log-level'],
      BENCH_LOG_FILE: join(DATA, `server-${label}.log`),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ appPort: number; barePort: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    child.on('message', (m: { type: string; appPort: number; barePort: number }) => {
      if (m.type === 'ready') resolve(m);
    });
  });
  return {
    child,
    appOrigin: `http://127.0.0.1:${ready.appPort}`,
    bareOrigin: `http://127.0.0.1:${ready.barePort}`,
    rss: (phase = false) =>
      new Promise((resolve) => {
        const on = (m: { type: string; rss: number; peakRss: number; phase: PhasePeak }) => {
          if (m.type !== 'rss') return;
          child.off('message', on);
          resolve(m);
        };
        child.on('message', on);
        child.send({ type: 'rss', phase });
      }),
    cpu: () =>
      new Promise((resolve) => {
        const on = (m: { type: string; us: number }) => {
          if (m.type !== 'cpu') return;
          child.off('message', on);
          resolve(m.us);
        };
        child.on('message', on);
        child.send({ type: 'cpu' });
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

// ── the queries ───────────────────────────────────────────────────────────────────────────

function targets(p: Prepared): Target[] {
  const headers = { authorization: `Bearer ${p.key}` };
  const { minId, maxId, bigProject, medianProject } = p.seed;
  // a selective search: most of a median project's name
  const selective = selectiveTerm(medianProject);
  let state = 12345;
  const randomId = (): string => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return `/api/v1/reports/${minId + (state % (maxId - minId + 1))}`;
  };
  return [
    { name: 'GET /api/v1/reports (default list)', paths: ['/api/v1/reports'], headers },
    {
      name: 'search=tomato (common substring, ~9 % of URLs)',
      paths: ['/api/v1/reports?search=tomato'],
      headers,
    },
    {
      name: `search=${selective} (selective substring)`,
      paths: [`/api/v1/reports?search=${encodeURIComponent(selective)}`],
      headers,
    },
    {
      name: 'result=bad&sort_by=url&sort=asc',
      paths: ['/api/v1/reports?result=bad&sort_by=url&sort=asc'],
      headers,
    },
    { name: 'per_page=100', paths: ['/api/v1/reports?per_page=100'], headers },
    {
      name: `project=<largest project>`,
      paths: [`/api/v1/reports?project=${encodeURIComponent(bigProject)}`],
      headers,
    },
    { name: 'GET /api/v1/projects?search=garden', paths: ['/api/v1/projects?search=garden'], headers },
    { name: `${SHOW} (random ids)`, paths: randomId, headers },
  ];
}

const bareTarget: Target = { name: 'GET /bare', paths: ['/bare'] };

async function checkAnswers(origin: string, ts: Target[]): Promise<void> {
  for (const t of ts) {
    const path = typeof t.paths === 'function' ? t.paths() : t.paths[0]!;
    const res = await fetch(origin + path, { headers: t.headers });
    const body = (await res.json()) as { meta?: { total: number }; data?: unknown };
    if (res.status !== 200) throw new Error(`${t.name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    const total = body.meta?.total;
    console.log(
      `  ${t.name}: 200${total !== undefined ? `, total ${total}` : ''}, ${JSON.stringify(body).length} bytes`,
    );
  }
}

const mb = (n: number): string => `${Math.round(n / 1048576)} MB`;

async function runStore(p: Prepared): Promise<void> {
  const server = await startServer(p.databaseUrl, p.store);
  try {
    const ts = targets(p);
    await checkAnswers(server.appOrigin, ts);
    const startup = await server.rss(true);
    const peaks: [string, PhasePeak][] = [['start and the answers checked', startup.phase]];
    const rows: Rounds[] = [];
    // interleaved rounds (API, bare, API, bare …) after one warm-up of each: the machine's
    // drift touches both sides of a round alike, and the median of the rounds' ratios is kept
    const load = { connections: CONNECTIONS, durationS: DURATION, warmupS: 0, cpu: server.cpu };
    for (const t of ts) {
      const row: Rounds = { name: t.name, api: [], bare: [] };
      if (WARMUP > 0) {
        await measure(t, { ...load, durationS: WARMUP, origins: [server.appOrigin] });
        await measure(bareTarget, { ...load, durationS: WARMUP, origins: [server.bareOrigin] });
      }
      for (let r = 0; r < ROUNDS; r++) {
        const query = await measure(t, { ...load, origins: [server.appOrigin] });
        const bare = await measure(bareTarget, { ...load, origins: [server.bareOrigin] });
        console.log(
          `  ${t.name} round ${r + 1}: p50 ${query.p50} p99 ${query.p99} ms, ${Math.round(query.rps)} req/s, ${Math.round(query.cpuUs!)} µs CPU/req (bare ${Math.round(bare.rps)} req/s, ${Math.round(bare.cpuUs!)} µs CPU/req; ratio ${((query.rps / bare.rps) * 100).toFixed(1)} %)`,
        );
        row.api.push(query);
        row.bare.push(bare);
      }
      rows.push(row);
      peaks.push([t.name, (await server.rss(true)).phase]);
    }
    const { rss, peakRss } = await server.rss();
    emit(
      `### ${p.store === 'sqlite' ? 'SQLite' : 'PostgreSQL'} — ${p.seed.reports.toLocaleString('en')} reports, ${p.seed.projects.toLocaleString('en')} projects`,
    );
    emit();
    emit(
      `Load average at the end of the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} (${cpus().length} cores).`,
    );
    emit();
    emit(
      `Seeded in ${(p.seed.ms / 1000).toFixed(0)} s; database size ${mb(p.sizeBytes)}; largest project ${p.seed.bigProject}; server RSS after the run ${mb(rss)} (peak ${mb(peakRss)}).`,
    );
    emit();
    emit(table(rows, P99_TARGET_MS, (name) => (name.startsWith(SHOW) ? SHOW_RATIO_TARGET : RATIO_TARGET)));
    emit();
    emit('Server memory at the highest sample (every 100 ms) while each query and its bare rounds ran:');
    emit();
    emit('| during | RSS | V8 heap total | heap used | buffers and external |');
    emit('|---|--:|--:|--:|--:|');
    for (const [name, m] of peaks)
      emit(`| ${name} | ${mb(m.rss)} | ${mb(m.heapTotal)} | ${mb(m.heapUsed)} | ${mb(m.external)} |`);
    emit();
  } finally {
    await server.stop();
  }
}

async function scaling(p: Prepared): Promise<void> {
  const ts = targets(p);
  const picks = [bareTarget, ts[0]!, ts[7]!, ts[3]!];
  const results: Record<string, [Measurement, Measurement]> = {};
  const load = { connections: CONNECTIONS, durationS: DURATION, warmupS: WARMUP };
  for (const count of [1, 2]) {
    const servers = await Promise.all(
      Array.from({ length: count }, (_, i) => startServer(p.databaseUrl, `${p.store}-x${count}-${i}`)),
    );
    try {
      for (const t of picks) {
        const origins = servers.map((s) => (t === bareTarget ? s.bareOrigin : s.appOrigin));
        const m = await measure(t, { ...load, origins });
        console.log(`  ${count} process(es) ${t.name}: ${Math.round(m.rps)} req/s, p99 ${m.p99} ms`);
        (results[t.name] ??= [m, m])[count - 1] = m;
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
  emit(
    `### PostgreSQL — one process against two (${cpus().length} cores; autocannon runs on the same machine)`,
  );
  emit();
  emit('| query | 1 process req/s | 1 process p99 ms | 2 processes req/s | 2 processes p99 ms | speed-up |');
  emit('|---|---:|---:|---:|---:|---:|');
  for (const [name, [one, two]] of Object.entries(results)) {
    emit(
      `| ${name} | ${Math.round(one.rps)} | ${one.p99} | ${Math.round(two.rps)} | ${two.p99} | ${(two.rps / one.rps).toFixed(2)}× |`,
    );
  }
  emit();
}

async function main(): Promise<void> {
  const started = new Date();
  const templates = (await realTemplates()) ?? synthesizeTemplates();
  console.log(`corpus: ${templates.source}`);

  emit(`## Run of ${started.toISOString()}`);
  emit();
  emit(
    `\`npm run bench -- --reports ${N} --stores ${STORES.join(',')} --duration ${DURATION} --connections ${CONNECTIONS} --rounds ${ROUNDS}\` — ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${mb(totalmem())} RAM, Node ${process.version}; log level ${args['log-level']}; results JSON: ${templates.source}, ${templates.resultsBytes} bytes for a decent report.`,
  );
  emit();

  for (const store of STORES) {
    const p = await prepare(store, templates);
    console.log(
      `${store}: seeded ${p.seed.reports} reports in ${(p.seed.ms / 1000).toFixed(0)} s, ${mb(p.sizeBytes)}`,
    );
    if (args['seed-only']) continue;
    await runStore(p);
    if (store === 'postgres' && !args['no-scaling']) await scaling(p);
  }

  const file = args.out ?? join(DATA, `results-${N}-${started.toISOString().replace(/[:.]/g, '-')}.md`);
  writeFileSync(file, out.join('\n') + '\n');
  console.log(`\nwritten to ${file}`);
}

await main();
