// Helpers for the scale-out tests: a fresh PostgreSQL database per test file (dropped after),
// a Redis key prefix per run, free ports, and real service processes started with
// `node --import tsx src/server.ts` and stopped with SIGTERM.
//
// PostgreSQL and Redis are the local ones (127.0.0.1:5432 db `test`, 127.0.0.1:6379), or
// PAGEGRADE_TEST_POSTGRES_URL / PAGEGRADE_TEST_REDIS_URL. Where one is unreachable the test
// skips with the reason, unless PAGEGRADE_REQUIRE_POSTGRES=1 / PAGEGRADE_REQUIRE_REDIS=1
// (set by .ci/run), where it fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { Redis } from 'ioredis';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const ADMIN_POSTGRES_URL =
  process.env.PAGEGRADE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.PAGEGRADE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A random suffix safe in database names and Redis prefixes. */
export const randomId = (): string => randomBytes(5).toString('hex');

/** null when PostgreSQL answers, else the reason it cannot be used. */
export async function postgresUnavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: ADMIN_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return `PostgreSQL at ${ADMIN_POSTGRES_URL} is unreachable (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** null when Redis answers PING, else the reason it cannot be used. */
export async function redisUnavailable(): Promise<string | null> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (err) {
    return `Redis at ${REDIS_URL} is unreachable (${(err as Error).message})`;
  } finally {
    client.disconnect();
  }
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

export interface TempDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database (`pagegrade_scale_<random>`); drop() removes it. */
export async function createTempDatabase(prefix = 'pagegrade_scale'): Promise<TempDatabase> {
  const name = `${prefix}_${randomId()}`;
  const admin = new pg.Client({ connectionString: ADMIN_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Runs queries on a database and closes the connection. */
export async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
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

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  port: number;
  origin: string;
  child: ChildProcess;
  /** stdout and stderr so far */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Starts `node --import tsx src/server.ts` with `env` (on top of a minimal environment: PATH,
 * HOME), on a free port of 127.0.0.1, and waits until GET /healthz answers 200.
 */
export async function startService(env: Record<string, string>, timeoutMs = 20_000): Promise<ServiceProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PAGEGRADE_PUBLIC_URL: origin,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const proc: ServiceProcess = {
    port,
    origin,
    child,
    output: () => out,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`service exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${out}`);
    }
    try {
      const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return proc;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.stop(1000);
      throw new Error(`service not ready within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A JSON API call with a bearer key (form-encoded bodies, as the spec's clients send). */
export async function api(
  origin: string,
  key: string,
  method: string,
  path: string,
  form?: Record<string, string>,
): Promise<ApiResponse> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}
