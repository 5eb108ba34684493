// organizations.crawl_writes: bumped with reports_version by a crawl's page (its report made or
// given a run), and by nothing else — so that a list's kept answer can tell a version moved only
// by a running crawl, which it may trail by up to a second, from one moved by anything else,
// which it never trails (docs/api.md, "Kept answers").
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE organizations ADD COLUMN crawl_writes INTEGER NOT NULL DEFAULT 0`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE organizations DROP COLUMN crawl_writes`).execute(db);
}
