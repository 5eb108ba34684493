// A cancel commits the batch's status at once, in a short transaction that marks its end
// pending and enqueues a batch.end job (delayed); the end itself — findings and summary from
// every page, batch.cancelled — is written after it, without the batch's lock, by the cancelling
// request, or by that job when the request's process stopped first (docs/sites.md, "The end of a
// batch"). Whoever writes it, it is written once; a pending cancel is never ended `done` by a
// batch.end that was already under way; a job that gives up leaves the batch cancelled, with
// batch.cancelled. Real crawls of a held fixture site on 127.0.0.1, every engine setup.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { jobKinds } from '../../src/jobs/kinds/index.js';
import { batchEnd, batchEndKind } from '../../src/jobs/kinds/batch-end.js';
import { BATCH_END, enqueueJob } from '../../src/contract/jobs.js';
import { updateBatch } from '../../src/store/batches.repository.js';
import { skipQueuedPages } from '../../src/store/batch-frontier.repository.js';
import type { Services } from '../../src/services/types.js';
import { sqliteDialect } from '../helpers/db.js';
import { engineSetups, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { waitFor } from '../helpers/queues.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const EVENTS = ['batch.cancelled', 'batch.completed', 'batch.failed'] as const;

for (const setup of engineSetups(sqliteDialect)) {
  describe(`a cancelled batch's end (${setup.name})`, { skip: setup.skip }, () => {
    let app: BatchApp;
    let site: FixtureSite;
    let rx: WebhookReceiver;
    let alice: TestUser;
    // the site answers once the test lets it: a crawl stays at its start page until then
    let release = () => {};
    let held = Promise.resolve();
    const hold = () => {
      held = new Promise<void>((ok) => (release = ok));
    };
    /** the worker's batch.end: as it is, or failing every attempt */
    let endMode: 'real' | 'fail' | 'after-cancel' = 'real';
    const endRuns: number[] = [];

    before(async () => {
      app = await startBatchApp(setup.dialect, {
        redis: setup.redis,
        kinds: jobKinds.map((k) =>
          k.kind === batchEnd.kind
            ? batchEndKind({ maxAttempts: 2, backoff: { baseMs: 50, maxMs: 100 } })
            : k,
        ),
        workerServices: (real): Services => ({
          ...real,
          batches: {
            ...real.batches,
            end: async (batchId, signal) => {
              endRuns.push(batchId);
              if (endMode === 'fail') throw new Error('the database went away');
              if (endMode === 'after-cancel') await real.batches.cancel(alice.id, batchId);
              await real.batches.end(batchId, signal);
            },
          },
        }),
      });
      site = await startFixtureSite({ pages: 6, crawlDelay: null, hold: () => held });
      rx = await startWebhookReceiver();
      alice = await buildUser(app.t.services, 'alice');
      await app.t.services.webhooks.create(alice.id, { url: `${rx.origin}/hook`, events: [...EVENTS] });
    });
    after(async () => {
      release();
      await app?.close();
      await site?.close();
      await rx?.close();
    });

    const deliveries = async (batchId: number) => {
      const rows = await sql<{ event: string; payload: string }>`
        SELECT event, payload FROM webhook_deliveries`.execute(app.t.database.db);
      return rows.rows
        .filter(
          (r) => (JSON.parse(r.payload) as { data: { batch: { id: number } } }).data.batch.id === batchId,
        )
        .map((r) => r.event);
    };
    const row = async (id: number) =>
      (
        await sql<{
          status: string;
          end_pending: number | string;
          findings: string | null;
          summary: string | null;
        }>`
          SELECT status, end_pending, findings, summary FROM batches WHERE id = ${id}`.execute(
          app.t.database.db,
        )
      ).rows[0]!;

    /** a crawl whose start page has been asked for and is held */
    const heldCrawl = async () => {
      hold();
      const asked = site.log.length;
      const created = await app.t.services.batches.create(alice.id, {
        url: `${site.origin}/`,
        mode: 'crawl',
      });
      await waitFor(async () => (site.log.length > asked ? true : null), 'the start page asked for');
      return created.id;
    };
    /** the cancel's first transaction alone, as a process that stopped right after it leaves it */
    const cancelStatusOnly = async (id: number, delayMs = 0) => {
      const { db } = app.t.database;
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await skipQueuedPages(trx, id, 'The batch was cancelled.', now);
        await updateBatch(trx, id, { status: 'cancelled', finishedAt: now, endPending: true }, now);
        await enqueueJob(app.engine.queue, BATCH_END, { batchId: id }, { key: String(id), delayMs, trx });
      });
      return now;
    };

    test('the cancel answers ended: cancelled, its summary and findings written, batch.cancelled once', async () => {
      endMode = 'real';
      const id = await heldCrawl();
      const cancelled = await app.t.services.batches.cancel(alice.id, id);
      release();
      assert.equal(cancelled.status, 'cancelled');
      assert.notEqual(cancelled.summary, null, 'the summary comes with the answer');
      const r = await row(id);
      assert.equal(Number(r.end_pending), 0);
      assert.notEqual(r.findings, null);
      await waitFor(async () => ((await deliveries(id)).length > 0 ? true : null), 'batch.cancelled');
      // the page held in flight closes as skipped meanwhile; nothing more is sent
      await waitFor(
        async () => ((await app.t.services.batches.get(alice.id, id)).progress.remaining === 0 ? true : null),
        'the page in flight closed',
      );
      assert.deepEqual(await deliveries(id), ['batch.cancelled']);
      assert.equal((await app.t.services.batches.get(alice.id, id)).status, 'cancelled');
    });

    test('the cancelling process stopped after the status: the batch.end job writes the end, once', async () => {
      endMode = 'real';
      const id = await heldCrawl();
      const cancelledAt = await cancelStatusOnly(id);
      // the views meanwhile: cancelled, the end not written yet
      assert.equal((await app.t.services.batches.get(alice.id, id)).status, 'cancelled');
      release();
      await waitFor(async () => (Number((await row(id)).end_pending) === 0 ? true : null), 'the end written');
      const r = await row(id);
      assert.equal(r.status, 'cancelled');
      assert.notEqual(r.findings, null);
      assert.notEqual(r.summary, null);
      const b = await app.t.services.batches.get(alice.id, id);
      assert.equal(b.finishedAt, cancelledAt, 'it ended when it was cancelled');
      assert.ok(endRuns.includes(id), 'by the job');
      await waitFor(async () => ((await deliveries(id)).length > 0 ? true : null), 'batch.cancelled');
      assert.deepEqual(await deliveries(id), ['batch.cancelled']);
    });

    test('a cancel that comes while the batch.end of its finished pages is under way: cancelled, not done', async () => {
      // every page done, the frontier enqueued the end; the job has started when the cancel
      // comes (the cancel, then the end it was running): the end finds the cancel and ends the
      // batch cancelled — once, never batch.completed
      endMode = 'after-cancel';
      const created = await app.t.services.batches.create(alice.id, {
        url: `${site.origin}/`,
        mode: 'crawl',
      });
      const id = created.id;
      await waitFor(async () => (endRuns.includes(id) ? true : null), 'the end job ran');
      // one read of the row: its status and its pending end as one transaction left them
      await waitFor(async () => {
        const now = await row(id);
        return Number(now.end_pending) === 0 && now.status !== 'running' ? true : null;
      }, 'the end written');
      const r = await row(id);
      assert.equal(r.status, 'cancelled');
      assert.notEqual(r.findings, null);
      const b = await app.t.services.batches.get(alice.id, id);
      assert.ok(b.progress.audited > 1, 'its pages were audited before the cancel');
      await waitFor(async () => ((await deliveries(id)).length > 0 ? true : null), 'batch.cancelled');
      assert.deepEqual(await deliveries(id), ['batch.cancelled'], 'one event, never batch.completed');
      endMode = 'real';
    });

    test("the job's last attempt fails: the batch stays cancelled, without findings, and says so (batch.cancelled)", async () => {
      endMode = 'fail';
      const id = await heldCrawl();
      await cancelStatusOnly(id);
      release();
      await waitFor(
        async () => (Number((await row(id)).end_pending) === 0 ? true : null),
        'the end given up',
      );
      assert.equal(endRuns.filter((x) => x === id).length, 2, 'every attempt ran');
      const r = await row(id);
      assert.equal(r.status, 'cancelled');
      assert.equal(r.findings, null);
      await waitFor(async () => ((await deliveries(id)).length > 0 ? true : null), 'batch.cancelled');
      assert.deepEqual(await deliveries(id), ['batch.cancelled']);
      endMode = 'real';
    });
  });
}
