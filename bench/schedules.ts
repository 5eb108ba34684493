// Benchmark: N schedules due in the same minute (issue 9 §3).
//
//   npx tsx bench/schedules.ts [--schedules N] [--store sqlite|postgres] [--workers together|apart] [--worker-nice N]
//
// One service process (`node --import tsx src/server.ts`: API, workers and the scheduler tick,
// the embedded job engine over the `jobs` table; SQLite by default, PostgreSQL with --store
// postgres), a fixture site on 127.0.0.1 in this process. N reports are stored through the API
// (their pages answer at once while seeding), then N hourly schedules are inserted straight into
// the `schedules` table (one multi-row INSERT per 500, for speed). Then the site's pages answer
// after 50 ms and:
// - idle: GET /api/v1/reports (per_page 10), one after another for 10 s, gives the baseline p99;
// - burst: every schedule's next_run_at is set one minute in the past (all due at the next tick);
//   the same GET loop runs until every schedule has recorded its run; we report the time until
//   all have run, the p99 of the GETs during the burst (target ≤ 2× the idle p99 of the same
//   run) and the service process's peak RSS (VmRSS sampled every 250 ms during the burst, and
//   VmHWM, the peak over its life, seeding included).
// --workers apart: the API process runs without workers (PAGEGRADE_WORKER=0) and one
// `pagegrade worker` process (the scheduler tick and the job workers) runs beside it, as a
// deployment that scales them apart; the RSS figures are then the worker's, and the API's.
// --worker-nice N (with apart): the worker process runs at that OS priority (`nice -n N
// pagegrade worker`), so that on a machine it shares with the API, requests go first.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { createDb } from '../src/store/database.js';
import { goodPage } from '../test/helpers/fixture-server.js';
import { ROOT, startService } from '../test/helpers/service-process.js';
import { createTempDatabase, randomId, type TempDatabase } from '../test/helpers/services.js';

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i !== -1 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const N = Number(arg('schedules', '10000'));
const store = arg('store', 'sqlite');
const workers = arg('workers', 'together');
const workerNice = Number(arg('worker-nice', '0'));
if (workers !== 'together' && workers !== 'apart') throw new Error('--workers must be together or apart');
if (!Number.isInteger(N) || N < 1) throw new Error('--schedules must be a positive integer');
if (store !== 'sqlite' && store !== 'postgres') throw new Error('--store must be sqlite or postgres');

let latencyMs = 0;
const site = createServer((req, res) => {
  const send = () => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(goodPage(origin));
  };
  if (req.url === '/robots.txt' || req.url === '/favicon.ico') {
    res.writeHead(404).end();
    return;
  }
  if (latencyMs > 0) setTimeout(send, latencyMs);
  else send();
});
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const dir = mkdtempSync(join(tmpdir(), 'pagegrade-bench-schedules-'));
let pgDb: TempDatabase | null = null;
const databaseUrl =
  store === 'postgres'
    ? (pgDb = await createTempDatabase('pagegrade_bench_schedules')).url
    : `sqlite:${join(dir, 'bench.db')}`;
const KEY = `pg_${randomId()}${randomId()}${randomId()}`;
const service = await startService(
  {
    DATABASE_URL: databaseUrl,
    PAGEGRADE_BOOTSTRAP_KEY: KEY,
    PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
    PAGEGRADE_SCHEDULER_TICK_MS: '1000',
    PAGEGRADE_RATE_LIMIT: '0',
    ...(workers === 'apart' ? { PAGEGRADE_WORKER: '0' } : {}),
  },
  120_000,
);
// --workers apart: seeding audits run in the API process (POST /reports audits inline); the
// worker process starts for the burst
let worker: ChildProcess | null = null;
const startWorker = async () => {
  const child = spawn(process.execPath, ['bin/pagegrade.js', 'worker'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_SCHEDULER_TICK_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  if (workerNice !== 0) setPriority(child.pid!, workerNice);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('workers started')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`pagegrade worker exited (${code}):\n${out}`)));
  });
  return child;
};
const apiPid = service.child.pid!;
let pid = apiPid;
const auth = { authorization: `Bearer ${KEY}` };
const handle = createDb(databaseUrl);

try {
  // --- seed: N reports through the API (pages answer at once), schedules straight in SQL
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < N) {
        const i = next++;
        const res = await fetch(`${service.origin}/api/v1/reports`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ url: `${origin}/page-${i}` }).toString(),
        });
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`POST /api/v1/reports: ${res.status}`);
      }
    }),
  );
  const reports = await handle.db.selectFrom('reports').select(['id', 'org_id']).execute();
  const now = new Date().toISOString();
  const later = new Date(Date.now() + 3600_000).toISOString();
  for (let i = 0; i < reports.length; i += 500) {
    await handle.db
      .insertInto('schedules')
      .values(
        reports.slice(i, i + 500).map((r) => ({
          report_id: r.id,
          org_id: r.org_id,
          every: 'hourly',
          timezone: 'UTC',
          next_run_at: later,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  console.log(`seeded ${reports.length} reports + schedules in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const get = async (times: number[]) => {
    const a = performance.now();
    const res = await fetch(`${service.origin}/api/v1/reports?per_page=10`, { headers: auth });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /api/v1/reports: ${res.status}`);
    times.push(performance.now() - a);
  };

  // --- idle baseline
  latencyMs = 50;
  const idle: number[] = [];
  const idleUntil = performance.now() + 10_000;
  while (performance.now() < idleUntil) await get(idle);

  if (workers === 'apart') {
    worker = await startWorker();
    pid = worker.pid!;
  }
  let apiPeakRss = procStatus(apiPid, 'VmRSS');

  // --- burst
  const ran = async () =>
    Number(
      (
        await handle.db
          .selectFrom('schedules')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('last_run_at', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  let peakRss = procStatus(pid, 'VmRSS');
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, procStatus(pid, 'VmRSS'));
    apiPeakRss = Math.max(apiPeakRss, procStatus(apiPid, 'VmRSS'));
  }, 250);
  const due = new Date(Date.now() - 60_000).toISOString();
  const b0 = performance.now();
  await handle.db.updateTable('schedules').set({ next_run_at: due }).execute();
  const burst: number[] = [];
  let done = 0;
  let lastCheck = 0;
  while (done < N) {
    await get(burst);
    if (performance.now() - lastCheck > 1000) {
      lastCheck = performance.now();
      done = await ran();
    }
    if (performance.now() - b0 > 30 * 60_000) throw new Error(`only ${done}/${N} ran in 30 minutes`);
  }
  const allRan = (performance.now() - b0) / 1000;
  clearInterval(sampler);
  const failed = Number(
    (
      await handle.db
        .selectFrom('schedules')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('last_status', '=', 'failed')
        .executeTakeFirstOrThrow()
    ).n,
  );
  const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
  const p99i = quantile(idle, 0.99);
  const p99b = quantile(burst, 0.99);
  console.log(`schedules due at once:        ${N} (${store}, embedded job engine, tick 1 s, pages 50 ms, workers ${workers === 'apart' ? `in their own process${workerNice ? `, nice ${workerNice}` : ''}` : 'in the API process'})`);
  console.log(`time until all have run:      ${allRan.toFixed(1)} s (${(N / allRan).toFixed(1)} runs/s), ${failed} failed`);
  console.log(`${workers === 'apart' ? 'worker' : 'service'} peak RSS (burst):     ${mb(peakRss)}   (VmHWM over its life: ${mb(procStatus(pid, 'VmHWM'))})`);
  if (workers === 'apart') console.log(`API peak RSS (burst):         ${mb(apiPeakRss)}`);
  console.log(`GET /api/v1/reports idle:     p50 ${quantile(idle, 0.5).toFixed(1)} ms, p99 ${p99i.toFixed(1)} ms (${idle.length} requests)`);
  console.log(`GET /api/v1/reports burst:    p50 ${quantile(burst, 0.5).toFixed(1)} ms, p99 ${p99b.toFixed(1)} ms (${burst.length} requests)`);
  console.log(`burst p99 / idle p99:         ${(p99b / p99i).toFixed(2)}× (target ≤ 2×)`);
} finally {
  await handle.close();
  if (worker && worker.exitCode === null) {
    const w = worker;
    w.kill('SIGTERM');
    await new Promise((r) => w.once('exit', r));
  }
  await service.stop(10_000);
  site.close();
  await pgDb?.drop();
  rmSync(dir, { recursive: true, force: true });
}
