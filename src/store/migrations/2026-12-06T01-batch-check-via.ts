// The fonts (and @imports) a batch's stylesheets name (issue 21 §1, docs/sites.md "Links and
// resources checked"): `batch_checks.via`, on such a URL's row, the stylesheets that name it
// (JSON text, an array of URLs); null on every other row, and on the rows of batches checked
// before it. A URL found in a stylesheet is stored as soon as it is found (verdict `pending`,
// until its own answer is in), so that a check step taken up again knows it without reading the
// stylesheet again. Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batch_checks ADD COLUMN via TEXT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batch_checks DROP COLUMN via`).execute(db);
}
