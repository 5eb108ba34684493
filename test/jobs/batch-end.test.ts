// batch.end: the end of a batch (findings, summary, issue states, diff, batch.completed) is a
// job of its own (docs/sites.md, "The end of a batch"). Its first run fails before it writes
// anything (the batch stays `running`: no finishedAt, no findings), its second is "killed"
// just after the end committed (the job fails after the work: as a worker killed before it
// could mark the job done); the engine retries each time, and the batch ends once: status
// done, its findings and diff stored, and exactly one batch.completed delivery. A last attempt
// that fails ends the batch failed with the reason (batch.failed) instead of leaving it
// running. Real crawls of a fixture site on 127.0.0.1: SQLite and PostgreSQL on the jobs
// table, SQLite with BullMQ on Redis.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { jobKinds } from '../../src/jobs/kinds/index.js';
import { batchEnd, batchEndKind } from '../../src/jobs/kinds/batch-end.js';
import type { Services } from '../../src/services/types.js';
import { sqliteDialect } from '../helpers/db.js';
import { batchEnded, engineSetups, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { waitFor } from '../helpers/queues.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

for (const setup of engineSetups(sqliteDialect)) {
  describe(`batch.end (${setup.name})`, { skip: setup.skip }, () => {
    let app: BatchApp;
    let site: FixtureSite;
    let rx: WebhookReceiver;
    let alice: TestUser;
    /** what each run of the end job saw and did */
    const runs: { batchId: number; statusBefore: string; outcome: string }[] = [];
    let mode: 'fail-twice' | 'always-fail' = 'fail-twice';

    before(async () => {
      app = await startBatchApp(setup.dialect, {
        redis: setup.redis,
        // retried at once (the default backoff is 5 s and more)
        kinds: jobKinds.map((k) =>
          k.kind === batchEnd.kind
            ? batchEndKind({ maxAttempts: 3, backoff: { baseMs: 50, maxMs: 100 } })
            : k,
        ),
        workerServices: (real): Services => ({
          ...real,
          batches: {
            ...real.batches,
            end: async (batchId) => {
              const b = await real.batches.get(alice.id, batchId);
              const n = runs.filter((r) => r.batchId === batchId).length;
              const record = (outcome: string) => runs.push({ batchId, statusBefore: b.status, outcome });
              if (mode === 'always-fail' || n === 0) {
                record('failed before writing');
                throw new Error('the database went away');
              }
              if (n === 1) {
                await real.batches.end(batchId);
                record('killed after the end committed');
                throw new Error('killed after the end committed');
              }
              await real.batches.end(batchId);
              record('ran');
            },
          },
        }),
      });
      site = await startFixtureSite({ pages: 8, crawlDelay: null });
      rx = await startWebhookReceiver();
      alice = await buildUser(app.t.services, 'alice');
      await app.t.services.webhooks.create(alice.id, {
        url: `${rx.origin}/hook`,
        events: ['batch.completed', 'batch.failed'],
      });
    });
    after(async () => {
      await app?.close();
      await site?.close();
      await rx?.close();
    });

    const deliveries = async (batchId: number, event: string) => {
      const rows = await sql<{
        payload: string;
      }>`SELECT payload FROM webhook_deliveries WHERE event = ${event}`.execute(app.t.database.db);
      return rows.rows.filter(
        (r) => (JSON.parse(r.payload) as { data: { batch: { id: number } } }).data.batch.id === batchId,
      );
    };

    test('failed, then killed after it committed: retried, the batch ends once — one batch.completed, one diff', async () => {
      const { t } = app;
      mode = 'fail-twice';
      const created = await t.services.batches.create(alice.id, { url: `${site.origin}/`, mode: 'crawl' });
      const ended = await batchEnded(t, alice.id, created.id);
      assert.equal(ended.status, 'done');
      assert.ok(ended.progress.audited > 1, 'the site was crawled');
      assert.equal(ended.progress.remaining, 0);
      // the third run finds the batch ended and does nothing
      await waitFor(
        async () => runs.filter((r) => r.batchId === created.id).length >= 3 || null,
        'the third run',
      );
      const mine = runs.filter((r) => r.batchId === created.id);
      assert.deepEqual(
        mine.map((r) => [r.statusBefore, r.outcome]),
        [
          ['running', 'failed before writing'],
          ['running', 'killed after the end committed'],
          ['done', 'ran'],
        ],
        'running until the end committed, every page done meanwhile',
      );
      const row = await sql<{ findings: string | null; diff: string | null; summary: string | null }>`
        SELECT findings, diff, summary FROM batches WHERE id = ${created.id}`.execute(t.database.db);
      assert.ok(
        row.rows[0]!.findings !== null && row.rows[0]!.summary !== null && row.rows[0]!.diff !== null,
      );
      const diff = await t.services.batches.diff(alice.id, created.id);
      assert.equal(diff.to.id, created.id);
      assert.ok(diff.summary.pages.after >= ended.progress.audited, 'the diff holds the crawl');
      assert.equal(diff.from, null, "the project's first crawl");
      await waitFor(
        async () => ((await deliveries(created.id, 'batch.completed')).length > 0 ? true : null),
        'batch.completed',
      );
      await rx.waitFor(1);
      assert.equal(
        (await deliveries(created.id, 'batch.completed')).length,
        1,
        'exactly one batch.completed',
      );
      assert.equal((await deliveries(created.id, 'batch.failed')).length, 0);
      const counts = (await app.engine.queue.counts())[batchEnd.kind];
      assert.equal(counts?.dead ?? 0, 0, 'the end job is not dead');
    });

    test('its last attempt fails: the batch ends failed with the reason (batch.failed), never left running', async () => {
      const { t } = app;
      mode = 'always-fail';
      const created = await t.services.batches.create(alice.id, { url: `${site.origin}/`, mode: 'crawl' });
      const ended = await batchEnded(t, alice.id, created.id);
      assert.equal(ended.status, 'failed');
      assert.equal(ended.error, "The batch's end could not be computed: the database went away");
      assert.notEqual(ended.finishedAt, null);
      assert.equal(runs.filter((r) => r.batchId === created.id).length, 3, 'every attempt ran');
      await waitFor(
        async () => ((await deliveries(created.id, 'batch.failed')).length > 0 ? true : null),
        'batch.failed',
      );
      assert.equal((await deliveries(created.id, 'batch.failed')).length, 1);
      assert.equal((await deliveries(created.id, 'batch.completed')).length, 0);
    });
  });
}
