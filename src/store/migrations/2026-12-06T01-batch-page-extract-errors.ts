// batch_pages.extract_errors: why an audited page has no value for an extractor — one that ran
// past its time on the page and was stopped (docs/sites.md, "Custom extraction": "The time
// bound") — JSON text {name: message}; null when every extractor ran, and for pages before it.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batch_pages ADD COLUMN extract_errors TEXT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batch_pages DROP COLUMN extract_errors`).execute(db);
}
