// Scheduled re-audits that render the page in Chromium (docs/schedules.md, docs/rendering.md):
// 1 renders each scheduled run, 0 (the default, as before) audits the raw HTML. And
// `run_started_at`: when a run of the claimed slot started (null: not yet), so that a second
// execution of the same job skips while the first may still be running.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE schedules ADD COLUMN render INTEGER NOT NULL DEFAULT 0`).execute(db);
  await sql.raw(`ALTER TABLE schedules ADD COLUMN run_started_at BIGINT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE schedules DROP COLUMN run_started_at`).execute(db);
  await sql.raw(`ALTER TABLE schedules DROP COLUMN render`).execute(db);
}
