// The sitemap files a batch's discovery read, each with its URL count and uncompressed size
// (JSON text: [{url, urls, bytes, truncated?}]), for sitemap_too_large (docs/sites.md). Null
// for a batch made before this column (the rule then finds nothing) and for a list batch.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches ADD COLUMN sitemap_files TEXT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batches DROP COLUMN sitemap_files`).execute(db);
}
