// A project's schedule (docs/sites.md "Scheduled crawls", docs/schedules.md): the schedules
// table holds both kinds. A row belongs to a report (report_id, as before) or to a project
// (project_id, deleted with the project), never both. A project's scheduled slot starts a crawl
// (`last_status` `started`, its batch in `last_batch_id`) or is skipped because a crawl of the
// project is still queued or running (`skipped`, the reason in `last_error`).
// Frozen once released: never imports application code, never edited.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const STATUSES = `'completed', 'failed', 'started', 'skipped'`;

// SQLite cannot drop NOT NULL nor change a CHECK: schedules is rebuilt (nothing references it)
const sqliteTable = (name: string, projects: boolean) => `CREATE TABLE ${name} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    report_id INTEGER ${projects ? '' : 'NOT NULL '}UNIQUE REFERENCES reports(id) ON DELETE CASCADE,
    ${projects ? 'project_id INTEGER UNIQUE REFERENCES projects(id) ON DELETE CASCADE,' : ''}
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    every TEXT NOT NULL,
    timezone TEXT NOT NULL DEFAULT 'UTC',
    next_run_at TEXT NOT NULL,
    claimed_slot TEXT,
    claimed_at TEXT,
    last_slot TEXT,
    last_run_at TEXT,
    last_status TEXT CHECK (last_status IN (${projects ? STATUSES : `'completed', 'failed'`})),
    last_error TEXT,
    last_run_number INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    render INTEGER NOT NULL DEFAULT 0,
    run_started_at BIGINT${
      projects
        ? `,
    last_batch_id INTEGER REFERENCES batches(id) ON DELETE SET NULL,
    CHECK ((report_id IS NULL) <> (project_id IS NULL))`
        : ''
    }
  )`;

const COMMON = `id, report_id, user_id, every, timezone, next_run_at, claimed_slot, claimed_at, last_slot,
  last_run_at, last_status, last_error, last_run_number, created_at, updated_at, render, run_started_at`;

const indexes = [
  `CREATE INDEX schedules_user_id ON schedules (user_id, id)`,
  `CREATE INDEX schedules_next_run_at ON schedules (next_run_at)`,
];

const sqliteUp = [
  sqliteTable('schedules_any', true),
  `INSERT INTO schedules_any (${COMMON}) SELECT ${COMMON} FROM schedules`,
  `DROP TABLE schedules`,
  `ALTER TABLE schedules_any RENAME TO schedules`,
  ...indexes,
];

const postgresUp = [
  `ALTER TABLE schedules
     ALTER COLUMN report_id DROP NOT NULL,
     ADD COLUMN project_id integer UNIQUE REFERENCES projects(id) ON DELETE CASCADE,
     ADD COLUMN last_batch_id integer REFERENCES batches(id) ON DELETE SET NULL,
     DROP CONSTRAINT schedules_last_status_check,
     ADD CONSTRAINT schedules_last_status_check CHECK (last_status IN (${STATUSES})),
     ADD CONSTRAINT schedules_report_or_project CHECK ((report_id IS NULL) <> (project_id IS NULL))`,
];

// Both dialects, down: the old shape keeps reports' schedules only, with the old statuses
const forget = [
  `DELETE FROM schedules WHERE report_id IS NULL`,
  `UPDATE schedules SET last_status = NULL WHERE last_status NOT IN ('completed', 'failed')`,
];

const sqliteDown = [
  sqliteTable('schedules_reports', false),
  `INSERT INTO schedules_reports (${COMMON}) SELECT ${COMMON} FROM schedules`,
  `DROP TABLE schedules`,
  `ALTER TABLE schedules_reports RENAME TO schedules`,
  ...indexes,
];

const postgresDown = [
  `ALTER TABLE schedules
     DROP CONSTRAINT schedules_report_or_project,
     DROP CONSTRAINT schedules_last_status_check,
     ADD CONSTRAINT schedules_last_status_check CHECK (last_status IN ('completed', 'failed')),
     DROP COLUMN last_batch_id,
     DROP COLUMN project_id,
     ALTER COLUMN report_id SET NOT NULL`,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of postgres ? postgresUp : sqliteUp) await sql.raw(statement).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of [...forget, ...(postgres ? postgresDown : sqliteDown)]) {
    await sql.raw(statement).execute(db);
  }
}
