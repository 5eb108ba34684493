// The one-report-per-page migration (2026-11-29T02) on a database made by the previous release's
// code (every dialect): 2026-11-29T01 fills batches.project from their URL; then the duplicate
// reports earlier crawls made of a page are merged into the oldest one — the union of their runs
// renumbered by date, the newest completed one current, the strictest privacy (password
// included), batch_pages and one schedule pointed at it, the counters counted again — while
// duplicates no crawl made stay apart; the history and a re-audit read the result.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import { createDb } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { createServices } from '../../src/services/index.js';
import { embeddedQueue } from '../../src/jobs/index.js';
import { cannedAudit } from '../helpers/factories.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { dialects } from '../helpers/db.js';

const BEFORE_PROJECT = '2026-11-28T03-batch-findings';
const PREVIOUS = '2026-11-29T01-batch-project';
const provider = { getMigrations: () => Promise.resolve(migrations) };

const band = (score: number) => (score >= 80 ? 'good' : score >= 49 ? 'decent' : 'bad');
const RANK = { good: 0, decent: 1, bad: 2 } as const;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

for (const dialect of dialects) {
  describe(`one report per page migration [${dialect.name}]`, { skip: dialect.skip }, () => {
    test('merges the duplicates earlier crawls made; batches got their project', async () => {
      const setup = await dialect.setup();
      const h = createDb(setup.databaseUrl);
      try {
        const migrator = new Migrator({ db: h.db, provider });
        assert.equal((await migrator.migrateTo(BEFORE_PROJECT)).error, undefined);
        const created = '2026-11-01T10:00:00.000Z';
        const audit = cannedAudit('http://site.test/');
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const db = h.db as any;
        const user = (
          await db
            .insertInto('users')
            .values({ name: 'old', created_at: created })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id as number;
        const batch = async (url: string) =>
          (
            await db
              .insertInto('batches')
              .values({
                user_id: user,
                mode: 'crawl',
                url,
                options: '{}',
                status: 'done',
                created_at: created,
                updated_at: created,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id as number;
        const b1 = await batch('http://site.test/');
        const b2 = await batch('http://site.test/');
        const other = await batch('https://WWW.Example.COM./start');

        // 2026-11-29T01 (on main, untested there): each batch's project from its start URL
        assert.equal((await migrator.migrateTo(PREVIOUS)).error, undefined);
        const projects = await db.selectFrom('batches').select(['id', 'project']).orderBy('id').execute();
        assert.deepEqual(
          projects.map((p: { id: number; project: string }) => [p.id, p.project]),
          [
            [b1, 'site.test'],
            [b2, 'site.test'],
            [other, 'example.com'],
          ],
        );

        const report = async (
          url: string,
          o: { score: number; at: string; privacy?: number; hash?: string; source?: string; runs?: number },
        ) =>
          (
            await db
              .insertInto('reports')
              .values({
                user_id: user,
                url,
                final_url: url,
                project: 'site.test',
                result: band(o.score),
                result_rank: RANK[band(o.score)],
                score: o.score,
                privacy: o.privacy ?? 0,
                password_hash: o.hash ?? null,
                categories: JSON.stringify(audit.categories),
                results: JSON.stringify(audit.results),
                page: JSON.stringify(audit.page),
                generated_at: o.at,
                created_at: o.at,
                updated_at: o.at,
                run_number: o.runs ?? 1,
                latest_run_number: o.runs ?? 1,
                run_source: o.source ?? null,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id as number;
        const keptRun = (reportId: number, number: number, at: string, score: number | null) =>
          db
            .insertInto('report_runs')
            .values({
              report_id: reportId,
              number,
              status: score === null ? 'failed' : 'completed',
              source: score === null ? 'schedule' : null,
              error: score === null ? 'connection refused' : null,
              final_url: score === null ? null : 'http://site.test/a',
              result: score === null ? null : band(score),
              score,
              categories: score === null ? null : JSON.stringify(audit.categories),
              results: score === null ? null : JSON.stringify(audit.results),
              page: score === null ? null : JSON.stringify(audit.page),
              generated_at: at,
            })
            .execute();
        const page = (batchId: number, url: string, reportId: number) =>
          db
            .insertInto('batch_pages')
            .values({
              batch_id: batchId,
              url,
              state: 'done',
              report_id: reportId,
              created_at: created,
              updated_at: created,
            })
            .execute();
        const schedule = async (reportId: number) =>
          (
            await db
              .insertInto('schedules')
              .values({
                report_id: reportId,
                user_id: user,
                every: 'daily',
                timezone: 'UTC',
                next_run_at: '2026-12-01T00:00:00.000Z',
                created_at: created,
                updated_at: created,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id as number;

        // page /a: a single audit (a tracking parameter in its URL, re-audited once, scheduled),
        // then a password report from crawl 1 (scheduled too), then crawl 2's report (a failed
        // scheduled run after it)
        const r1 = await report('http://site.test/a?utm_source=mail', {
          score: 60,
          at: '2026-11-10T10:00:00.000Z',
          source: 'api',
          runs: 2,
        });
        await keptRun(r1, 1, '2026-11-05T10:00:00.000Z', 50);
        const r2 = await report('http://site.test/a', {
          score: 70,
          at: '2026-11-12T10:00:00.000Z',
          privacy: 2,
          hash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
        });
        const r3 = await report('http://site.test/a', { score: 85, at: '2026-11-20T10:00:00.000Z' });
        await db.updateTable('reports').set({ latest_run_number: 2 }).where('id', '=', r3).execute();
        await keptRun(r3, 2, '2026-11-21T10:00:00.000Z', null);
        await page(b1, 'http://site.test/a', r2);
        await page(b2, 'http://site.test/a', r3);
        const s1 = await schedule(r1);
        const s2 = await schedule(r2);
        // page /b: a private report and a password one, by the two crawls; the newer is scheduled
        const r4 = await report('http://site.test/b', {
          score: 30,
          at: '2026-11-12T10:00:00.000Z',
          privacy: 1,
        });
        const r5 = await report('http://site.test/b', {
          score: 90,
          at: '2026-11-20T10:00:00.000Z',
          privacy: 2,
          hash: 'scrypt$16384$8$1$b3RoZXI$aGFzaDI',
        });
        await page(b1, 'http://site.test/b', r4);
        await page(b2, 'http://site.test/b', r5);
        const s5 = await schedule(r5);
        // page /c: two single audits, no crawl: they stay two reports
        const r6 = await report('http://site.test/c', { score: 80, at: '2026-11-12T10:00:00.000Z' });
        const r7 = await report('http://site.test/c', { score: 80, at: '2026-11-13T10:00:00.000Z' });
        // the counters as the previous release kept them: 7 reports
        await db
          .updateTable('users')
          .set({ reports_count: 7, good_count: 4, decent_count: 2, bad_count: 1, projects_count: 1 })
          .where('id', '=', user)
          .execute();
        await db
          .insertInto('projects')
          .values({ user_id: user, name: 'site.test', created_at: created, reports_count: 7 })
          .execute();

        assert.equal((await migrator.migrateToLatest()).error, undefined);

        const rows = await db.selectFrom('reports').selectAll().orderBy('id').execute();
        assert.deepEqual(
          rows.map((r: { id: number }) => r.id),
          [r1, r4, r6, r7],
          'the oldest report of each merged page survives; /c stays two',
        );
        const row = (id: number) => rows.find((r: { id: number }) => r.id === id);
        const a = row(r1);
        assert.equal(a.page_key, 'http://site.test/a');
        assert.equal(a.url, 'http://site.test/a?utm_source=mail', 'its URL stays');
        assert.deepEqual(
          [a.privacy, a.password_hash, a.score, a.result, a.result_rank, iso(a.generated_at)],
          [2, 'scrypt$16384$8$1$c2FsdA$aGFzaA', 85, 'good', 0, '2026-11-20T10:00:00.000Z'],
        );
        assert.deepEqual(
          [a.run_number, a.latest_run_number, a.previous_score, a.run_source, a.run_batch_id].map((v) =>
            typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v,
          ),
          [4, 5, 70, 'batch', b2],
        );
        assert.notEqual(iso(a.updated_at), '2026-11-10T10:00:00.000Z', 'its password changed: passes end');
        const b = row(r4);
        assert.deepEqual([b.privacy, b.password_hash, b.score, b.result], [1, null, 90, 'good']);
        assert.deepEqual(
          rows
            .filter((r: { id: number }) => r.id === r6 || r.id === r7)
            .map((r: { page_key: string }) => r.page_key),
          ['http://site.test/c', 'http://site.test/c'],
        );

        const pages = await db.selectFrom('batch_pages').select(['url', 'report_id']).orderBy('id').execute();
        assert.deepEqual(
          pages.map((p: { url: string; report_id: number }) => [p.url, p.report_id]),
          [
            ['http://site.test/a', r1],
            ['http://site.test/a', r1],
            ['http://site.test/b', r4],
            ['http://site.test/b', r4],
          ],
        );
        const schedules = await db
          .selectFrom('schedules')
          .select(['id', 'report_id'])
          .orderBy('id')
          .execute();
        assert.deepEqual(
          schedules.map((x: { id: number; report_id: number }) => [x.id, x.report_id]),
          [
            [s1, r1],
            [s5, r4],
          ],
          "the survivor's own schedule, else the group's",
        );
        assert.ok(!schedules.some((x: { id: number }) => x.id === s2));

        const users = await db
          .selectFrom('organizations')
          .selectAll()
          .where('id', '=', user)
          .executeTakeFirstOrThrow();
        assert.deepEqual(
          [
            users.reports_count,
            users.good_count,
            users.decent_count,
            users.bad_count,
            users.projects_count,
          ].map(Number),
          [4, 4, 0, 0, 1],
        );
        const project = await db.selectFrom('projects').select('reports_count').executeTakeFirstOrThrow();
        assert.equal(Number(project.reports_count), 4);

        // the history reads the union: renumbered by date, the crawls' runs marked with their batch
        const s = createServices({
          queue: embeddedQueue(h.db),
          db: h.db,
          analyze: testAnalyze,
          config: testServicesConfig(),
        });
        const history = await s.reports.runs(user, r1, { perPage: 100 });
        assert.deepEqual(
          history.items.map((r) => [r.number, r.status, r.current, r.source, r.batchId, r.score]),
          [
            [5, 'failed', false, 'schedule', null, null],
            [4, 'completed', true, 'batch', b2, 85],
            [3, 'completed', false, 'batch', b1, 70],
            [2, 'completed', false, 'api', null, 60],
            [1, 'completed', false, null, null, 50],
          ],
        );
        assert.deepEqual(
          (await s.reports.runs(user, r4, { perPage: 100 })).items.map((r) => [
            r.number,
            r.source,
            r.batchId,
          ]),
          [
            [2, 'batch', b2],
            [1, 'batch', b1],
          ],
        );
        // and a re-audit continues the numbering
        const next = await s.reports.reaudit(user, r1, { source: 'api' });
        assert.equal(next.run.number, 6);

        // down: the columns go (the merged reports stay merged)
        assert.equal((await migrator.migrateTo(PREVIOUS)).error, undefined);
        assert.equal((await db.selectFrom('reports').select('id').execute()).length, 4);
      } finally {
        await h.close();
        await setup.cleanup();
      }
    });
  });
}
