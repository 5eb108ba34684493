// Scoped API keys: what a key may do (`scopes`: 'read' or 'read,write'), the projects it is
// limited to (`projects`: a JSON array of names; NULL: every project) and when it expires
// (`expires_at`; NULL: never). Keys made before keep every scope, every project, no expiry.
// Frozen once released: never imports application code, never edited; later changes are new
// migrations.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const ts = isPostgres(db) ? 'timestamptz(3)' : 'TEXT';
  await sql.raw(`ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT 'read,write'`).execute(db);
  await sql.raw(`ALTER TABLE api_keys ADD COLUMN projects TEXT`).execute(db);
  await sql.raw(`ALTER TABLE api_keys ADD COLUMN expires_at ${ts}`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE api_keys DROP COLUMN expires_at`).execute(db);
  await sql.raw(`ALTER TABLE api_keys DROP COLUMN projects`).execute(db);
  await sql.raw(`ALTER TABLE api_keys DROP COLUMN scopes`).execute(db);
}
