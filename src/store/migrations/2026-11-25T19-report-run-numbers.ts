// Report history (docs/history.md): runs are numbered per report (1, 2, 3 …). `reports` holds
// the current run (its results, and now its number `run_number`), `latest_run_number` is the
// newest run's number (larger than run_number when the newest re-audit failed),
// `previous_score` the score of the run before the current one (the dashboard's trend arrow),
// `run_source` what started the current run. Earlier runs stay in report_runs with their
// `number`, a `status` (`completed`, or `failed` with its `error` and no results) and `source`.
// Existing runs are numbered in the order they were kept; a report's current run follows them.
// Frozen once released: never imports application code, never edited.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// SQLite cannot drop NOT NULL from a column: report_runs is rebuilt (nothing references it).
const sqliteUp = [
  `CREATE TABLE report_runs_numbered (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('completed', 'failed')),
    source TEXT,
    error TEXT,
    final_url TEXT,
    result TEXT,
    score INTEGER,
    categories TEXT,
    results TEXT,
    page TEXT,
    generated_at TEXT NOT NULL,
    CHECK ((status = 'completed') = (results IS NOT NULL))
  )`,
  `INSERT INTO report_runs_numbered
     (id, report_id, number, status, final_url, result, score, categories, results, page, generated_at)
   SELECT id, report_id, ROW_NUMBER() OVER (PARTITION BY report_id ORDER BY id), 'completed',
          final_url, result, score, categories, results, page, generated_at
   FROM report_runs`,
  `DROP TABLE report_runs`,
  `ALTER TABLE report_runs_numbered RENAME TO report_runs`,
  `CREATE UNIQUE INDEX report_runs_report_number ON report_runs (report_id, number)`,
  `ALTER TABLE reports ADD COLUMN run_number INTEGER NOT NULL DEFAULT 1`,
  `ALTER TABLE reports ADD COLUMN latest_run_number INTEGER NOT NULL DEFAULT 1`,
  `ALTER TABLE reports ADD COLUMN previous_score INTEGER`,
  `ALTER TABLE reports ADD COLUMN run_source TEXT`,
];

const postgresUp = [
  `ALTER TABLE report_runs
     ADD COLUMN number integer,
     ADD COLUMN status text NOT NULL DEFAULT 'completed' CHECK (status IN ('completed', 'failed')),
     ADD COLUMN source text,
     ADD COLUMN error text,
     ALTER COLUMN final_url DROP NOT NULL,
     ALTER COLUMN result DROP NOT NULL,
     ALTER COLUMN score DROP NOT NULL,
     ALTER COLUMN categories DROP NOT NULL,
     ALTER COLUMN results DROP NOT NULL,
     ALTER COLUMN page DROP NOT NULL`,
  `UPDATE report_runs SET number = numbered.n
   FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY report_id ORDER BY id) AS n FROM report_runs) AS numbered
   WHERE report_runs.id = numbered.id`,
  `ALTER TABLE report_runs
     ALTER COLUMN number SET NOT NULL,
     ALTER COLUMN status DROP DEFAULT,
     ADD CONSTRAINT report_runs_results_iff_completed CHECK ((status = 'completed') = (results IS NOT NULL))`,
  `DROP INDEX report_runs_report_id`,
  `CREATE UNIQUE INDEX report_runs_report_number ON report_runs (report_id, number)`,
  `ALTER TABLE reports
     ADD COLUMN run_number integer NOT NULL DEFAULT 1,
     ADD COLUMN latest_run_number integer NOT NULL DEFAULT 1,
     ADD COLUMN previous_score smallint,
     ADD COLUMN run_source text`,
];

// Both dialects: a report with kept runs is the run after them; its previous score is the last one's.
const numberReports = [
  `UPDATE reports SET
     run_number = 1 + (SELECT COUNT(*) FROM report_runs r WHERE r.report_id = reports.id),
     latest_run_number = 1 + (SELECT COUNT(*) FROM report_runs r WHERE r.report_id = reports.id),
     previous_score = (SELECT r.score FROM report_runs r WHERE r.report_id = reports.id ORDER BY r.number DESC LIMIT 1)
   WHERE id IN (SELECT report_id FROM report_runs)`,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of [...(postgres ? postgresUp : sqliteUp), ...numberReports]) {
    await sql.raw(statement).execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // failed runs have no results: the old shape cannot keep them
  const statements = postgres
    ? [
        `DELETE FROM report_runs WHERE status = 'failed'`,
        `DROP INDEX report_runs_report_number`,
        `CREATE INDEX report_runs_report_id ON report_runs (report_id, id)`,
        `ALTER TABLE report_runs DROP CONSTRAINT report_runs_results_iff_completed,
           DROP COLUMN number, DROP COLUMN status, DROP COLUMN source, DROP COLUMN error`,
        ...['final_url', 'result', 'score', 'categories', 'results', 'page'].map(
          (c) => `ALTER TABLE report_runs ALTER COLUMN ${c} SET NOT NULL`,
        ),
      ]
    : [
        `CREATE TABLE report_runs_old (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
          final_url TEXT NOT NULL,
          result TEXT NOT NULL,
          score INTEGER NOT NULL,
          categories TEXT NOT NULL,
          results TEXT NOT NULL,
          page TEXT NOT NULL,
          generated_at TEXT NOT NULL
        )`,
        `INSERT INTO report_runs_old
           SELECT id, report_id, final_url, result, score, categories, results, page, generated_at
           FROM report_runs WHERE status = 'completed'`,
        `DROP TABLE report_runs`,
        `ALTER TABLE report_runs_old RENAME TO report_runs`,
        `CREATE INDEX report_runs_report_id ON report_runs (report_id, id)`,
      ];
  for (const column of ['run_number', 'latest_run_number', 'previous_score', 'run_source']) {
    statements.push(`ALTER TABLE reports DROP COLUMN ${column}`);
  }
  for (const statement of statements) await sql.raw(statement).execute(db);
}
