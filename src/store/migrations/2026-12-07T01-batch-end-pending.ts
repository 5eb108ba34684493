// batches.end_pending: 1 while a cancelled batch's end (its findings, summary and
// batch.cancelled) is still to be written — the cancel commits the status at once and the end
// follows outside the cancel's transaction (docs/sites.md, "The end of a batch"); 0 otherwise,
// and for every batch before it.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches ADD COLUMN end_pending INTEGER NOT NULL DEFAULT 0`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches DROP COLUMN end_pending`).execute(db);
}
