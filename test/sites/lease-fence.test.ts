// A crawl's page whose worker lost the page's job while auditing it (a worker cut off past its
// lease, as in the cluster test): what that run saw — here a 503 the site gave it, as a time-out
// of its own network would be — is not recorded. The fence (JobContext.fence) fails in the
// transaction that would close the page; the run that took the job over audits the page, and
// the crawl ends with every page audited once and none failed. On every engine: the jobs table
// on SQLite and on PostgreSQL, and BullMQ on Redis.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { jobKinds } from '../../src/jobs/kinds/index.js';
import { batchPageKind } from '../../src/jobs/kinds/batch-page.js';
import { batchEnded, engineSetups, postBatch, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildUser } from '../helpers/factories.js';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { waitFor } from '../helpers/queues.js';
import { REDIS_URL } from '../helpers/services.js';

const page = (n: number) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${n} of the fenced site</title></head><body><h1>Page ${n}</h1><p>Words about page ${n}.</p></body></html>`;

/**
 * Takes page `pageId`'s running job away from its worker: the embedded engine's row gets
 * another worker's lease, due to be reaped in 800 ms; BullMQ's lock key is deleted (its stalled
 * check moves the job back).
 */
async function takeAway(app: BatchApp, redis: boolean, pageId: number): Promise<void> {
  if (!redis) {
    const res = await app.t.database.db
      .updateTable('jobs')
      .set({ lease: 'another-worker.1', locked_until: Date.now() + 800 })
      .where('kind', '=', 'batch.page')
      .where('state', '=', 'running')
      .where('payload', 'like', `%"pageId":${pageId}}%`)
      .executeTakeFirst();
    assert.equal(Number(res.numUpdatedRows), 1, 'the page job was running');
    return;
  }
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  try {
    const locks = await client.keys(`${app.redisPrefix}bull:batch.page:*:lock`);
    let taken = 0;
    for (const lock of locks) {
      const data = await client.hget(lock.replace(/:lock$/, ''), 'data');
      if (data && (JSON.parse(data) as { pageId: number }).pageId === pageId) taken += await client.del(lock);
    }
    assert.equal(taken, 1, 'the page job was running');
  } finally {
    await client.quit();
  }
}

describe('batches: a page whose job was taken over while it was audited', () => {
  for (const setup of engineSetups(sqliteDialect)) {
    test(
      `[${setup.name}] the first run's outcome is not stored; the run that holds the job audits the page once`,
      { skip: setup.skip, timeout: 120_000 },
      async () => {
        // a long lease on the embedded engine (its renewal would notice the loss only after
        // 20 s: the fence is what stops the write); BullMQ's stalled check needs a short one
        const leaseMs = setup.redis ? 1000 : 60_000;
        let first = true;
        let seen!: () => void;
        const arrived = new Promise<void>((r) => (seen = r));
        let answer!: () => void;
        const answered = new Promise<void>((r) => (answer = r));
        const site = await startFixtureServer({
          '/': { body: page(0) },
          '/p/2': { body: page(2) },
          '/p/1': async (_req, res) => {
            if (first) {
              first = false;
              seen();
              await answered;
              res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' });
              res.end('<!doctype html><title>Busy</title>');
              return;
            }
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            res.end(page(1));
          },
        });
        const app = await startBatchApp(setup.dialect, {
          redis: setup.redis,
          pollMs: 50,
          kinds: jobKinds.map((k) => (k.kind === 'batch.page' ? batchPageKind({ leaseMs }) : k)),
        });
        const t = app.t;
        try {
          const user = await buildUser(t.services);
          const urls = [`${site.origin}/`, `${site.origin}/p/1`, `${site.origin}/p/2`];
          const id = await postBatch(t, user.auth, { url: urls[0], mode: 'list', urls });
          await arrived;
          const row = await t.database.db
            .selectFrom('batch_pages')
            .select('id')
            .where('batch_id', '=', id)
            .where('url', '=', urls[1]!)
            .executeTakeFirstOrThrow();
          await takeAway(app, setup.redis, Number(row.id));
          answer();
          const done = await batchEnded(t, user.id, id);
          assert.equal(done.status, 'done');
          assert.deepEqual(
            {
              audited: done.progress.audited,
              failed: done.progress.failed,
              remaining: done.progress.remaining,
            },
            { audited: 3, failed: 0, remaining: 0 },
            "the first run's 503 was not recorded",
          );
          assert.equal(site.requests.filter((r) => r === '/p/1').length, 2, 'the page fetched by each run');
          const reports = await t.database.db
            .selectFrom('reports')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('url', '=', urls[1]!)
            .executeTakeFirstOrThrow();
          assert.equal(Number(reports.n), 1, 'one report for the page');
          await waitFor(async () => {
            const c = (await app.engine.queue.counts())['batch.page'];
            return c !== undefined && c.active + c.waiting + c.delayed + c.dead === 0;
          }, 'every page job done');
        } finally {
          answer();
          await app.close();
          await site.close();
        }
      },
    );
  }
});
