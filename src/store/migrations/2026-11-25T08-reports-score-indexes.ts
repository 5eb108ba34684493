// sort_by=score: per-user indexes that serve the score order (ties by id), alone and with the
// result or project filter, so a page of "worst first" is read from an index in order (both
// dialects). Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

const indexes = [
  `CREATE INDEX reports_user_score ON reports (user_id, score, id)`,
  `CREATE INDEX reports_user_rank_score ON reports (user_id, result_rank, score, id)`,
  `CREATE INDEX reports_user_project_score ON reports (user_id, project, score, id)`,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of indexes) await sql.raw(statement).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['reports_user_score', 'reports_user_rank_score', 'reports_user_project_score'])
    await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
}
