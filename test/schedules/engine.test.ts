// Scheduled re-audits through the real job engines — the `jobs` table on SQLite and
// PostgreSQL, and BullMQ on Redis — with their workers and the scheduler's recurring task
// running (a 100 ms tick): a due schedule runs once and adds a run to the history; after
// "downtime" (next_run_at several periods in the past) it runs exactly once and goes on from
// now; a page that cannot be fetched is a failed run with its reason and the schedule goes on.
// Pages come from a fixture server on 127.0.0.1 that counts the requests per page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobEngine, Workers } from '../../src/jobs/index.js';
import { scheduleRun, schedulesDue } from '../../src/jobs/kinds/schedule-run.js';
import type { AnyJobKind } from '../../src/jobs/kind-tools.js';
import type { AppJobDeps } from '../../src/jobs/kinds/index.js';
import { createServices } from '../../src/services/index.js';
import type { Services } from '../../src/services/types.js';
import type { Db } from '../../src/store/database.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { queueEngines, waitFor, type QueueHarness } from '../helpers/queues.js';
import { hourlyFarFromNow } from '../helpers/schedules.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const HOUR = 3600_000;

/** Puts a schedule's next run `agoMs` in the past (as after downtime). */
async function makeDue(db: Db, reportId: number, agoMs: number): Promise<void> {
  await db
    .updateTable('schedules')
    .set({ next_run_at: new Date(Date.now() - agoMs).toISOString() })
    .where('report_id', '=', reportId)
    .execute();
}

for (const engine of queueEngines) {
  describe(`scheduled re-audits through the job engine [${engine.name}]`, { skip: engine.skip }, () => {
    let h: QueueHarness;
    let services: Services;
    let workers: Workers;
    let site: FixtureServer;
    let user: TestUser;
    const hits = (path: string) => site.requests.filter((p) => p === path).length;

    before(async () => {
      h = await engine.open([scheduleRun as AnyJobKind], { pollMs: 50 });
      const q: JobEngine = h.engine;
      services = createServices({
        db: h.db,
        analyze: testAnalyze,
        config: testServicesConfig(),
        queue: q.queue,
      });
      workers = q.startWorkers<AppJobDeps>({
        deps: { services, queue: q.queue, log: silent },
        recurring: [schedulesDue(100)],
      });
      site = await startFixtureServer();
      user = await buildUser(services);
    });
    after(async () => {
      await workers?.stop();
      await site?.close();
      await h?.close();
    });

    async function scheduled(path: string, every = hourlyFarFromNow()) {
      site.route(path, html(goodPage(site.origin)));
      const report = await services.reports.create(user.id, { url: `${site.origin}${path}` });
      const { schedule } = await services.schedules.put(user.id, report.id, { every });
      assert.ok(new Date(schedule.nextRunAt).getTime() > Date.now(), 'the first run is in the future');
      return report.id;
    }

    test('a due schedule runs once: a new run in the history, source "schedule"', async () => {
      const id = await scheduled('/due');
      assert.equal(hits('/due'), 1);
      await makeDue(h.db, id, 1000);
      const s = (await waitFor(
        async () => {
          const s = await services.schedules.get(user.id, id);
          return s.lastRunNumber === 2 && !s.running ? s : null;
        },
        'the scheduled run',
        30_000,
      ))!;
      assert.equal(s.lastStatus, 'completed');
      assert.ok(new Date(s.nextRunAt).getTime() > Date.now(), 'the next run is in the future');
      assert.ok(new Date(s.nextRunAt).getTime() <= Date.now() + HOUR + 5 * 60_000, 'within the next slot');
      const runs = await services.reports.runs(user.id, id, {});
      assert.equal(runs.total, 2);
      assert.equal(runs.items[0]!.source, 'schedule');
      assert.equal(runs.items[0]!.status, 'completed');
      // a few more ticks: nothing more runs
      await new Promise((r) => setTimeout(r, 800));
      assert.equal(hits('/due'), 2);
      assert.equal((await services.reports.runs(user.id, id, {})).total, 2);
    });

    test('two executions of one slot at once (at-least-once delivery): one re-audit', async () => {
      const id = await scheduled('/twice');
      const row = await h.db
        .selectFrom('schedules')
        .select(['id'])
        .where('report_id', '=', id)
        .executeTakeFirstOrThrow();
      // claimed as the scheduler claims (next run an hour away, so no tick takes it again)
      const slot = new Date(Date.now() - 1000).toISOString();
      await h.db
        .updateTable('schedules')
        .set({ claimed_slot: slot, claimed_at: new Date().toISOString() })
        .where('id', '=', row.id)
        .execute();
      const job = { attempt: 1, maxAttempts: 3 };
      const results = await Promise.all([
        services.schedules.run(row.id, slot, job),
        services.schedules.run(row.id, slot, job),
      ]);
      assert.deepEqual(
        results.map((r) => r.status).sort(),
        ['completed', 'skipped'],
        JSON.stringify(results),
      );
      assert.match(JSON.stringify(results), /another run of this slot is under way/);
      assert.equal(hits('/twice'), 2, 'one fetch when stored, one for the slot');
      assert.equal((await services.reports.runs(user.id, id, {})).total, 2);
      // and once it has run, the slot does not run again
      assert.equal((await services.schedules.run(row.id, slot, job)).status, 'skipped');
      assert.equal(hits('/twice'), 2);

      // a second execution that comes while the first runs (it marked the claim a moment ago)
      // skips; one that comes after the job's lease (its worker died) takes the run over
      const slot2 = new Date(Date.now() - 500).toISOString();
      const claim = (startedAgoMs: number) =>
        h.db
          .updateTable('schedules')
          .set({
            claimed_slot: slot2,
            claimed_at: new Date().toISOString(),
            run_started_at: Date.now() - startedAgoMs,
          })
          .where('id', '=', row.id)
          .execute();
      await claim(1000);
      const late = await services.schedules.run(row.id, slot2, job);
      assert.equal(late.status, 'skipped', JSON.stringify(late));
      assert.equal(hits('/twice'), 2);
      await claim(120_000);
      assert.equal((await services.schedules.run(row.id, slot2, job)).status, 'completed');
      assert.equal(hits('/twice'), 3);
    });

    test('after downtime of five periods, the missed slots are caught up once', async () => {
      const id = await scheduled('/late');
      await makeDue(h.db, id, 5 * HOUR + 60_000);
      await waitFor(
        async () => (await services.schedules.get(user.id, id)).lastRunNumber === 2,
        'the catch-up run',
        30_000,
      );
      await new Promise((r) => setTimeout(r, 800));
      const s = await services.schedules.get(user.id, id);
      assert.equal(hits('/late'), 2, 'one fetch for the audit, one for the catch-up');
      assert.equal((await services.reports.runs(user.id, id, {})).total, 2, 'exactly one run for five slots');
      assert.ok(new Date(s.nextRunAt).getTime() > Date.now(), 'goes on from now');
      assert.ok(new Date(s.nextRunAt).getTime() <= Date.now() + HOUR + 5 * 60_000);
    });

    test('a page that cannot be fetched: a failed run with the reason; the schedule goes on', async () => {
      const id = await scheduled('/flaky', '*/5 * * * *');
      site.route('/flaky', { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' });
      await makeDue(h.db, id, 1000);
      const failed = (await waitFor(
        async () => {
          const s = await services.schedules.get(user.id, id);
          return s.lastStatus === 'failed' && !s.running ? s : null;
        },
        'the failed run',
        30_000,
      ))!;
      assert.match(failed.lastError ?? '', /HTML/i);
      assert.equal(failed.lastRunNumber, 2);
      assert.ok(new Date(failed.nextRunAt).getTime() > Date.now(), 'the next slot is set');
      const runs = await services.reports.runs(user.id, id, {});
      assert.equal(runs.items[0]!.status, 'failed');
      assert.equal(runs.items[0]!.source, 'schedule');
      assert.equal(runs.items[0]!.error, failed.lastError);
      // the page is back: the next slot completes
      site.route('/flaky', html(goodPage(site.origin)));
      await makeDue(h.db, id, 1000);
      const ok = (await waitFor(
        async () => {
          const s = await services.schedules.get(user.id, id);
          return s.lastRunNumber === 3 && !s.running ? s : null;
        },
        'the next run',
        30_000,
      ))!;
      assert.equal(ok.lastStatus, 'completed');
      assert.equal(ok.lastError, null);
    });

    test('a deleted report takes its schedule with it; its queued run does nothing', async () => {
      const id = await scheduled('/gone');
      await services.reports.delete(user.id, id);
      await assert.rejects(services.schedules.get(user.id, id), /No such report/);
      const rows = await h.db.selectFrom('schedules').select('id').where('report_id', '=', id).execute();
      assert.equal(rows.length, 0);
    });
  });
}
