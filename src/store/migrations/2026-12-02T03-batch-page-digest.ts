// batch_pages.digest: what a comparison of two crawls reads of an audited page (its title,
// noindex, band, score and failed checks: src/crawl/diff.ts, pageDigest), written with the page
// when it is audited, so that the diff of two 100,000-page crawls reads these few bytes instead
// of parsing every page's facts with their links (BENCHMARKS.md, issue 20 §7). Pages audited
// before it have none: the diff reads their facts, as before.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batch_pages ADD COLUMN digest TEXT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE batch_pages DROP COLUMN digest`).execute(db);
}
