// Benchmark: webhook deliveries per second to a receiver on 127.0.0.1, against a bare POST
// loop to the same receiver measured in the same run.
//
//   npx tsx bench/webhooks.ts [--deliveries N] [--concurrency C] [--dialect sqlite|postgres|both]
//
// The receiver runs in a child process (it answers 204 at once and keeps the first requests so
// that their signatures are verified afterwards with the standardwebhooks verifier). In this
// process, N events are recorded for one webhook (services.webhooks.emit: a delivery row and a
// job each), then sent with C at once (the kind's concurrency, 8), two ways:
// - through the job engine: this process's workers claim the jobs (the `jobs` table of SQLite
//   or PostgreSQL, or BullMQ on Redis), and each runs the `webhook.deliver` handler — the
//   figure a deployment gets;
// - the handler alone, C loops calling it on the delivery ids (no queue): read the delivery,
//   sign, resolve and check the address through the guard, connect, POST, record.
//
// Baselines, same receiver, same body, same concurrency:
// - bare keep-alive: undici Pool requests (no database, no signing, connections reused): the
//   ceiling of POSTs per second from one Node process here;
// - bare new connection: one undici Client per POST, as a guarded sender connects to the
//   address it checked each time.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client, Pool } from 'undici';
import { Webhook } from 'standardwebhooks';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { createJobEngine } from '../src/jobs/index.js';
import { silentLog } from '../src/jobs/kind-tools.js';
import { webhookDeliverKind } from '../src/jobs/kinds/webhook-deliver.js';
import { createServices } from '../src/services/index.js';
import { createDb, migrate } from '../src/store/database.js';
import {
  clearRedisPrefix,
  createTempDatabase,
  POSTGRES_UNAVAILABLE,
  randomId,
  REDIS_URL,
  redisUnavailable,
} from '../test/helpers/services.js';

interface Sample {
  headers: Record<string, string>;
  body: string;
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string } & T) => {
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send({ type });
  });
}

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i !== -1 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** A report summary of the size a real one has (the body of a report event). */
function reportData(i: number) {
  const cat = { score: 74, passed: 12, failed: 3 };
  return {
    report: {
      id: i + 1,
      url: `https://example.com/page-${i}`,
      final_url: `https://example.com/page-${i}`,
      project: 'example.com',
      result: 'decent',
      score: 74,
      privacy: 0,
      has_password: false,
      generated_at: new Date().toISOString(),
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      categories: { seo: cat, performance: cat, security: cat, miscellaneous: cat },
      links: {
        self: `http://127.0.0.1:8080/api/v1/reports/${i + 1}`,
        page: `http://127.0.0.1:8080/reports/${i + 1}`,
      },
    },
  };
}

async function bare(origin: string, n: number, concurrency: number, reuse: boolean): Promise<number> {
  const body = JSON.stringify({
    type: 'report.completed',
    timestamp: new Date().toISOString(),
    data: reportData(0),
  });
  const headers = { 'content-type': 'application/json' };
  const keepAlive = new Pool(origin, { connections: concurrency });
  const t0 = performance.now();
  await pool(
    Array.from({ length: n }, (_, i) => i),
    concurrency,
    async () => {
      const client = reuse ? keepAlive : new Client(origin);
      const res = await client.request({ path: '/bare', method: 'POST', headers, body });
      await res.body.dump();
      if (!reuse) await client.close();
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  await keepAlive.close();
  return n / seconds;
}

type Via = 'handler' | 'embedded' | 'bullmq';

async function deliveries(
  databaseUrl: string,
  origin: string,
  n: number,
  concurrency: number,
  via: Via,
): Promise<{ perSecond: number; p50: number | null; p99: number | null; secret: string; delivered: number }> {
  const handle = createDb(databaseUrl);
  await migrate(handle.db);
  const kind = webhookDeliverKind();
  const redisPrefix = `pagegrade-bench-${randomId()}:`;
  const engine = await createJobEngine(
    {
      queueEngine: via === 'bullmq' ? 'bullmq' : 'embedded',
      redisUrl: REDIS_URL,
      redisPrefix,
      jobPollMs: 100,
    },
    { db: handle.db, kinds: [kind] },
  );
  const config = configFromEnv({
    DATABASE_URL: databaseUrl,
    PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
    PAGEGRADE_SESSION_SECRET: 'bench-session-secret-bench-session-secret',
  });
  const services = createServices({ db: handle.db, analyze, config, queue: engine.queue });
  const count = async (webhookId: number) =>
    Number(
      (
        await handle.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('webhook_id', '=', webhookId)
          .where('status', '=', 'delivered')
          .executeTakeFirstOrThrow()
      ).n,
    );
  try {
    const { organization: owner } = await services.users.create(`bench-${Date.now()}`);
    const { webhook, secret } = await services.webhooks.create(owner.id, {
      url: `${origin}/hook`,
      events: ['report.completed'],
    });
    const warm = Math.min(50, Math.floor(n / 10));
    for (let i = 0; i < n + warm; i++)
      await services.webhooks.emit(owner.id, 'report.completed', reportData(i));
    const ids = (
      await handle.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('webhook_id', '=', webhook.id)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
    const signal = new AbortController().signal;
    const run = (id: number) =>
      kind.handle(
        { id: String(id), kind: kind.kind, payload: { deliveryId: id }, attempt: 1, maxAttempts: 13, signal },
        { services },
      );
    // warm-up outside the timing (JIT, database connections): the handler on the first few
    for (const id of ids.splice(0, warm)) await run(id);

    if (via === 'handler') {
      const times: number[] = [];
      const t0 = performance.now();
      await pool(ids, concurrency, async (id) => {
        const s = performance.now();
        await run(id);
        times.push(performance.now() - s);
      });
      const seconds = (performance.now() - t0) / 1000;
      return {
        perSecond: ids.length / seconds,
        p50: quantile(times, 0.5),
        p99: quantile(times, 0.99),
        secret,
        delivered: (await count(webhook.id)) - warm,
      };
    }
    // through the engine: the jobs of the warm-up deliveries find them delivered (skipped)
    const t0 = performance.now();
    const workers = engine.startWorkers({
      deps: { services, queue: engine.queue, log: silentLog },
      concurrency: { [kind.kind]: concurrency },
    });
    const deadline = Date.now() + 300_000;
    while ((await count(webhook.id)) < n + warm) {
      if (Date.now() > deadline) throw new Error(`${via}: not all delivered within 5 minutes`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - t0) / 1000;
    await workers.stop();
    return {
      perSecond: n / seconds,
      p50: null,
      p99: null,
      secret,
      delivered: (await count(webhook.id)) - warm,
    };
  } finally {
    await engine.close();
    await handle.close();
    if (via === 'bullmq') await clearRedisPrefix(redisPrefix);
  }
}

async function main(): Promise<void> {
  const n = Number(arg('deliveries', '2000'));
  const concurrency = Number(arg('concurrency', String(webhookDeliverKind().concurrency)));
  const which = arg('dialect', 'both');
  const self = fileURLToPath(import.meta.url);
  const receiver = fork(self, ['--receiver'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const { port } = await ask<{ port: number }>(receiver, 'ready');
  const origin = `http://127.0.0.1:${port}`;
  const rows: string[] = [];
  try {
    const keepAlive = await bare(origin, n, concurrency, true);
    const fresh = await bare(origin, n, concurrency, false);
    rows.push(`| bare POST, keep-alive (baseline) | ${keepAlive.toFixed(0)} | 1.00 | | |`);
    rows.push(
      `| bare POST, a new connection each | ${fresh.toFixed(0)} | ${(fresh / keepAlive).toFixed(2)} | | |`,
    );

    type Open = () => Promise<{ url: string; cleanup: () => Promise<void> }>;
    const sqlite: Open = async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pagegrade-bench-webhooks-'));
      return {
        url: `sqlite:${join(dir, 'bench.db')}`,
        cleanup: async () => rmSync(dir, { recursive: true }),
      };
    };
    const postgres: Open = async () => {
      const db = await createTempDatabase('pagegrade_bench');
      return { url: db.url, cleanup: db.drop };
    };
    const cases: [string, Open, Via][] = [];
    if (which === 'sqlite' || which === 'both') {
      cases.push(['jobs table, SQLite', sqlite, 'embedded'], ['handler alone, SQLite', sqlite, 'handler']);
    }
    if ((which === 'postgres' || which === 'both') && POSTGRES_UNAVAILABLE === null) {
      cases.push(
        ['jobs table, PostgreSQL', postgres, 'embedded'],
        ['handler alone, PostgreSQL', postgres, 'handler'],
      );
    } else if (which !== 'sqlite') {
      console.error(`PostgreSQL skipped: ${POSTGRES_UNAVAILABLE}`);
    }
    const redisDown = await redisUnavailable();
    if (redisDown === null) cases.push(['BullMQ on Redis (SQLite app database)', sqlite, 'bullmq']);
    else console.error(`BullMQ skipped: ${redisDown}`);

    for (const [name, open, via] of cases) {
      const { url, cleanup } = await open();
      try {
        await ask(receiver, 'samples'); // drop the earlier samples
        const before = (await ask<{ count: number }>(receiver, 'count')).count;
        const r = await deliveries(url, origin, n, concurrency, via);
        const after = (await ask<{ count: number }>(receiver, 'count')).count;
        const { samples } = await ask<{ samples: Sample[] }>(receiver, 'samples');
        const wh = new Webhook(r.secret);
        const verified = samples.filter((s) => {
          try {
            wh.verify(s.body, s.headers);
            return true;
          } catch {
            return false;
          }
        }).length;
        const warm = Math.min(50, Math.floor(n / 10));
        if (after - before !== n + warm || r.delivered !== n || verified !== samples.length) {
          throw new Error(
            `${name}: the receiver got ${after - before} of ${n + warm}, ${r.delivered} of ${n} recorded delivered, ${verified}/${samples.length} samples verified`,
          );
        }
        const ms = (x: number | null) => (x === null ? '' : x.toFixed(1));
        rows.push(
          `| ${name} | ${r.perSecond.toFixed(0)} | ${(r.perSecond / keepAlive).toFixed(2)} | ${ms(r.p50)} | ${ms(r.p99)} |`,
        );
      } finally {
        await cleanup();
      }
    }
  } finally {
    receiver.send({ type: 'stop' });
  }
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1));
  console.log(`\n${n} deliveries, concurrency ${concurrency}, load average ${load.join(' ')}\n`);
  console.log('| sender | deliveries/s | vs bare keep-alive | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(r);
}

// ── the receiver (child process) ────────────────────────────────────────────────────────
function receive(): void {
  let count = 0;
  const samples: Sample[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      count++;
      if (samples.length < 50 && req.headers['webhook-id']) {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        samples.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      }
      res.writeHead(204);
      res.end();
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1', () => {
    process.send!({ type: 'ready', port: (server.address() as AddressInfo).port });
  });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'count') process.send!({ type: 'count', count });
    if (m.type === 'samples') process.send!({ type: 'samples', samples: samples.splice(0) });
    if (m.type === 'stop') server.close(() => process.exit(0));
  });
}

if (process.argv.includes('--receiver')) receive();
else await main();
