// The CSV of report lists (docs/api.md#csv): each report's failed checks by priority as three
// counters (`high_issues`, `medium_issues`, `low_issues`: checks with `passed: false`), kept
// with the audit columns so that a million-row export never reads the `results` text. Existing
// reports are counted from their `results` here, once. Frozen once released: never imports
// application code, never edited.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const PRIORITIES = ['high', 'medium', 'low'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  for (const p of PRIORITIES)
    await sql.raw(`ALTER TABLE reports ADD COLUMN ${p}_issues INTEGER NOT NULL DEFAULT 0`).execute(db);
  // results: {"<check id>": {"priority": "high", "passed": false, …}, …} as JSON text
  const count = (p: string) =>
    pg
      ? `(SELECT count(*) FROM jsonb_each(results::jsonb) AS c(k, v)
           WHERE c.v ->> 'priority' = '${p}' AND c.v -> 'passed' = 'false'::jsonb)`
      : `(SELECT count(*) FROM json_each(results) AS c
           WHERE json_extract(c.value, '$.priority') = '${p}' AND json_type(c.value, '$.passed') = 'false')`;
  await sql
    .raw(`UPDATE reports SET ${PRIORITIES.map((p) => `${p}_issues = ${count(p)}`).join(', ')}`)
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const p of [...PRIORITIES].reverse())
    await sql.raw(`ALTER TABLE reports DROP COLUMN ${p}_issues`).execute(db);
}
