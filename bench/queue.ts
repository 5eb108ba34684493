// Benchmark: no-op jobs per second through each job engine — the `jobs` table on SQLite and on
// PostgreSQL, and BullMQ on Redis — with the real engine code (createJobEngine, the workers
// of src/jobs). For each engine, in one process:
//   1. enqueue N jobs one after another (one producer awaiting each enqueue): enqueues/s;
//   2. enqueue N jobs from `--producers` concurrent producers (as concurrent requests would);
//   3. start the workers (one process, `--concurrency` slots) and time until the handler has
//      run 2N times: jobs/s (claim + run + delete/complete, everything but the handler's work);
//   4. producers and workers at once (the producers enqueue N while the workers drain them).
//
//   npx tsx bench/queue.ts [--jobs 5000] [--concurrency 10] [--producers 8] [--engines sqlite,postgres,bullmq]
//
// PostgreSQL: a fresh database on BENCH_POSTGRES_URL's server (default postgres://postgres@
// 127.0.0.1:5432/test), dropped after. Redis: BENCH_REDIS_URL (default redis://127.0.0.1:6379),
// keys under a random prefix, deleted after. Nothing else is touched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { Type } from 'typebox';
import { createJobEngine, type AnyJobKind } from '../src/jobs/index.js';
import { createDb, migrate } from '../src/store/database.js';

const { values: args } = parseArgs({
  options: {
    jobs: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '10' },
    producers: { type: 'string', default: '8' },
    engines: { type: 'string', default: 'sqlite,postgres,bullmq' },
  },
});
const N = Number(args.jobs);
const CONCURRENCY = Number(args.concurrency);
const PRODUCERS = Number(args.producers);
const ENGINES = args.engines.split(',').map((s) => s.trim());
const ADMIN_PG = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function pgAdmin(query: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_PG });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

async function clearPrefix(prefix: string): Promise<void> {
  const r = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await r.del(...keys);
  } while (cursor !== '0');
  r.disconnect();
}

interface Store {
  databaseUrl: string;
  redisPrefix: string;
  cleanup(): Promise<void>;
}

async function store(engine: string): Promise<Store> {
  const id = randomBytes(4).toString('hex');
  if (engine === 'postgres') {
    const name = `pagegrade_bench_queue_${id}`;
    await pgAdmin(`CREATE DATABASE ${name}`);
    const u = new URL(ADMIN_PG);
    u.pathname = `/${name}`;
    return {
      databaseUrl: u.toString(),
      redisPrefix: '',
      cleanup: () => pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-bench-queue-'));
  const redisPrefix = `pagegrade-bench-${id}:`;
  return {
    databaseUrl: `sqlite:${join(dir, 'bench.db')}`,
    redisPrefix,
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      if (engine === 'bullmq') await clearPrefix(redisPrefix);
    },
  };
}

interface Result {
  engine: string;
  enqueuePerSec: number;
  enqueueParallelPerSec: number;
  drainPerSec: number;
  mixedPerSec: number;
}

/** Enqueues jobs n = from … from+count−1 from `producers` concurrent loops. */
async function produce(enqueue: (n: number) => Promise<unknown>, count: number, producers: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: producers }, async () => {
      while (next < count) await enqueue(next++);
    }),
  );
}

async function run(engine: string): Promise<Result> {
  const s = await store(engine);
  const handle = createDb(s.databaseUrl);
  await migrate(handle.db);
  let ran = 0;
  let target = 0;
  let reached: (() => void) | null = null;
  const noop: AnyJobKind = {
    kind: 'bench.noop',
    payload: Type.Object({ n: Type.Integer() }),
    concurrency: CONCURRENCY,
    maxAttempts: 3,
    backoff: { baseMs: 1000, maxMs: 10_000 },
    leaseMs: 30_000,
    async handle() {
      if (++ran === target) reached?.();
    },
  };
  const e = await createJobEngine(
    {
      queueEngine: engine === 'bullmq' ? 'bullmq' : 'embedded',
      redisUrl: engine === 'bullmq' ? REDIS_URL : null,
      redisPrefix: s.redisPrefix,
      jobPollMs: 1000,
    },
    { db: handle.db, kinds: [noop] },
  );
  const until = (n: number) =>
    new Promise<void>((resolve) => {
      target = n;
      reached = resolve;
      if (ran >= n) resolve();
    });
  try {
    const enqueue = (n: number) => e.queue.enqueue('bench.noop', { n });
    // 1. enqueue, one producer
    let t0 = performance.now();
    await produce(enqueue, N, 1);
    const enqueueMs = performance.now() - t0;
    // 2. enqueue, concurrent producers
    t0 = performance.now();
    await produce(enqueue, N, PRODUCERS);
    const enqueueParallelMs = performance.now() - t0;

    // 3. drain
    t0 = performance.now();
    const done = until(2 * N);
    const w = e.startWorkers({ deps: {} });
    await done;
    const drainMs = performance.now() - t0;

    // 4. producers and workers together
    t0 = performance.now();
    const done2 = until(3 * N);
    await produce(enqueue, N, PRODUCERS);
    await done2;
    const mixedMs = performance.now() - t0;
    await w.stop();
    const perSec = (count: number, ms: number) => Math.round((count / ms) * 1000);
    return {
      engine,
      enqueuePerSec: perSec(N, enqueueMs),
      enqueueParallelPerSec: perSec(N, enqueueParallelMs),
      drainPerSec: perSec(2 * N, drainMs),
      mixedPerSec: perSec(N, mixedMs),
    };
  } finally {
    await e.close();
    await handle.close();
    await s.cleanup();
  }
}

console.log(
  `# ${N} no-op jobs per phase, ${PRODUCERS} producers, ${CONCURRENCY} worker slots, one process; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const results: Result[] = [];
for (const engine of ENGINES) {
  const r = await run(engine);
  results.push(r);
  const f = (n: number) => `${String(n).padStart(6)}/s`;
  console.log(
    `${engine.padEnd(9)} enqueue ${f(r.enqueuePerSec)}   enqueue ×${PRODUCERS} ${f(r.enqueueParallelPerSec)}   drain ${f(r.drainPerSec)}   enqueue ×${PRODUCERS} + drain ${f(r.mixedPerSec)}`,
  );
}
console.log(
  `# load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(JSON.stringify(results));
