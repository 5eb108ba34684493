// The one place tests find PostgreSQL and Redis.
//
// PostgreSQL: PAGEGRADE_TEST_POSTGRES_URL (an admin URL whose user may CREATE DATABASE), else
// 127.0.0.1:5432 database `test` with trust auth as user `postgres` or the current user.
// Redis: PAGEGRADE_TEST_REDIS_URL, else redis://127.0.0.1:6379.
// Each is probed once per test process (PostgreSQL at import, so that `describe` can be given
// its skip reason; Redis on first use). Where one is unreachable its tests
// skip with the reason printed, unless PAGEGRADE_REQUIRE_POSTGRES=1 / PAGEGRADE_REQUIRE_REDIS=1
// (set by .ci/run), where they fail.
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { Redis } from 'ioredis';

/** A random suffix safe in database names and Redis prefixes. */
export const randomId = (): string => randomBytes(5).toString('hex');

async function pgAnswers(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

async function findPostgres(): Promise<{ url: string | null; reason: string | null }> {
  const fromEnv = process.env.PAGEGRADE_TEST_POSTGRES_URL;
  const candidates = fromEnv
    ? [fromEnv]
    : ['postgres', process.env.USER, process.env.LOGNAME]
        .filter((u, i, all): u is string => !!u && all.indexOf(u) === i)
        .map((u) => `postgres://${encodeURIComponent(u)}@127.0.0.1:5432/test`);
  let last = 'no candidate';
  for (const url of candidates) {
    const err = await pgAnswers(url);
    if (err === null) return { url, reason: null };
    last = err;
  }
  const where = fromEnv ?? '127.0.0.1:5432 (database "test", trust auth)';
  return { url: null, reason: `PostgreSQL not reachable at ${where} (${last})` };
}

async function findRedis(url: string): Promise<string | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (err) {
    return `Redis at ${url} is unreachable (${(err as Error).message})`;
  } finally {
    client.disconnect();
  }
}

const pgFound = await findPostgres();
/** An admin URL of the PostgreSQL server (database `test`), or the fallback when none answers. */
export const ADMIN_POSTGRES_URL: string =
  pgFound.url ?? process.env.PAGEGRADE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** null when PostgreSQL answers, else the reason it cannot be used. */
export const POSTGRES_UNAVAILABLE: string | null = pgFound.reason;

export const REDIS_URL = process.env.PAGEGRADE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const REQUIRE_POSTGRES = 'PAGEGRADE_REQUIRE_POSTGRES';
export const REQUIRE_REDIS = 'PAGEGRADE_REQUIRE_REDIS';

/** null when PostgreSQL answers, else the reason (probed once per process). */
export const postgresUnavailable = async (): Promise<string | null> => POSTGRES_UNAVAILABLE;
let redisProbe: Promise<string | null> | null = null;
/** null when Redis answers PING, else the reason (probed once per process, on first use). */
export const redisUnavailable = (): Promise<string | null> => (redisProbe ??= findRedis(REDIS_URL));

/**
 * The `skip` value for a describe/test that needs a service: false when it is there, else the
 * reason (printed) — or throws when `requireVar` is 1, so that CI fails instead of skipping.
 */
export function skipReason(reason: string | null, requireVar: string): false | string {
  if (reason === null) return false;
  if (process.env[requireVar] === '1') throw new Error(`${reason} — and ${requireVar}=1`);
  console.log(`# skipped: ${reason}`);
  return reason;
}

/**
 * Skips the test with `reason` (printed), or fails it when the environment requires the
 * service (`PAGEGRADE_REQUIRE_POSTGRES` / `PAGEGRADE_REQUIRE_REDIS` = 1). Returns true when
 * the caller should return.
 */
export function skipUnlessRequired(t: TestContext, reason: string | null, requireVar: string): boolean {
  if (reason === null) return false;
  if (process.env[requireVar] === '1') throw new Error(`${reason} — and ${requireVar}=1`);
  console.log(`# skipped: ${reason}`);
  t.skip(reason);
  return true;
}

/** Runs queries on a database and closes the connection. */
export async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => {});
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => {});
  }
}

export interface TempDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database (`<prefix>_<random>`); drop() removes it. Empty, or with
 * `template` a copy of that database (CREATE DATABASE … TEMPLATE: test/helpers/db.ts's migrated
 * template, which nothing else connects to).
 */
export async function createTempDatabase(
  prefix = 'pagegrade_test',
  template?: string,
): Promise<TempDatabase> {
  if (POSTGRES_UNAVAILABLE !== null) throw new Error(POSTGRES_UNAVAILABLE);
  const name = `${prefix}_${randomId()}`;
  await withPg(ADMIN_POSTGRES_URL, (c) =>
    c.query(template ? `create database ${name} template ${template}` : `create database ${name}`),
  );
  const url = new URL(ADMIN_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await withPg(ADMIN_POSTGRES_URL, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** Deletes every Redis key under `prefix`. */
export async function clearRedisPrefix(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
