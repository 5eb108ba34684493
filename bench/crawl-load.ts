// Benchmark: what a crawl asks of PostgreSQL and Redis (issue 24 §5, docs/scale.md "Sizing"):
// a batch of a generated loopback site audited by the real services and job workers, in this
// process, on a fresh PostgreSQL database — once with the embedded job engine (the jobs in
// PostgreSQL) and once with BullMQ on a Redis of its own (a redis-server this script starts on
// a free loopback port, so that its counters are the crawl's alone). Counted, per 1,000 pages:
// PostgreSQL's committed transactions, rows inserted / updated / deleted / returned and the
// database's growth (pg_stat_database and pg_database_size of the fresh database: other users of
// the server do not count); Redis's commands (INFO commandstats: a script's EVALSHA and each call it
// makes), bytes in and out, and its memory at the end. Counts, not
// times: they hold on a loaded machine. Wall time and this process's CPU are printed too.
//
//   npx tsx bench/crawl-load.ts [--pages 1000] [--admin postgres://postgres@127.0.0.1:5432/test]
//
// Needs PostgreSQL (the admin URL's user may CREATE DATABASE) and `redis-server` on the PATH.
// Diagnosis: LOAD_INDEXES=1 prints, every 4 s and at the end, the indexes (and sequential scans)
// that read the most rows — how the per-page lookups reading their whole batch were found;
// LOAD_EXPLAIN=1 (embedded engine only) logs every statement's plan with its actual rows to the
// PostgreSQL server's log (auto_explain, set on the bench's database only).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { analyze } from '../src/analyzer/index.js';
import { createJobEngine } from '../src/jobs/index.js';
import { silentLog } from '../src/jobs/kind-tools.js';
import { jobKinds } from '../src/jobs/kinds/index.js';
import { createServices } from '../src/services/index.js';
import { createDb, migrate } from '../src/store/database.js';
import { startBenchServices } from './lib/bench-services.js';
import { gardenPage, startBenchSite } from './lib/bench-site.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000' },
    admin: {
      type: 'string',
      default: process.env.PAGEGRADE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const PAGES = Number(values.pages);
const ADMIN = values.admin!;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

async function startRedis(): Promise<{ url: string; proc: ChildProcess; client: Redis }> {
  const port = await freePort();
  const proc = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  for (let i = 0; ; i++) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch (e) {
      client.disconnect();
      if (i > 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, proc, client };
}

interface PgCounts {
  xact: number;
  inserted: number;
  updated: number;
  deleted: number;
  returned: number;
  fetched: number;
  bytes: number;
}

async function pgCounts(admin: pg.Client, name: string): Promise<PgCounts> {
  // the statistics of a backend reach the shared counters within a second of its last transaction
  await new Promise((r) => setTimeout(r, 1500));
  const r = await admin.query(
    `SELECT xact_commit::bigint AS xact, tup_inserted::bigint AS inserted, tup_updated::bigint AS updated,
            tup_deleted::bigint AS deleted, tup_returned::bigint AS returned, tup_fetched::bigint AS fetched,
            pg_database_size(datname) AS bytes
       FROM pg_stat_database WHERE datname = $1`,
    [name],
  );
  const row = r.rows[0] as Record<string, string>;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as PgCounts;
}

interface RedisCounts {
  commands: number;
  scripts: number;
  inBytes: number;
  outBytes: number;
  memory: number;
  top: string;
}

async function redisCounts(c: Redis): Promise<RedisCounts> {
  const stats = await c.info('commandstats');
  let commands = 0;
  let scripts = 0;
  const byName: [string, number][] = [];
  for (const line of stats.split('\n')) {
    const m = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (!m) continue;
    const n = Number(m[2]);
    if (m[1] === 'info') continue;
    commands += n;
    if (m[1] === 'evalsha' || m[1] === 'eval') scripts += n;
    byName.push([m[1]!, n]);
  }
  const info = await c.info('stats');
  const num = (k: string, text: string) => Number(new RegExp(`${k}:(\\d+)`).exec(text)?.[1] ?? 0);
  const memory = num('used_memory', await c.info('memory'));
  byName.sort((a, b) => b[1] - a[1]);
  return {
    commands,
    scripts,
    inBytes: num('total_net_input_bytes', info),
    outBytes: num('total_net_output_bytes', info),
    memory,
    top: byName
      .slice(0, 8)
      .map(([k, n]) => `${k} ${n}`)
      .join(', '),
  };
}

async function crawl(engineKind: 'embedded' | 'bullmq', origin: string): Promise<void> {
  const name = `pagegrade_bench_load_${process.pid}_${engineKind}`;
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  if (process.env.LOAD_EXPLAIN)
    for (const set of [
      `session_preload_libraries = 'auto_explain'`,
      `auto_explain.log_min_duration = 0`,
      `auto_explain.log_analyze = on`,
    ])
      await admin.query(`ALTER DATABASE ${name} SET ${set}`);
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  const redis = engineKind === 'bullmq' ? await startRedis() : null;
  const handle = createDb(url.href);
  try {
    const bench = await startBenchServices(
      { analyze, createJobEngine, silentLog, jobKinds, createServices, migrate },
      {
        db: handle.db,
        engine: { queueEngine: engineKind, redisUrl: redis?.url ?? null, redisPrefix: 'bench:' },
        crawlDelayMs: 0,
        crawlConcurrency: 8,
      },
    );
    const pg0 = await pgCounts(admin, name);
    const r0 = redis ? await redisCounts(redis.client) : null;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const created = await bench.services.batches.create(bench.owner, {
      url: `${origin}/sitemap.xml`,
      mode: 'sitemap',
      maxPages: PAGES,
    });
    const trace = process.env.LOAD_INDEXES
      ? setInterval(() => {
          void (async () => {
            const c = new pg.Client({ connectionString: url.href });
            await c.connect();
            const r = await c.query(
              `SELECT relname || ' ' || indexrelname AS name, idx_tup_read::bigint AS n FROM pg_stat_user_indexes ORDER BY n DESC LIMIT 4`,
            );
            const p = await c.query(
              `SELECT count(*) FILTER (WHERE state = 'done')::int AS n FROM batch_pages`,
            );
            await c.end();
            console.log(
              `  trace: ${p.rows[0].n} pages done; ${r.rows.map((x) => `${x.name} ${x.n}`).join(', ')}`,
            );
          })();
        }, 4000)
      : null;
    const b = await bench.ended(created.id, 100);
    if (trace) clearInterval(trace);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    await bench.stop();
    if (b.status !== 'done') throw new Error(`the batch ended ${b.status}: ${b.error}`);
    const pg1 = await pgCounts(admin, name);
    if (process.env.LOAD_INDEXES) {
      const db = new pg.Client({ connectionString: url.href });
      await db.connect();
      const r = await db.query(
        `SELECT relname, indexrelname AS name, idx_tup_read::bigint AS n FROM pg_stat_user_indexes
         UNION ALL SELECT relname, '(seq)' AS name, seq_tup_read::bigint AS n FROM pg_stat_user_tables
         ORDER BY n DESC LIMIT 10`,
      );
      await db.end();
      for (const row of r.rows as { relname: string; name: string; n: string }[])
        console.log(`    ${row.relname} ${row.name}: ${Number(row.n).toLocaleString('en')}`);
    }
    const r1 = redis ? await redisCounts(redis.client) : null;
    const per = 1000 / b.progress.audited;
    const k = (n: number) => Math.round(n * per).toLocaleString('en');
    const mb = (n: number) => `${((n * per) / 1048576).toFixed(1)} MB`;
    console.log(
      `\n${engineKind === 'bullmq' ? 'PostgreSQL + BullMQ on Redis' : 'PostgreSQL, embedded job engine'}: ${b.progress.audited} pages in ${(ms / 1000).toFixed(1)} s (${((b.progress.audited * 1000) / ms).toFixed(1)} pages/s), this process's CPU ${((cpu.user + cpu.system) / 1000 / b.progress.audited).toFixed(1)} ms a page`,
    );
    console.log(
      `  PostgreSQL per 1,000 pages: ${k(pg1.xact - pg0.xact)} transactions committed, rows ${k(pg1.inserted - pg0.inserted)} inserted / ${k(pg1.updated - pg0.updated)} updated / ${k(pg1.deleted - pg0.deleted)} deleted / ${k(pg1.fetched - pg0.fetched)} fetched by index scans / ${k(pg1.returned - pg0.returned)} read (rows of sequential scans and index entries); database +${mb(pg1.bytes - pg0.bytes)}`,
    );
    if (r0 && r1)
      console.log(
        `  Redis per 1,000 pages: ${k(r1.commands - r0.commands)} commands (${k(r1.scripts - r0.scripts)} of them scripts, whose inner calls are in the total), ${mb(r1.inBytes - r0.inBytes)} in, ${mb(r1.outBytes - r0.outBytes)} out; memory at the end ${(r1.memory / 1048576).toFixed(1)} MB; most called: ${r1.top}`,
      );
  } finally {
    await handle.close();
    if (redis) {
      redis.client.disconnect();
      redis.proc.kill('SIGKILL');
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const site = await startBenchSite({
  page: (path) => {
    const m = /^\/p\/(\d+)$/.exec(path);
    return m && Number(m[1]) < PAGES ? gardenPage(Number(m[1]), PAGES) : null;
  },
  sitemapPaths: () => Array.from({ length: PAGES }, (_, i) => `/p/${i}`),
});
try {
  console.log(`a ${PAGES}-page loopback site (${site.origin}), politeness off (no delay, 8 at once)`);
  await crawl('embedded', site.origin);
  if (!process.env.LOAD_EXPLAIN) await crawl('bullmq', site.origin);
} finally {
  await site.close();
}
