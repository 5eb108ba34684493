// The dialect matrix for store and integration tests: a fresh SQLite file in a temp dir, and a
// fresh PostgreSQL database (CREATE DATABASE pagegrade_test_<random>, dropped afterwards) when
// a server answers (found by test/helpers/services.ts: PAGEGRADE_TEST_POSTGRES_URL, else
// 127.0.0.1:5432 database `test` as postgres or the current user, trust auth). Without
// PostgreSQL those tests are skipped with the reason printed — unless
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
import { createDb, migrate, type DatabaseHandle, type Dialect } from '../../src/store/database.js';
import { createTempDatabase, POSTGRES_UNAVAILABLE, REQUIRE_POSTGRES, skipReason } from './services.js';

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

const pgSkip: false | string = skipReason(POSTGRES_UNAVAILABLE, REQUIRE_POSTGRES);

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
    const database = await createTempDatabase('pagegrade_test');
    return { databaseUrl: database.url, cleanup: database.drop };
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
