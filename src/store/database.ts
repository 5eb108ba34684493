// createDb(DATABASE_URL): SQLite (better-sqlite3) or PostgreSQL (pg Pool) behind one Kysely
// interface; migrate(db) applies the in-code migrations (once, even with several processes).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type PgModule from 'pg';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
  type ColumnType,
  type Generated,
  type MigrationResultSet,
} from 'kysely';
import { sqlitePath } from './database-url.js';
import { migrations } from './migrations/index.js';
import { kyselyPool } from './pg-pool.js';
import type { KeyChangeWatch } from './key-changes.js';
import { sqliteConnection } from './sqlite-connection.js';
import type { ProjectIssuesTable, ProjectRuleChangesTable } from './issue-tables.js';
import type { BuildPagesTable, BuildsTable } from './build-tables.js';
import type { JobOutboxTable, JobsTable, WebhookDeliveriesTable, WebhooksTable } from './work-tables.js';
import type { BatchChecksTable, BatchLinksTable, BatchLinkUrlsTable } from './link-tables.js';
import type {
  AuditLogTable,
  InstanceLogTable,
  InvitationsTable,
  IdentitiesTable,
  MembershipsTable,
  OrganizationsTable,
  PasswordResetsTable,
  RecoveryCodesTable,
  SessionsTable,
  SharesTable,
  SsoLoginsTable,
  UsersTable,
} from './account-tables.js';
export type { MembershipsTable } from './account-tables.js';

/** Dates: ISO strings on SQLite, Date objects from PostgreSQL's timestamptz; written as ISO strings. */
type Timestamp = ColumnType<Date | string, string, string>;
type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;

export interface ApiKeysTable {
  id: Generated<number>;
  /** the organisation the key acts in */
  org_id: number;
  /** the member (person) it belongs to: it never does more than their role there allows */
  user_id: number;
  prefix: string;
  /** hex SHA-256 of the whole key */
  hash: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** 'read' or 'read,write' */
  scopes: Generated<string>;
  /** a JSON array of project names; null: every project */
  projects: string | null;
  expires_at: NullableTimestamp;
}

export interface ReportsTable {
  id: Generated<number>;
  /** the owning organisation */
  org_id: number;
  url: string;
  final_url: string;
  project: string;
  result: string;
  /** good 0, decent 1, bad 2 (sort_by=result) */
  result_rank: number;
  score: number;
  privacy: number;
  /** scrypt$N$r$p$salt$hash, or null */
  password_hash: string | null;
  /** JSON text */
  categories: string;
  results: string;
  page: string;
  generated_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** the current run's number (docs/history.md) */
  run_number: Generated<number>;
  /** the newest run's number: larger than run_number when the newest re-audit failed */
  latest_run_number: Generated<number>;
  /** the score of the run before the current one (the dashboard's trend), null for a first run */
  previous_score: Generated<number | null>;
  /** what started the current run (api, dashboard, schedule); null when not recorded */
  run_source: Generated<string | null>;
  /** a rendered audit's `render` object (JSON text, docs/rendering.md); null for raw audits */
  render: Generated<string | null>;
  /** failed checks (`passed: false`) of each priority, from `results` (the CSV of lists) */
  high_issues: Generated<number>;
  medium_issues: Generated<number>;
  low_issues: Generated<number>;
  /**
   * the page the report is of: the crawler's normal form of `url` (tracking parameters
   * removed); a crawl adds a run to the project's report of its key (docs/sites.md,
   * "One report per page"). Indexed with org_id and project; null only for rows written by
   * code older than 2026-11-29T02 (the migration filled those in)
   */
  page_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** the crawl (batch id) that made the current run; null for other sources */
  run_batch_id: Generated<number | null>;
}

/** Earlier runs of a report (the current one is the report row itself). */
export interface ReportRunsTable {
  id: Generated<number>;
  report_id: number;
  /** unique per report: 1, 2, 3 … */
  number: number;
  /** completed (with results) or failed (with `error`, no results) */
  status: string;
  source: string | null;
  error: string | null;
  final_url: string | null;
  result: string | null;
  score: number | null;
  categories: string | null;
  results: string | null;
  page: string | null;
  generated_at: Timestamp;
  /** as reports.render */
  render: Generated<string | null>;
  /** the crawl (batch id) that made the run; null for other sources */
  batch_id: Generated<number | null>;
}

export interface ProjectsTable {
  id: Generated<number>;
  /** the owning organisation */
  org_id: number;
  name: string;
  created_at: Timestamp;
  reports_count: number;
  /** the project's settings that are no secret, JSON; null = none (src/services/projects/settings.ts) */
  settings: ColumnType<string | null, string | null | undefined, string | null>;
  /** the settings' secret values, encrypted (AES-256-GCM); null = none */
  secrets: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface SchedulesTable {
  id: Generated<number>;
  report_id: number | null;
  /** a project's schedule (docs/sites.md "Scheduled crawls"); deleted with the project */
  project_id: number | null;
  /** the owning organisation */
  org_id: number;
  /** hourly, daily, weekly or a 5-field cron expression */
  every: string;
  /** IANA time zone the expression is read in */
  timezone: string;
  /** 1: each run renders the page in Chromium (docs/rendering.md); 0 (default): raw HTML */
  render: Generated<number>;
  /** the next run, jitter included */
  next_run_at: Timestamp;
  /** the slot of a run enqueued and not finished yet */
  claimed_slot: string | null;
  claimed_at: NullableTimestamp;
  /** when a run of the claimed slot started, epoch ms (null: not yet) */
  run_started_at: ColumnType<string | number | null, number | null | undefined, number | null>;
  /** the newest slot whose run finished */
  last_slot: string | null;
  last_run_at: NullableTimestamp;
  last_status: string | null;
  last_error: string | null;
  last_run_number: number | null;
  /** a project's schedule: the batch its last started slot made (null when deleted) */
  last_batch_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A whole-site audit (docs/sites.md); options and summary are JSON text. */
export interface BatchesTable {
  id: Generated<number>;
  /** the owning organisation */
  org_id: number;
  mode: string;
  url: string;
  /** the start URL's project (docs/sites.md); indexed with org_id */
  project: string | null;
  options: string;
  /** 1: every page is a rendered audit (docs/rendering.md); 0 (default): raw HTML */
  render: Generated<number>;
  status: Generated<string>;
  discovered: Generated<number>;
  audited: Generated<number>;
  failed: Generated<number>;
  skipped: Generated<number>;
  error: string | null;
  robots_txt: string | null;
  site_files: string | null;
  delay_ms: Generated<number>;
  /** epoch ms (bigint on PostgreSQL: read through toNumber) */
  next_slot_at: ColumnType<number | string, number | undefined, number>;
  deadline_at: ColumnType<number | string, number | undefined, number>;
  summary: string | null;
  /** the site findings, JSON, stored when the batch ends (null before, and for older batches) */
  findings: string | null;
  /** the sitemap files discovery read, JSON [{url, urls, bytes, truncated?}] (sitemap_too_large); null before */
  sitemap_files: string | null;
  /** reports the batch made, and reports it added a run to */
  reports_created: Generated<number>;
  reports_updated: Generated<number>;
  /** the comparison with the project's previous finished crawl, JSON, stored when it ends done (docs/sites.md) */
  diff: string | null;
  /** the mean of the audited pages' scores, rounded, stored when it ends (null: none audited) */
  site_score: number | null;
  /** 1 while a cancelled batch's end (findings, summary, batch.cancelled) is still to be written */
  end_pending: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

/** One URL of a batch: the frontier, the visited set and the per-page facts. */
export interface BatchPagesTable {
  id: Generated<number>;
  batch_id: number;
  url: string;
  depth: Generated<number>;
  in_sitemap: Generated<number>;
  state: Generated<string>;
  report_id: number | null;
  status_code: number | null;
  final_url: string | null;
  canonical_key: string | null;
  error: string | null;
  facts: string | null;
  /** an audited page's digest for the crawl diff (src/crawl/diff.ts, factsDigest); null before 2026-12-02 */
  digest: string | null;
  /** an audited page's custom extraction values, JSON (src/crawl/extract.ts); null: none */
  extracted: string | null;
  /** why an audited page has no value for an extractor (it ran out of time), JSON {name: message}; null: none */
  extract_errors: Generated<string | null>;
  /** the URLs a redirected page went through, JSON ([first, …, last]); null: no redirect */
  redirect_path: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Per-user branding of the PDF reports (src/store/branding.repository.ts); the logo is base64 text. */
export interface BrandingsTable {
  /** the owning organisation */
  org_id: number;
  name: string | null;
  accent_color: string | null;
  contact: string | null;
  prepared_for: string | null;
  logo_type: string | null;
  logo_data: string | null;
  updated_at: Timestamp;
}

/** a project's own branding: the same columns, keyed by the project (ON DELETE CASCADE) */
export interface ProjectBrandingsTable extends Omit<BrandingsTable, 'org_id'> {
  project_id: number;
}

export interface Database {
  brandings: BrandingsTable;
  project_brandings: ProjectBrandingsTable;
  batches: BatchesTable;
  batch_pages: BatchPagesTable;
  batch_link_urls: BatchLinkUrlsTable;
  batch_links: BatchLinksTable;
  batch_checks: BatchChecksTable;
  jobs: JobsTable;
  job_outbox: JobOutboxTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  recovery_codes: RecoveryCodesTable;
  audit_log: AuditLogTable;
  instance_log: InstanceLogTable;
  shares: SharesTable;
  invitations: InvitationsTable;
  sso_logins: SsoLoginsTable;
  identities: IdentitiesTable;
  api_keys: ApiKeysTable;
  reports: ReportsTable;
  report_runs: ReportRunsTable;
  projects: ProjectsTable;
  settings: SettingsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  schedules: SchedulesTable;
  project_issues: ProjectIssuesTable;
  project_rule_changes: ProjectRuleChangesTable;
  builds: BuildsTable;
  build_pages: BuildPagesTable;
}

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
  /** the connection pool's state (metrics): PostgreSQL's pool; SQLite has one connection */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * API key changes, for the services' key cache (key-changes.ts): SQLite's from its connection;
   * PostgreSQL's come from the LISTEN bus (pg-changes.ts pgKeyChanges), not from the pool
   */
  keyChanges?: KeyChangeWatch;
}

export { sqlitePath } from './database-url.js';

/**
 * pg, loaded when a PostgreSQL URL is opened: importing it costs a SQLite process ~15 ms (it
 * loads Node's own fetch stack at import), most of a `pagegrade keys list` (BENCHMARKS.md).
 */
const loadPg = (): typeof PgModule => createRequire(import.meta.url)('pg') as typeof PgModule;

/** PostgreSQL ends a session idle inside a transaction after this long (its locks released). */
export const PG_IDLE_IN_TRANSACTION_MS = 30_000;

export function createDb(databaseUrl: string): DatabaseHandle {
  if (databaseUrl.startsWith('sqlite:')) {
    const path = sqlitePath(databaseUrl);
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    const database = new SqliteDatabase(path);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    database.pragma('synchronous = NORMAL');
    const { driver, keyChanges } = sqliteConnection(database);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: driver }) });
    return {
      db,
      dialect: 'sqlite',
      close: () => db.destroy(),
      poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
      keyChanges,
    };
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const pool = new (loadPg().Pool)({
      connectionString: databaseUrl,
      max: 10,
      // a host cut off mid-transaction would hold its row locks (a batch's row) until TCP gives
      // up, hours later: PostgreSQL ends such a session after this long idle in its transaction
      // (docs/scale.md); the URL may set ?idle_in_transaction_session_timeout=<ms> (0 = off)
      idle_in_transaction_session_timeout: PG_IDLE_IN_TRANSACTION_MS,
    });
    // an idle client's error (server restart) must not crash the process; the next query reconnects
    pool.on('error', () => {});
    // nor one that arrives while a client is checked out between two queries of a transaction
    // (the session ended by the server: the idle-in-transaction timeout, a restart): pg emits it
    // on the client, where nothing else listens; the transaction's next query then fails
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: kyselyPool(pool) }) });
    return {
      db,
      dialect: 'postgres',
      close: () => db.destroy(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Runs `fn` in one transaction and hands it the transaction. SQLite: BEGIN IMMEDIATE (takes
 * the write lock up front, so two processes never deadlock upgrading a read lock; waits up to
 * busy_timeout). PostgreSQL: READ COMMITTED; the repositories order their writes so that
 * row locks (project, user counters) serialise the transactions that must not interleave.
 */
export async function withTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') {
    // a deadlock or serialization failure rolls the whole transaction back: run it again
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().execute(fn);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (attempt >= 3 || (code !== '40P01' && code !== '40001')) throw err;
      }
    }
  }
  return db.connection().execute(async (conn) => {
    await conn.executeQuery(BEGIN_IMMEDIATE);
    try {
      const out = await fn(conn);
      await conn.executeQuery(COMMIT);
      return out;
    } catch (err) {
      await sql`ROLLBACK`.execute(conn).catch(() => {});
      throw err;
    }
  });
}

// compiled once: every crawled page's transaction runs them (issue 24 §4)
const BEGIN_IMMEDIATE = CompiledQuery.raw('BEGIN IMMEDIATE');
const COMMIT = CompiledQuery.raw('COMMIT');

const provider = { getMigrations: () => Promise.resolve(migrations) };

/** An arbitrary fixed key for pg_advisory_lock: "pagegrade migrations". */
const MIGRATION_LOCK = 7_347_201_337;

function check(result: MigrationResultSet): void {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`database migration ${failed ?? ''} failed: ${reason}`, { cause: result.error });
  }
}

/**
 * Applies every pending migration, once even when several processes start together. On
 * PostgreSQL a session-level advisory lock, taken on the connection that runs them, makes the
 * others wait; on SQLite the write lock of a BEGIN IMMEDIATE transaction does.
 */
export async function migrate(db: Db): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${sql.lit(MIGRATION_LOCK)})`.execute(conn);
      try {
        check(await new Migrator({ db: conn, provider }).migrateToLatest());
      } finally {
        await sql`SELECT pg_advisory_unlock(${sql.lit(MIGRATION_LOCK)})`.execute(conn);
      }
    });
    return;
  }
  // SQLite: Kysely's lock only covers this process's connection; BEGIN IMMEDIATE takes the
  // database's write lock, so another process waits (busy_timeout) and then finds them applied.
  // The migrations run inside that transaction: all or nothing.
  await db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    let result: MigrationResultSet;
    try {
      result = await new Migrator({ db: conn, provider }).migrateToLatest();
    } catch (err) {
      await sql`ROLLBACK`.execute(conn).catch(() => {});
      throw err;
    }
    if (result.error) await sql`ROLLBACK`.execute(conn).catch(() => {});
    else await sql`COMMIT`.execute(conn);
    check(result);
  });
}
