// A cancel in a process that runs no jobs (PAGEGRADE_WORKER=0, the API apart from its workers:
// docs/jobs.md): the status is committed and answered at once, and the end — findings, summary,
// batch.cancelled — is left to the batch.end job, enqueued due at once (not 10 minutes ahead,
// as the fallback of a process that ends it itself), so that a worker process computes it with
// the workers' memory settings. Here the services the request calls have `worker: false`, and
// the workers in this test process (their own services' end counted) take the job. Real crawls
// of a held fixture site on 127.0.0.1; every engine setup.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Services } from '../../src/services/types.js';
import { postgresDialect } from '../helpers/db.js';
import { engineSetups, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { waitFor } from '../helpers/queues.js';

for (const setup of engineSetups(postgresDialect)) {
  describe(`a cancel in an API process without workers (${setup.name})`, { skip: setup.skip }, () => {
    let app: BatchApp;
    let site: FixtureSite;
    let alice: TestUser;
    let release = () => {};
    let held = Promise.resolve();
    /** the batches whose end the workers' services wrote */
    const endedByWorkers: number[] = [];

    before(async () => {
      app = await startBatchApp(setup.dialect, {
        redis: setup.redis,
        pollMs: 50,
        config: { worker: false },
        workerServices: (real): Services => ({
          ...real,
          batches: {
            ...real.batches,
            end: async (batchId, signal) => {
              endedByWorkers.push(batchId);
              await real.batches.end(batchId, signal);
            },
          },
        }),
      });
      site = await startFixtureSite({ pages: 6, crawlDelay: null, hold: () => held });
      alice = await buildUser(app.t.services, 'alice');
    });
    after(async () => {
      release();
      await app?.close();
      await site?.close();
    });

    test('answered cancelled at once, the end pending; a worker writes it, once', async () => {
      held = new Promise<void>((ok) => (release = ok));
      const asked = site.log.length;
      const created = await app.t.services.batches.create(alice.id, {
        url: `${site.origin}/`,
        mode: 'crawl',
      });
      await waitFor(async () => (site.log.length > asked ? true : null), 'the start page asked for');

      const cancelled = await app.t.services.batches.cancel(alice.id, created.id);
      assert.equal(cancelled.status, 'cancelled');
      const row = async () =>
        (
          await sql<{ end_pending: number | string; findings: string | null; summary: string | null }>`
            SELECT end_pending, findings, summary FROM batches WHERE id = ${created.id}`.execute(
            app.t.database.db,
          )
        ).rows[0]!;
      // the request wrote the status only; the end is the job's
      const before = await row();
      assert.equal(Number(before.end_pending), 1);
      assert.equal(before.findings, null);
      release();
      // the job is due at once: written within seconds (a job CANCEL_END_AFTER_MS ahead would wait 10 minutes)
      await waitFor(
        async () => (Number((await row()).end_pending) === 0 ? true : null),
        'the end written',
        20_000,
      );
      const after = await row();
      assert.notEqual(after.findings, null);
      assert.notEqual(after.summary, null);
      assert.deepEqual(
        endedByWorkers.filter((id) => id === created.id),
        [created.id],
        'by a worker, once',
      );
      assert.equal((await app.t.services.batches.get(alice.id, created.id)).status, 'cancelled');
    });
  });
}
