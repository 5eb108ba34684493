// The run-numbering migration on a database that already has reports and kept runs (every
// dialect): existing runs are numbered per report in the order they were kept, the report's
// current run follows them, its previous score is the last kept run's; new runs continue.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, sql } from 'kysely';
import { createDb } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { createServices } from '../../src/services/index.js';
import { cannedAudit } from '../helpers/factories.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { dialects } from '../helpers/db.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const BEFORE = '2026-11-25T08-reports-score-indexes';
const provider = { getMigrations: () => Promise.resolve(migrations) };

for (const dialect of dialects) {
  describe(`run numbering migration [${dialect.name}]`, { skip: dialect.skip }, () => {
    test('numbers existing runs and reports; the history reads them', async () => {
      const setup = await dialect.setup();
      const h = createDb(setup.databaseUrl);
      try {
        const migrator = new Migrator({ db: h.db, provider });
        const up = await migrator.migrateTo(BEFORE);
        assert.equal(up.error, undefined);

        // the old schema: two reports, the first with three kept runs (ids interleaved with the other's)
        const now = '2026-11-20T10:00:00.000Z';
        const audit = cannedAudit('http://canned.test/');
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const db = h.db as any;
        const user = await db
          .insertInto('users')
          .values({ name: 'old', created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const report = (url: string) =>
          db
            .insertInto('reports')
            .values({
              user_id: user.id,
              url,
              final_url: url,
              project: 'canned.test',
              result: audit.result,
              result_rank: 0,
              score: audit.score,
              privacy: 0,
              password_hash: null,
              categories: JSON.stringify(audit.categories),
              results: JSON.stringify(audit.results),
              page: JSON.stringify(audit.page),
              generated_at: now,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
        const a = (await report('http://canned.test/a')).id as number;
        const b = (await report('http://canned.test/b')).id as number;
        const run = (reportId: number, score: number, day: number) =>
          db
            .insertInto('report_runs')
            .values({
              report_id: reportId,
              final_url: 'http://canned.test/a',
              result: 'decent',
              score,
              categories: JSON.stringify(audit.categories),
              results: JSON.stringify(audit.results),
              page: JSON.stringify(audit.page),
              generated_at: `2026-11-1${day}T10:00:00.000Z`,
            })
            .execute();
        await run(a, 60, 1);
        await run(a, 65, 2);
        await run(a, 70, 3);

        const latest = await migrator.migrateToLatest();
        assert.equal(latest.error, undefined);

        const runs = await db
          .selectFrom('report_runs')
          .select(['report_id', 'number', 'status', 'score', 'source', 'error'])
          .orderBy('id')
          .execute();
        assert.deepEqual(
          runs.map((r: { report_id: number; number: number; status: string; score: number }) => [
            r.report_id,
            r.number,
            r.status,
            Number(r.score),
          ]),
          [
            [a, 1, 'completed', 60],
            [a, 2, 'completed', 65],
            [a, 3, 'completed', 70],
          ],
        );
        const reports = await db
          .selectFrom('reports')
          .select(['id', 'run_number', 'latest_run_number', 'previous_score', 'run_source'])
          .orderBy('id')
          .execute();
        assert.deepEqual(
          reports.map((r: Record<string, unknown>) => [
            r.id,
            Number(r.run_number),
            Number(r.latest_run_number),
            r.previous_score === null ? null : Number(r.previous_score),
            r.run_source,
          ]),
          [
            [a, 4, 4, 70, null],
            [b, 1, 1, null, null],
          ],
        );

        const s = createServices({
          queue: embeddedQueue(h.db),
          db: h.db,
          analyze: testAnalyze,
          config: testServicesConfig(),
        });
        const page = await s.reports.runs(user.id, a, {});
        assert.deepEqual(
          page.items.map((r) => [r.number, r.current, r.score]),
          [
            [4, true, audit.score],
            [3, false, 70],
            [2, false, 65],
            [1, false, 60],
          ],
        );
        // new runs continue the numbering (and the table's ids continue after the old ones)
        const next = await s.reports.reaudit(user.id, a, { source: 'api' });
        assert.equal(next.status, 'completed');
        assert.equal(next.run.number, 5);
        const ids = await sql<{ id: number }>`SELECT id FROM report_runs ORDER BY id`.execute(h.db);
        assert.deepEqual(
          ids.rows.map((r) => Number(r.id)),
          [1, 2, 3, 4],
        );
        assert.deepEqual(
          await s.reports.trends(user.id, [a, b]),
          new Map([
            [
              a,
              {
                score: next.status === 'completed' ? next.report.score : -1,
                previousScore: audit.score,
                lastRunFailed: false,
              },
            ],
            [b, { score: audit.score, previousScore: null, lastRunFailed: false }],
          ]),
        );

        // and back down: the old shape again, failed runs dropped
        await s.reports.reaudit(user.id, b, { source: 'api' });
        await db
          .insertInto('report_runs')
          .values({
            report_id: b,
            number: 3,
            status: 'failed',
            source: 'schedule',
            error: 'refused',
            generated_at: now,
          })
          .execute();
        const down = await migrator.migrateTo(BEFORE);
        assert.equal(down.error, undefined);
        const left = await db.selectFrom('report_runs').select(['report_id']).execute();
        assert.equal(left.length, 5);
      } finally {
        await h.close();
        await setup.cleanup();
      }
    });
  });
}
