// batch_pages.extracted: an audited page's custom extraction values (docs/sites.md, "Custom
// extraction"), JSON text {name: value | [values] | null}; null when the batch has no
// extractors, and for pages audited before it.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batch_pages ADD COLUMN extracted TEXT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batch_pages DROP COLUMN extracted`).execute(db);
}
