// Two indexes a crawl's page transaction met on PostgreSQL with statistics older than the rows
// (a fresh table, or a batch in its first minute before autoanalyze): bench/crawl-load.ts
// counted each page reading every row of its batch or project.
// - reports_user_project_page gains `id`, so a crawl's report lookup (findPageReport: a
//   project's report of a page, the newest first) is one probe, not a backward walk of the
//   project's reports on reports_user_project filtering page_key.
// - batch_pages_canonical is dropped: no query looks pages up by canonical key since only the
//   very same final URL is de-duplicated (issue 20 §5), and the planner took it, filtering
//   `state`, for the claim of queued pages and the counts by state that batch_pages_batch_state
//   serves. It was also one more index written by every audited page.
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP INDEX reports_user_project_page`).execute(db);
  await sql.raw(`CREATE INDEX reports_user_project_page ON reports (org_id, project, page_key, id)`).execute(db);
  await sql.raw(`DROP INDEX batch_pages_canonical`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE INDEX batch_pages_canonical ON batch_pages (batch_id, canonical_key)`).execute(db);
  await sql.raw(`DROP INDEX reports_user_project_page`).execute(db);
  await sql.raw(`CREATE INDEX reports_user_project_page ON reports (org_id, project, page_key)`).execute(db);
}
