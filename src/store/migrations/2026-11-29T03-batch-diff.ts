// A batch compared with the project's previous finished crawl (docs/sites.md, "Comparing
// crawls"): `diff` is the comparison (JSON text), computed once when the batch ends `done`;
// `site_score` is the mean of its audited pages' scores, rounded (null: none audited). Both
// null for batches that ended before this column, and while a batch runs.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches ADD COLUMN diff TEXT`).execute(db);
  await sql.raw(`ALTER TABLE batches ADD COLUMN site_score INTEGER`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches DROP COLUMN site_score`).execute(db);
  await sql.raw(`ALTER TABLE batches DROP COLUMN diff`).execute(db);
}
