// The dialect matrix for store and integration tests: a fresh SQLite file in a temp dir, and a
// fresh PostgreSQL database (CREATE DATABASE pagegrade_test_<random>, dropped afterwards) when
// a server answers at 127.0.0.1:5432 (user postgres or the current user, trust auth, database
// `test`). Without PostgreSQL those tests are skipped with the reason printed — unless
// PAGEGRADE_REQUIRE_POSTGRES=1 (CI), where its absence fails.
//
// Usage:
//   import { dialects, openTestDb } from '../helpers/db.js';
//   for (const d of dialects) {
//     describe(`reports [${d.name}]`, { skip: d.skip }, () => {
//       let t: TestDb;
//       before(async () => { t = await openTestDb(d); });   // migrated, ready
//       after(() => t.cleanup());
//       …t.db, t.databaseUrl…
//     });
//   }
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrate, type DatabaseHandle, type Dialect } from '../../src/store/database.js';

export interface DialectSetup {
  /** a DATABASE_URL for a fresh, empty database (not migrated) */
  databaseUrl: string;
  /** drops the database / removes the file */
  cleanup(): Promise<void>;
}

export interface TestDialect {
  name: Dialect;
  /** false when usable; otherwise the reason the tests are skipped (pass to describe's `skip`) */
  skip: false | string;
  setup(): Promise<DialectSetup>;
}

export interface TestDb extends DatabaseHandle {
  databaseUrl: string;
  /** closes the handle, then drops the database */
  cleanup(): Promise<void>;
}

const PG_HOST = '127.0.0.1';
const PG_PORT = 5432;

async function tryConnect(user: string): Promise<boolean> {
  const client = new pg.Client({
    host: PG_HOST,
    port: PG_PORT,
    user,
    database: 'test',
    connectionTimeoutMillis: 2000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function findPostgresUser(): Promise<string | null> {
  const candidates = ['postgres', process.env.USER, process.env.LOGNAME].filter(
    (u, i, all): u is string => !!u && all.indexOf(u) === i,
  );
  for (const user of candidates) if (await tryConnect(user)) return user;
  return null;
}

const pgUser = await findPostgresUser();
const requirePostgres = process.env.PAGEGRADE_REQUIRE_POSTGRES === '1';
if (pgUser === null && requirePostgres) {
  throw new Error(
    `PostgreSQL is required (PAGEGRADE_REQUIRE_POSTGRES=1) but ${PG_HOST}:${PG_PORT} database "test" is not reachable`,
  );
}
const pgSkip: false | string =
  pgUser === null
    ? `PostgreSQL not reachable at ${PG_HOST}:${PG_PORT} (database "test", trust auth): skipped`
    : false;
if (pgSkip) console.log(`# ${pgSkip}`);

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ host: PG_HOST, port: PG_PORT, user: pgUser!, database: 'test' });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end().catch(() => {});
  }
}

export const sqliteDialect: TestDialect = {
  name: 'sqlite',
  skip: false,
  async setup() {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrade-test-'));
    return {
      databaseUrl: `sqlite:${join(dir, 'pagegrade.db')}`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

export const postgresDialect: TestDialect = {
  name: 'postgres',
  skip: pgSkip,
  async setup() {
    if (pgUser === null) throw new Error(pgSkip || 'PostgreSQL not reachable');
    const name = `pagegrade_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    return {
      databaseUrl: `postgres://${encodeURIComponent(pgUser)}@${PG_HOST}:${PG_PORT}/${name}`,
      cleanup: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  },
};

export const dialects: TestDialect[] = [sqliteDialect, postgresDialect];

/** A fresh, migrated database of this dialect. */
export async function openTestDb(dialect: TestDialect): Promise<TestDb> {
  const { databaseUrl, cleanup } = await dialect.setup();
  const handle = createDb(databaseUrl);
  try {
    await migrate(handle.db);
  } catch (err) {
    await handle.close();
    await cleanup();
    throw err;
  }
  return {
    ...handle,
    databaseUrl,
    cleanup: async () => {
      await handle.close();
      await cleanup();
    },
  };
}
