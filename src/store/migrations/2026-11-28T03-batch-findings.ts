// A finished batch's site findings, computed once when it ends (JSON text), so that a view or
// an export of a large batch does not compute them again (docs/sites.md). Null until it ends,
// and for batches that ended before this column (they are computed from their pages then).
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches ADD COLUMN findings TEXT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches DROP COLUMN findings`).execute(db);
}
