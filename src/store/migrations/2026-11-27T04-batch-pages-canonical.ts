// batch_pages by canonical key: each audited page of a batch looks for a page already done with
// the same canonical URL (de-duplication, docs/sites.md). Without this index that look-up read
// every page of the batch, so a 10,000-page batch slowed down as it grew (BENCHMARKS.md, Sites).
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE INDEX batch_pages_canonical ON batch_pages (batch_id, canonical_key)`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP INDEX batch_pages_canonical`).execute(db);
}
