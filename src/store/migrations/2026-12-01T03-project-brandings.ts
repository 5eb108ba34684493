// Per-project branding of the PDF reports (docs/teams.md, "What a client sees"): an agency's
// client name, logo, colour and lines on that client's project's PDFs. At most one row per
// project, the same columns as `brandings` (the organisation's); a field set here replaces the
// organisation's on the project's reports' PDFs, a field left null falls back to it. Deleted
// with its project (ON DELETE CASCADE); a project row with a branding is kept at 0 reports, as
// one with settings. Frozen once released: never imports application code, never edited.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const sqliteUp = `CREATE TABLE project_brandings (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT,
    accent_color TEXT,
    contact TEXT,
    prepared_for TEXT,
    logo_type TEXT,
    logo_data TEXT,
    updated_at TEXT NOT NULL
  )`;

const postgresUp = `CREATE TABLE project_brandings (
    project_id integer PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    name text,
    accent_color text,
    contact text,
    prepared_for text,
    logo_type text,
    logo_data text,
    updated_at timestamptz(3) NOT NULL
  )`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql.raw(postgres ? postgresUp : sqliteUp).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TABLE IF EXISTS project_brandings`).execute(db);
}
