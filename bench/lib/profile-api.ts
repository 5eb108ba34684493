// A small profiling harness for the HTTP layer's CPU per request (docs/api.md, "CPU per request").
//
//   npx tsx bench/lib/profile-api.ts [--reports 50000] [--duration 5] [--connections 10]
//                                    [--cpu-prof] [--inject 2000] [--only list,show,…]
//                                    [--database-url URL --seed bench/.data/postgres-<N>.seed.json]
//
// Seeds a SQLite file (bench/.data/profile-<N>.db, kept for later runs) through
// bench/lib/seed.ts, issues a key through the real service, then:
// - `--inject N`: in this process, N requests of each query through app.inject, reporting the
//   CPU time (user + system) per request — steady even on a shared machine;
// - otherwise: forks bench/lib/server.ts (the real app at `info` logging to a file, plus a bare
//   Fastify route, one process) and measures each query with autocannon right after the bare
//   route, printing req/s and the ratio. `--cpu-prof` writes the server's V8 CPU profile to
//   /tmp/pagegrade-prof/ and prints its self time by function (with `--inject`: a profile of
//   each query's measured requests, taken in this process).
import { fork } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { configFromEnv } from '../../src/config.js';
import { analyze } from '../../src/analyzer/index.js';
import { createDb, migrate } from '../../src/store/database.js';
import { createPgChangeBus, pgKeyChanges } from '../../src/store/pg-changes.js';
import { createServices } from '../../src/services/index.js';
import { synthesizeTemplates } from './corpus.js';
import { seedSqlite, type SeedResult } from './seed.js';
import { measure, type Target } from './load.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROOT_URL = new URL('../..', import.meta.url).href;
const { values: args } = parseArgs({
  options: {
    reports: { type: 'string', default: '50000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    'cpu-prof': { type: 'boolean', default: false },
    inject: { type: 'string' },
    /** with --inject: the reports list and show answer from a cache of the real answers (HTTP layer only) */
    'cached-store': { type: 'boolean', default: false },
    only: { type: 'string' },
    /** another store seeded by bench/api.ts (e.g. its PostgreSQL database), with its seed file */
    'database-url': { type: 'string' },
    seed: { type: 'string' },
    /** summarise an existing .cpuprofile and stop */
    analyze: { type: 'string' },
  },
});
if (args.analyze) {
  summarise(args.analyze);
  process.exit(0);
}
const N = Number(args.reports);
mkdirSync(join(ROOT, 'bench/.data'), { recursive: true });
const file = join(ROOT, `bench/.data/profile-${N}.db`);
const marker = `${file}.seed.json`;

let seed: SeedResult;
if (args['database-url']) {
  if (!args.seed) throw new Error('--database-url needs --seed (bench/.data/<store>-<N>.seed.json)');
  seed = JSON.parse(readFileSync(args.seed, 'utf8')) as SeedResult;
} else if (existsSync(file) && existsSync(marker)) {
  seed = JSON.parse(readFileSync(marker, 'utf8')) as SeedResult;
} else {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  console.log(`seeding ${file} with ${N} reports…`);
  seed = await seedSqlite(file, {
    reports: N,
    projects: Math.max(5, Math.round(N / 200)),
    otherUserReports: 50,
    templates: synthesizeTemplates(),
  });
  writeFileSync(marker, JSON.stringify(seed));
}
const databaseUrl = args['database-url'] ?? `sqlite:${file}`;
const config = configFromEnv({
  DATABASE_URL: databaseUrl,
  PAGEGRADE_RATE_LIMIT: '0',
  LOG_LEVEL: 'info',
  PAGEGRADE_SESSION_SECRET: 'bench-session-secret-bench-session-secret',
});
const handle = createDb(databaseUrl);
await migrate(handle.db);
// the key cache as src/server.ts has it (PostgreSQL: a LISTEN bus)
const pgBus = handle.dialect === 'postgres' ? createPgChangeBus(databaseUrl, handle.db) : null;
await pgBus?.ready();
const keyChanges = handle.keyChanges ?? pgKeyChanges(pgBus!);
const services = createServices({
  queue: embeddedQueue(handle.db),
  db: handle.db,
  analyze,
  config,
  keyChanges,
});
const key = (await services.keys.create(seed.userName ?? seed.userId)).key;
const headers = { authorization: `Bearer ${key}` };

let state = 12345;
const randomId = (): string => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return `/api/v1/reports/${seed.minId + (state % (seed.maxId - seed.minId + 1))}`;
};
const all: Target[] = [
  { name: 'list', paths: ['/api/v1/reports'], headers },
  { name: 'show', paths: randomId, headers },
  { name: 'per_page=100', paths: ['/api/v1/reports?per_page=100'], headers },
  { name: 'bad by url', paths: ['/api/v1/reports?result=bad&sort_by=url&sort=asc'], headers },
];
const only = args.only?.split(',');
const targets = only ? all.filter((t) => only.includes(t.name)) : all;
const nextPath = (t: Target) => {
  let i = 0;
  return typeof t.paths === 'function' ? t.paths : () => (t.paths as string[])[i++ % t.paths.length]!;
};
const profDir = '/tmp/pagegrade-prof';
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

if (args.inject) {
  // CPU per request in this process (the database's share included: SQLite runs in-process)
  const n = Number(args.inject);
  const logFile = '/tmp/pagegrade-profile-inject.log';
  const { createWriteStream } = await import('node:fs');
  const logStream = createWriteStream(logFile);
  let appServices = services;
  if (args['cached-store']) {
    // the same answers, computed once: what is left to measure is the HTTP layer (and auth)
    const memo = new Map<string, unknown>();
    const cached =
      <A extends unknown[], R>(name: string, f: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        const k = name + JSON.stringify(a);
        if (!memo.has(k)) memo.set(k, await f(...a));
        return memo.get(k) as R;
      };
    appServices = {
      ...services,
      reports: {
        ...services.reports,
        list: cached('list', services.reports.list),
        listText: cached('listText', services.reports.listText),
        get: cached('get', services.reports.get),
        getOwnedText: cached('getOwnedText', services.reports.getOwnedText),
      },
    };
  }
  const app = await buildApp(config, {
    services: appServices,
    logger: pino({ level: 'info', redact: ['req.headers.authorization', 'req.headers.cookie'] }, logStream),
    healthCheck: async () => {
      await sql`select 1`.execute(handle.db);
    },
  });
  console.log(
    `inject${args['cached-store'] ? ' (cached store)' : ''}, ${n} requests each, load average ${load()}`,
  );
  // --cpu-prof with --inject: a profile of each query's measured requests, in this process
  let profiler: Session | null = null;
  if (args['cpu-prof']) {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    rmSync(profDir, { recursive: true, force: true });
    mkdirSync(profDir);
  }
  for (const t of targets) {
    const next = nextPath(t);
    for (let i = 0; i < Math.min(1000, n); i++) await app.inject({ url: next(), headers });
    if (profiler) await profiler.post('Profiler.start');
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const res = await app.inject({ url: next(), headers });
      if (res.statusCode !== 200) throw new Error(`${t.name}: ${res.statusCode} ${res.body}`);
    }
    const c = process.cpuUsage(c0);
    const wall = performance.now() - t0;
    console.log(
      `${t.name.padEnd(14)} cpu ${((c.user + c.system) / 1000 / n).toFixed(3)} ms/req, wall ${(wall / n).toFixed(3)} ms/req`,
    );
    if (profiler) {
      // the measured requests only (not the start or the warm-up)
      const { profile } = (await profiler.post('Profiler.stop')) as { profile: unknown };
      const out = join(profDir, `inject-${t.name.replace(/\W+/g, '_')}.cpuprofile`);
      writeFileSync(out, JSON.stringify(profile));
      summarise(out);
    }
  }
  await app.close();
  await pgBus?.close();
  await handle.close();
  await new Promise((resolve) => logStream.end(resolve));
  process.exit(0);
}
await pgBus?.close();
await handle.close();

if (args['cpu-prof']) {
  rmSync(profDir, { recursive: true, force: true });
  mkdirSync(profDir);
}
const child = fork(join(ROOT, 'bench/lib/server.ts'), [], {
  cwd: ROOT,
  execArgv: ['--import', 'tsx', ...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_LOG_LEVEL: 'info',
    BENCH_LOG_FILE: '/tmp/pagegrade-profile-server.log',
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const ready = await new Promise<{ appPort: number; barePort: number }>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  child.on('message', (m: { type: string; appPort: number; barePort: number }) => {
    if (m.type === 'ready') resolve(m);
  });
});
const app = `http://127.0.0.1:${ready.appPort}`;
const bareOrigin = `http://127.0.0.1:${ready.barePort}`;
const opts = { connections: Number(args.connections), durationS: Number(args.duration), warmupS: 1 };
console.log(
  `N=${N}, ${opts.connections} connections, ${opts.durationS} s each, load average before ${load()}`,
);
for (const t of targets) {
  const bare = await measure({ name: 'bare', paths: ['/bare'] }, { ...opts, origins: [bareOrigin] });
  const q = await measure(t, { ...opts, origins: [app] });
  console.log(
    `${t.name.padEnd(14)} ${Math.round(q.rps).toString().padStart(6)} req/s (p50 ${q.p50} p99 ${q.p99} ms, non-2xx ${q.non2xx})` +
      `  bare ${Math.round(bare.rps).toString().padStart(6)} req/s  ratio ${((q.rps / bare.rps) * 100).toFixed(1)} %  load ${load()}`,
  );
}
await new Promise<void>((resolve) => {
  child.once('exit', () => resolve());
  child.kill('SIGTERM');
});

if (args['cpu-prof']) {
  const prof = readdirSync(profDir)
    .map((f) => join(profDir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0]; // the main thread's (tsx's loader thread writes one too)
  if (!prof) throw new Error('no profile written');
  summarise(prof);
}

/** Self time by function of a V8 CPU profile, top 40, idle time left out. */
function summarise(prof: string): void {
  interface Node {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
  }
  const p = JSON.parse(readFileSync(prof, 'utf8')) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!)!;
    const dt = p.timeDeltas[i] ?? 0;
    total += dt;
    const where = n.callFrame.url.replace(/^.*node_modules\//, '').replace(ROOT_URL, '');
    const name = `${n.callFrame.functionName || '(anonymous)'} ${where}:${n.callFrame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + dt);
  }
  const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
  console.log(`\nprofile ${prof}: busy ${((total - idle) / 1000).toFixed(0)} ms; self time, top 40:`);
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 41)) {
    if (name.startsWith('(idle)')) continue;
    console.log(`${((us / (total - idle)) * 100).toFixed(1).padStart(5)} %  ${name}`);
  }
}
