// users.reports_version: bumped in the same transaction as the report counters, on every
// insert, delete or result change of that user's reports. A search total is exact for one
// version (URLs never change), so totals can be cached per (user, version, filters).
// Frozen once released: never imports application code, never edited; later changes are new
// migrations.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE users ADD COLUMN reports_version INTEGER NOT NULL DEFAULT 0`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE users DROP COLUMN reports_version`).execute(db);
}
