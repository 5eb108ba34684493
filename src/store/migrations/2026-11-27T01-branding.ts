// Per-user branding of the PDF reports (docs/rendering.md, "Branded PDFs"): at most one row per
// user, deleted with the user. The logo is stored in the database as base64 text with its
// media type (image/png, image/jpeg or image/svg+xml; at most 256 KB decoded, checked by the
// service). Frozen once released: never imports application code, never edited; later changes
// are new migrations.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const sqliteUp = `CREATE TABLE brandings (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    name TEXT,
    accent_color TEXT,
    contact TEXT,
    prepared_for TEXT,
    logo_type TEXT,
    logo_data TEXT,
    updated_at TEXT NOT NULL
  )`;

const postgresUp = `CREATE TABLE brandings (
    user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
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
  await sql.raw(`DROP TABLE IF EXISTS brandings`).execute(db);
}
