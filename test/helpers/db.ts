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
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createDb, dialectOf, migrate, type DatabaseHandle, type Dialect } from '../../src/store/database.js';
import {
  ADMIN_POSTGRES_URL,
  createTempDatabase,
  POSTGRES_UNAVAILABLE,
  REQUIRE_POSTGRES,
  skipReason,
  withPg,
} from './services.js';

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

/**
 * A fresh, migrated database of this dialect: a copy of a database migrated once (a template per
 * dialect and version of the store: `pgTemplate`, `sqliteTemplate`) — on PostgreSQL ~0.6 s
 * instead of the ~1.9 s an empty one and every migration took, on SQLite a file copy instead of
 * ~0.2 s of migrations. migrate() still runs on it (and finds nothing to do).
 */
export async function openTestDb(dialect: TestDialect): Promise<TestDb> {
  const fromTemplate = () =>
    dialect === postgresDialect && !dialect.skip
      ? pgTemplate()
          .then((tmpl) => createTempDatabase('pagegrade_test', tmpl))
          .then((d) => ({ databaseUrl: d.url, cleanup: d.drop }))
      : dialect === sqliteDialect
        ? sqliteDialect.setup().then(async (d) => {
            copyFileSync(await sqliteTemplate(), d.databaseUrl.slice('sqlite:'.length));
            return d;
          })
        : dialect.setup();
  // a template another checkout's tests dropped meanwhile (a store of another version built its
  // own): made again, once
  const { databaseUrl, cleanup } = await fromTemplate().catch((err: unknown) => {
    const code = (err as { code?: string }).code;
    if (code !== 'ENOENT' && code !== '3D000') throw err;
    pgTemplateName = null;
    sqliteTemplatePath = null;
    return fromTemplate();
  });
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

/** the store's sources (the migrations and what they build on): their hash names the templates */
const STORE = fileURLToPath(new URL('../../src/store/', import.meta.url));
/** an arbitrary fixed key for pg_advisory_lock: the template is built by one process at a time */
const TEMPLATE_LOCK = 7_347_201_338;

let storeHash: string | null = null;
function storeVersion(): string {
  if (storeHash) return storeHash;
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(STORE).map((f) => join(STORE, f)),
    ...readdirSync(join(STORE, 'migrations')).map((f) => join(STORE, 'migrations', f)),
  ]
    .filter((f) => f.endsWith('.ts'))
    .sort();
  for (const f of files) hash.update(f.slice(STORE.length)).update('\0').update(readFileSync(f));
  return (storeHash = hash.digest('hex').slice(0, 16));
}

let pgTemplateName: Promise<string> | null = null;
/**
 * The name of a PostgreSQL database migrated to the current migrations, that the test databases
 * are copied from: `pagegrade_tmpl_<hash of src/store's sources>`, built once on a server (under
 * an advisory lock: test processes start side by side) and kept for the next runs; a change to
 * the store makes another. Nothing connects to it but the build, so it can be copied.
 */
function pgTemplate(): Promise<string> {
  pgTemplateName ??= (async () => {
    const name = `pagegrade_tmpl_${storeVersion()}`;
    await withPg(ADMIN_POSTGRES_URL, async (c) => {
      await c.query(`select pg_advisory_lock(${TEMPLATE_LOCK})`);
      try {
        const found = await c.query('select 1 from pg_database where datname = $1', [name]);
        if (found.rowCount) return;
        // built under another name and renamed when complete: a build that died leaves no
        // half-migrated template behind
        const building = await createTempDatabase('pagegrade_tmpl_build');
        try {
          const handle = createDb(building.url);
          try {
            await migrate(handle.db);
          } finally {
            await handle.close();
          }
          await c.query(`alter database ${building.name} rename to ${name}`);
          // the templates of earlier versions of the store go (one still being copied stays)
          const old = await c.query<{ datname: string }>(
            `select datname from pg_database where datname like 'pagegrade\\_tmpl\\_%' and datname <> $1`,
            [name],
          );
          for (const { datname } of old.rows)
            await c.query(`drop database if exists ${datname}`).catch(() => {});
        } catch (err) {
          await building.drop().catch(() => {});
          throw err;
        }
      } finally {
        await c.query(`select pg_advisory_unlock(${TEMPLATE_LOCK})`);
      }
    });
    return name;
  })();
  pgTemplateName.catch(() => (pgTemplateName = null));
  return pgTemplateName;
}

let sqliteTemplatePath: Promise<string> | null = null;
/**
 * The path of a SQLite file migrated to the current migrations, that the test databases are
 * copied from: `<tmpdir>/pagegrade-tmpl-<hash of src/store's sources>.db`, built by the first
 * process that needs it (migrated under a name of its own, its WAL folded in, then renamed
 * into place: a process copying it sees a whole file, old or new) and kept for the next runs.
 */
function sqliteTemplate(): Promise<string> {
  sqliteTemplatePath ??= (async () => {
    const path = join(tmpdir(), `pagegrade-tmpl-${storeVersion()}.db`);
    if (existsSync(path)) return path;
    const dir = mkdtempSync(join(tmpdir(), 'pagegrade-tmpl-build-'));
    try {
      const building = join(dir, 'template.db');
      const handle = createDb(`sqlite:${building}`);
      try {
        await migrate(handle.db);
        await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(handle.db);
        await sql`PRAGMA journal_mode = DELETE`.execute(handle.db);
      } finally {
        await handle.close();
      }
      renameSync(building, path);
      // the templates of earlier versions of the store go, once an hour old (another checkout's
      // tests may be copying theirs)
      for (const f of readdirSync(tmpdir()))
        if (/^pagegrade-tmpl-[0-9a-f]{16}\.db$/.test(f) && join(tmpdir(), f) !== path) {
          const other = join(tmpdir(), f);
          if (Date.now() - (statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 3600_000)
            rmSync(other, { force: true });
        }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return path;
  })();
  sqliteTemplatePath.catch(() => (sqliteTemplatePath = null));
  return sqliteTemplatePath;
}

/** One report row for `insertReports` (everything but the URL has a default). */
export interface BulkReport {
  url: string;
  /** default: the URL's host, lower-cased, one leading `www.` removed */
  project?: string;
  result?: 'good' | 'decent' | 'bad';
  score?: number;
  /** failed checks by priority (the `*_issues` columns) */
  issues?: { high: number; medium: number; low: number };
  /** ISO; default: created_at */
  generatedAt?: string;
  /** ISO; default: 2026-01-01 plus one second per row of the call */
  createdAt?: string;
  privacy?: 0 | 1 | 2;
}

const BAND_RANK = { good: 0, decent: 1, bad: 2 } as const;
const SCORE_OF = { good: 90, decent: 70, bad: 30 } as const;
const CATEGORY = { score: 0, passed: 0, failed: 0 };
const BULK_CATEGORIES = JSON.stringify({
  seo: CATEGORY,
  performance: CATEGORY,
  security: CATEGORY,
  miscellaneous: CATEGORY,
});

/**
 * Inserts many reports of `userId` at once with multi-row INSERTs (hundreds of thousands in
 * seconds; no audit, `results` and `page` empty JSON objects, `categories` zeros) and keeps
 * what the lists rely on right: the projects' rows and counts, the user's counters and its
 * reports version (and, on PostgreSQL, the planner's statistics). For tests of lists and
 * exports, not of report pages. Returns the ids in the order given.
 *
 * One transaction (one commit, and on SQLite one FTS5 flush instead of one per chunk), with a
 * larger SQLite page cache while it runs: the reports' fifteen indexes no longer spill out of
 * the default 2 MB (100,000 rows: about half the CPU time).
 */
export async function insertReports(
  db: DatabaseHandle['db'],
  userId: number,
  rows: BulkReport[],
): Promise<number[]> {
  const sqlite = dialectOf(db) === 'sqlite';
  const cache = sqlite ? (await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(db)).rows[0] : null;
  if (cache) await sql.raw('PRAGMA cache_size = -131072').execute(db); // 128 MiB, as needed
  try {
    const ids = db.isTransaction
      ? await insertReportRows(db, userId, rows)
      : await db.transaction().execute((trx) => insertReportRows(trx, userId, rows));
    // PostgreSQL plans from statistics: fresh ones, as autovacuum would soon take them
    if (!sqlite) await sql`ANALYZE reports`.execute(db);
    return ids;
  } finally {
    if (cache) await sql.raw(`PRAGMA cache_size = ${Number(cache.cache_size)}`).execute(db);
  }
}

async function insertReportRows(
  db: DatabaseHandle['db'],
  userId: number,
  rows: BulkReport[],
): Promise<number[]> {
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const ids: number[] = [];
  const perProject = new Map<string, { count: number; first: string }>();
  const bands = { good: 0, decent: 0, bad: 0 };
  const CHUNK = 1_000;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const values = rows.slice(start, start + CHUNK).map((r, k) => {
      const result = r.result ?? 'good';
      const createdAt = r.createdAt ?? new Date(base + (start + k) * 1000).toISOString();
      const project = r.project ?? new URL(r.url).hostname.toLowerCase().replace(/^www\./, '');
      const p = perProject.get(project);
      if (p) p.count += 1;
      else perProject.set(project, { count: 1, first: createdAt });
      bands[result] += 1;
      return {
        org_id: userId,
        url: r.url,
        final_url: r.url,
        project,
        result,
        result_rank: BAND_RANK[result],
        score: r.score ?? SCORE_OF[result],
        privacy: r.privacy ?? 0,
        password_hash: null,
        categories: BULK_CATEGORIES,
        results: '{}',
        page: '{}',
        high_issues: r.issues?.high ?? 0,
        medium_issues: r.issues?.medium ?? 0,
        low_issues: r.issues?.low ?? 0,
        generated_at: r.generatedAt ?? createdAt,
        created_at: createdAt,
        updated_at: createdAt,
      };
    });
    const inserted = await db.insertInto('reports').values(values).returning('id').execute();
    ids.push(...inserted.map((r) => r.id));
  }
  let newProjects = 0;
  for (const [name, p] of perProject) {
    const found = await db
      .updateTable('projects')
      .set((eb) => ({ reports_count: eb('reports_count', '+', p.count) }))
      .where('org_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (Number(found.numUpdatedRows) === 0) {
      await db
        .insertInto('projects')
        .values({ org_id: userId, name, created_at: p.first, reports_count: p.count })
        .execute();
      newProjects += 1;
    }
  }
  await db
    .updateTable('organizations')
    .set((eb) => ({
      projects_count: eb('projects_count', '+', newProjects),
      reports_count: eb('reports_count', '+', rows.length),
      good_count: eb('good_count', '+', bands.good),
      decent_count: eb('decent_count', '+', bands.decent),
      bad_count: eb('bad_count', '+', bands.bad),
      reports_version: eb('reports_version', '+', 1),
    }))
    .where('id', '=', userId)
    .execute();
  return ids;
}
