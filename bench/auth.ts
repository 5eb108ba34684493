// The cost of authenticating an API key (docs/api.md, "The key cache"): services.auth.authenticate
// in a loop in this process, wired as src/server.ts wires it, on a fresh SQLite file and a fresh
// PostgreSQL database:
// - cache: the key served from memory, the database's change signal looked at on every call
//   (SQLite: PRAGMA data_version on the connection; PostgreSQL: the LISTEN bus's state);
// - no cache (PAGEGRADE_KEY_CACHE_MS=0): the key read from the database on every call;
// - SQLite, both again with another connection committing between calls (untimed): then
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
 * µs per call of `fn`, each of ROUNDS rounds of `n` calls after a warm-up of n/5; `between`, when
 * given, runs before each call, untimed
 */
async function time(
  fn: () => Promise<unknown>,
  n: number,
  between?: () => Promise<unknown>,
): Promise<number[]> {
  for (let i = 0; i < n / 5; i++) {
    await between?.();
    await fn();
  }
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let ns = 0n;
    for (let i = 0; i < n; i++) {
      await between?.();
      const t0 = process.hrtime.bigint();
      await fn();
      ns += process.hrtime.bigint() - t0;
    }
    rounds.push(Number(ns) / n / 1000);
  }
  return rounds;
}

const line = (label: string, rounds: number[]) =>
  console.log(
    `${label.padEnd(70)} median ${median(rounds).toFixed(2).padStart(7)} µs  (rounds ${rounds.map((x) => x.toFixed(2)).join(', ')})`,
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
          await time(authenticate, Math.ceil(N / 20), write),
        );
    }
  } finally {
    await other.close();
    await bus?.close();
    await handle.close();
    await database.drop();
  }
}
