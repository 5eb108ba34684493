// Batches whose pages are rendered audits (docs/sites.md, docs/rendering.md): 1 renders every
// page of the batch in Chromium, 0 (the default, as before) audits the raw HTML.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches ADD COLUMN render INTEGER NOT NULL DEFAULT 0`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches DROP COLUMN render`).execute(db);
}
