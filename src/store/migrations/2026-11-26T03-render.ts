// Rendered audits (docs/rendering.md): a report's (and a kept run's) `render` object as JSON
// text; null for raw audits. Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE reports ADD COLUMN render TEXT`).execute(db);
  await sql.raw(`ALTER TABLE report_runs ADD COLUMN render TEXT`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE report_runs DROP COLUMN render`).execute(db);
  await sql.raw(`ALTER TABLE reports DROP COLUMN render`).execute(db);
}
