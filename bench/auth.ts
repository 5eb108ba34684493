// The cost of authenticating an API key (docs/api.md, "The key cache"): services.auth.authenticate
// in a loop in this process (CPU µs per call), wired as src/server.ts wires it, on a fresh SQLite file and a fresh
// PostgreSQL database:
// - cache: the key served from memory, the database's change signal looked at on every call
//   (SQLite: PRAGMA data_version on the connection; PostgreSQL: the LISTEN bus's state);
// - no cache (PAGEGRADE_KEY_CACHE_MS=0): the key read from the database on every call;
// - SQLite, both again with another connection committing between calls (its CPU taken off): then
//   data_version moves every time, so a cache hit reads the counter too, and every read finds
//   the connection's page cache dropped — the most a cache hit costs.
//
//   npx tsx bench/auth.ts [--iterations 100000] [--rounds 5] [--stores sqlite,postgres]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { embeddedQueue } from '../src/jobs/index.js';
import { createServices } from '../src/services/index.js';
import { createDb, migrate, type DatabaseHandle } from '../src/store/database.js';
import { createPgChangeBus, pgKeyChanges } from '../src/store/pg-changes.js';

const ADMIN_PG = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    stores: { type: 'string', default: 'sqlite,postgres' },
  },
});
const N = Number(args.iterations);
const ROUNDS = Number(args.rounds);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function pgAdmin(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_PG });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

async function freshDatabase(store: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (store === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrade-auth-bench-'));
    return { url: `sqlite:${join(dir, 'pagegrade.db')}`, drop: async () => rmSync(dir, { recursive: true }) };
  }
  const name = `pagegrade_auth_bench_${Date.now()}`;
  await pgAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_PG);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => pgAdmin(`DROP DATABASE ${name} WITH (FORCE)`) };
}

/**
 * CPU µs (user + system, this process: SQLite runs in it) per call of `fn`, in each of ROUNDS
 * rounds of `n` calls after a warm-up of n/5. CPU time rather than wall time: on a shared
 * machine it does not count the time other processes hold the cores.
 */
async function time(fn: () => Promise<unknown>, n: number): Promise<number[]> {
  for (let i = 0; i < n / 5; i++) await fn();
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await fn();
    const c = process.cpuUsage(c0);
    rounds.push((c.user + c.system) / n);
  }
  return rounds;
}

/** as `time`, less the CPU of `between` run alone: `fn` when `between` runs before each call */
async function timeBetween(fn: () => Promise<unknown>, n: number, between: () => Promise<unknown>) {
  const both = await time(async () => {
    await between();
    return fn();
  }, n);
  const alone = await time(between, n);
  return both.map((b, r) => b - alone[r]!);
}

const line = (label: string, rounds: number[]) =>
  console.log(
    `${label.padEnd(70)} median ${median(rounds).toFixed(2).padStart(7)} µs CPU (rounds ${rounds.map((x) => x.toFixed(2)).join(', ')})`,
  );

console.log(
  `${N} calls a round, ${ROUNDS} rounds; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const store of args.stores.split(',')) {
  const database = await freshDatabase(store);
  const handle: DatabaseHandle = createDb(database.url);
  await migrate(handle.db);
  const bus = handle.dialect === 'postgres' ? createPgChangeBus(database.url, handle.db) : null;
  await bus?.ready();
  const keyChanges = handle.keyChanges ?? pgKeyChanges(bus!);
  const other = createDb(database.url);
  // SQLite: a commit of another connection between calls (a write no key cares about)
  let i = 0;
  const write = () =>
    other.db
      .updateTable('settings')
      .set({ value: String(i++) })
      .where('key', '=', 'bench')
      .execute();
  try {
    await other.db.insertInto('settings').values({ key: 'bench', value: '0' }).execute();
    for (const cacheMs of ['10000', '0']) {
      const config = configFromEnv({ DATABASE_URL: database.url, PAGEGRADE_KEY_CACHE_MS: cacheMs });
      const services = createServices({
        db: handle.db,
        analyze,
        config,
        queue: embeddedQueue(handle.db),
        keyChanges,
      });
      const { key } = (await services.users.create(`bench${cacheMs}`)).key;
      const authenticate = () => services.auth.authenticate(key);
      const what = cacheMs === '0' ? 'no cache (the key read every call)' : 'cache';
      line(`${store}: ${what}`, await time(authenticate, cacheMs === '0' ? Math.ceil(N / 20) : N));
      if (store === 'sqlite')
        line(
          `${store}: ${what}, another connection committing`,
          await timeBetween(authenticate, Math.ceil(N / 20), write),
        );
    }
  } finally {
    await other.close();
    await bus?.close();
    await handle.close();
    await database.drop();
  }
}
