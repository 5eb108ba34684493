// One queue suite, run over every engine on its real store (test/helpers/queues.ts): the
// `jobs` table on SQLite and on PostgreSQL, and BullMQ on Redis. Enqueue and run, dedupe,
// delay, retries with backoff then dead (and retrying the dead), permanent errors and
// invalid payloads, a lease left by a dead worker taken up again, a run that lost its lease
// fenced off from writing its outcome, per-kind concurrency,
// graceful stop (running jobs finish; past the deadline they are given back), `trx` enqueue
// committed and rolled back, and two workers sharing one PostgreSQL table.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { sql } from 'kysely';
import { LeaseLostError, PermanentJobError, type JobContext, type JobKind } from '../../src/jobs/types.js';
import type { AnyJobKind } from '../../src/jobs/index.js';
import { withTransaction, type Db } from '../../src/store/database.js';
import { queueEngines, waitFor, type QueueHarness } from '../helpers/queues.js';

const Payload = Type.Object({ n: Type.Integer() });
type Ctx = JobContext<{ n: number }>;

function kind(
  name: string,
  handle: (job: Ctx) => Promise<void>,
  o: Partial<Omit<JobKind<typeof Payload>, 'handle' | 'kind' | 'payload'>> = {},
): AnyJobKind {
  return {
    kind: name,
    payload: Payload,
    concurrency: o.concurrency ?? 4,
    maxAttempts: o.maxAttempts ?? 3,
    backoff: o.backoff ?? { baseMs: 50, maxMs: 1000 },
    leaseMs: o.leaseMs ?? 5000,
    handle: (job) => handle(job as Ctx),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withHarness(
  engine: (typeof queueEngines)[number],
  kinds: AnyJobKind[],
  fn: (h: QueueHarness) => Promise<void>,
): Promise<void> {
  const h = await engine.open(kinds);
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}

for (const engine of queueEngines) {
  describe(`job queue [${engine.name}]`, { skip: engine.skip }, () => {
    test('enqueued jobs run once each, with their payload, attempt 1; the queue is empty after', async () => {
      const seen: { n: number; attempt: number; id: string }[] = [];
      const k = kind(
        't.run',
        async (job) => void seen.push({ n: job.payload.n, attempt: job.attempt, id: job.id }),
      );
      await withHarness(engine, [k], async (h) => {
        const ids = [];
        for (let n = 1; n <= 5; n++) ids.push((await h.engine.queue.enqueue('t.run', { n })).id);
        assert.equal(new Set(ids).size, 5);
        assert.equal((await h.engine.queue.counts())['t.run']!.waiting, 5);
        const w = h.engine.startWorkers({ deps: {} });
        try {
          await waitFor(() => seen.length === 5, '5 jobs to run');
          await sleep(100);
        } finally {
          await w.stop();
        }
        assert.deepEqual(seen.map((s) => s.n).sort(), [1, 2, 3, 4, 5]);
        assert.ok(seen.every((s) => s.attempt === 1));
        assert.deepEqual(seen.map((s) => s.id).sort(), [...ids].sort());
        const c = await waitFor(async () => {
          const c = (await h.engine.queue.counts())['t.run']!;
          return c.waiting + c.active + c.delayed + c.dead === 0 ? c : null;
        }, 'an empty queue');
        assert.deepEqual(c, { waiting: 0, active: 0, delayed: 0, dead: 0 });
      });
    });

    test('unknown kinds and invalid payloads are refused at enqueue', async () => {
      await withHarness(engine, [kind('t.refuse', async () => {})], async (h) => {
        await assert.rejects(h.engine.queue.enqueue('t.nope', { n: 1 }), /unknown job kind "t\.nope"/);
        await assert.rejects(
          h.engine.queue.enqueue('t.refuse', { n: 'x' }),
          /invalid payload: \/n must be integer/,
        );
        assert.equal((await h.engine.queue.counts())['t.refuse']!.waiting, 0);
      });
    });

    test('dedupe: a key is unique while its job waits or runs; free again once it is done', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const ran: number[] = [];
      const k = kind('t.dedupe', async (job) => {
        ran.push(job.payload.n);
        if (job.payload.n === 1) await gate;
      });
      await withHarness(engine, [k], async (h) => {
        const q = h.engine.queue;
        const a = await q.enqueue('t.dedupe', { n: 1 }, { key: 'report:7' });
        const b = await q.enqueue('t.dedupe', { n: 2 }, { key: 'report:7' });
        assert.equal(a.added, true);
        assert.deepEqual(b, { id: a.id, added: false }, 'waiting: the same job');
        const other = await q.enqueue('t.dedupe', { n: 3 }, { key: 'report:8' });
        assert.equal(other.added, true);
        const w = h.engine.startWorkers({ deps: {} });
        try {
          await waitFor(() => ran.includes(1), 'the first job to start');
          const c = await q.enqueue('t.dedupe', { n: 4 }, { key: 'report:7' });
          assert.deepEqual(c, { id: a.id, added: false }, 'running: the same job');
          release();
          await waitFor(
            async () => (await q.counts())['t.dedupe']!.active === 0 && ran.includes(3),
            'both to finish',
          );
          await sleep(50);
          const d = await q.enqueue('t.dedupe', { n: 5 }, { key: 'report:7' });
          assert.equal(d.added, true, 'done: the key is free');
          assert.notEqual(d.id, a.id);
          await waitFor(() => ran.includes(5), 'the new job to run');
        } finally {
          release();
          await w.stop();
        }
        assert.deepEqual(ran.sort(), [1, 3, 5]);
      });
    });

    test('delay: a delayed job waits, then runs', async () => {
      const ranAt: number[] = [];
      const k = kind('t.delay', async () => void ranAt.push(Date.now()));
      await withHarness(engine, [k], async (h) => {
        const w = h.engine.startWorkers({ deps: {} });
        try {
          const start = Date.now();
          await h.engine.queue.enqueue('t.delay', { n: 1 }, { delayMs: 700 });
          const c = (await h.engine.queue.counts())['t.delay']!;
          assert.equal(c.delayed, 1);
          assert.equal(c.waiting, 0);
          await sleep(400);
          // On a loaded machine the sleep itself can outlast the delay; only a check made
          // before the job was due says anything.
          const checkedAt = Date.now();
          const ranBy = ranAt.length;
          if (checkedAt - start < 690) assert.equal(ranBy, 0, 'not before its time');
          await waitFor(() => ranAt.length === 1, 'the delayed job');
          assert.ok(ranAt[0]! - start >= 690, `ran after ${ranAt[0]! - start} ms`);
        } finally {
          await w.stop();
        }
      });
    });

    test('retries with exponential backoff, then dead; a dead job can be retried', async () => {
      const attempts: { attempt: number; at: number; max: number }[] = [];
      let succeed = false;
      const k = kind(
        't.retry',
        async (job) => {
          attempts.push({ attempt: job.attempt, at: Date.now(), max: job.maxAttempts });
          if (!succeed) throw new Error(`boom ${job.attempt}`);
        },
        { maxAttempts: 3, backoff: { baseMs: 200, maxMs: 10_000 } },
      );
      await withHarness(engine, [k], async (h) => {
        const w = h.engine.startWorkers({ deps: {} });
        try {
          const { id } = await h.engine.queue.enqueue('t.retry', { n: 1 });
          await waitFor(
            async () => (await h.engine.queue.counts())['t.retry']!.dead === 1,
            'the job to die',
            15_000,
          );
          assert.deepEqual(
            attempts.map((a) => a.attempt),
            [1, 2, 3],
          );
          assert.ok(attempts.every((a) => a.max === 3));
          const gap1 = attempts[1]!.at - attempts[0]!.at;
          const gap2 = attempts[2]!.at - attempts[1]!.at;
          // 200 ms then 400 ms, each ±20 %
          assert.ok(gap1 >= 155, `first backoff ${gap1} ms ≥ 160`);
          assert.ok(gap2 >= 315, `second backoff ${gap2} ms ≥ 320`);
          assert.ok(gap2 > gap1, `the backoff grows (${gap1} → ${gap2} ms)`);
          const dead = await h.engine.queue.dead({ kind: 't.retry' });
          assert.equal(dead.length, 1);
          assert.equal(dead[0]!.id, id);
          assert.deepEqual(dead[0]!.payload, { n: 1 });
          assert.equal(dead[0]!.attempts, 3);
          assert.match(dead[0]!.error ?? '', /boom 3/);
          assert.ok(dead[0]!.failedAt);

          succeed = true;
          assert.equal(await h.engine.queue.retryDead([id]), 1);
          await waitFor(() => attempts.length === 4, 'the retried job to run');
          assert.equal(attempts[3]!.attempt, 1, 'a fresh set of attempts');
          await waitFor(
            async () => (await h.engine.queue.counts())['t.retry']!.dead === 0,
            'no dead job left',
          );
        } finally {
          await w.stop();
        }
      });
    });

    test('a PermanentJobError is dead at once; so is a payload that no longer matches the schema', async () => {
      const runs: number[] = [];
      const k = kind('t.perm', async (job) => {
        runs.push(job.payload.n);
        throw new PermanentJobError('the report is gone');
      });
      // the same kind in a later release: its payload schema changed
      const Later = Type.Object({ n: Type.String() });
      const later: AnyJobKind = { ...k, payload: Later };
      await withHarness(engine, [k], async (h) => {
        const w = h.engine.startWorkers({ deps: {} });
        try {
          await h.engine.queue.enqueue('t.perm', { n: 1 });
          await waitFor(async () => (await h.engine.queue.counts())['t.perm']!.dead === 1, 'the job to die');
          assert.deepEqual(runs, [1], 'one attempt of three');
          assert.match((await h.engine.queue.dead())[0]!.error ?? '', /the report is gone/);
        } finally {
          await w.stop();
        }
        // enqueued by the old release, worked by the new one
        await h.engine.queue.enqueue('t.perm', { n: 2 });
        const newer = await h.another([later]);
        const w2 = newer.startWorkers({ deps: {} });
        try {
          await waitFor(
            async () => (await h.engine.queue.counts())['t.perm']!.dead === 2,
            'the second to die',
          );
          assert.deepEqual(runs, [1], 'the handler never saw the invalid payload');
          const dead = await h.engine.queue.dead();
          assert.ok(
            dead.some((d) => /invalid payload for t\.perm: \/n must be string/.test(d.error ?? '')),
            JSON.stringify(dead),
          );
        } finally {
          await w2.stop();
        }
      });
    });

    test('a job held by a dead worker is taken up again when its lease expires', async () => {
      const runs: { n: number; attempt: number }[] = [];
      const k = kind('t.lease', async (job) => void runs.push({ n: job.payload.n, attempt: job.attempt }), {
        leaseMs: 800,
      });
      await withHarness(engine, [k], async (h) => {
        await h.engine.queue.enqueue('t.lease', { n: 1 });
        const taken = await h.abandonOne('t.lease', 800);
        assert.ok(taken, 'the dead worker took the job');
        assert.equal((await h.engine.queue.counts())['t.lease']!.active, 1);
        const started = Date.now();
        const w = h.engine.startWorkers({ deps: {} });
        try {
          await waitFor(() => runs.length === 1, 'the job to run again', 15_000);
          assert.ok(Date.now() - started >= 500, 'not before the lease expired');
          assert.equal(runs[0]!.n, 1);
          assert.equal(runs[0]!.attempt, 2, 'the lost attempt counts');
          await sleep(1000);
          assert.equal(runs.length, 1);
        } finally {
          await w.stop();
        }
      });
    });

    test('a run that lost its lease cannot commit its outcome: the fence throws in its transaction, the run that holds the job writes', async () => {
      let db!: Db;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let runs = 0;
      let firstId: string | null = null;
      const outcomes: { run: number; fence: string; aborted: boolean }[] = [];
      const k = kind(
        't.fence',
        async (job) => {
          const run = ++runs;
          if (run === 1) {
            firstId = job.id;
            await gate; // meanwhile its lease goes to another worker
          }
          try {
            await withTransaction(db, async (trx) => {
              await sql`INSERT INTO fence_marks (run) VALUES (${run})`.execute(trx);
              await job.fence!(trx);
            });
            outcomes.push({ run, fence: 'held', aborted: job.signal.aborted });
          } catch (err) {
            outcomes.push({
              run,
              fence: err instanceof LeaseLostError ? 'lost' : String(err),
              aborted: job.signal.aborted,
            });
            throw err;
          }
        },
        { leaseMs: 900 },
      );
      await withHarness(engine, [k], async (h) => {
        db = h.db;
        await sql`CREATE TABLE fence_marks (run integer NOT NULL)`.execute(db);
        await h.engine.queue.enqueue('t.fence', { n: 1 });
        const w = h.engine.startWorkers({ deps: {} });
        try {
          await waitFor(() => firstId, 'the first run');
          await h.loseLease('t.fence', firstId!);
          release();
          await waitFor(() => outcomes.length === 2, 'the job to run again once its lease ran out', 15_000);
          assert.deepEqual(outcomes, [
            { run: 1, fence: 'lost', aborted: true },
            { run: 2, fence: 'held', aborted: false },
          ]);
          const marks = await sql<{ run: number }>`SELECT run FROM fence_marks`.execute(db);
          assert.deepEqual(
            marks.rows.map((r) => Number(r.run)),
            [2],
            "the first run's write was rolled back",
          );
          await waitFor(async () => {
            const c = (await h.engine.queue.counts())['t.fence']!;
            return c.active + c.waiting + c.delayed + c.dead === 0;
          }, 'the job done');
          await sleep(1000);
          assert.equal(runs, 2, 'run twice, no more');
        } finally {
          await w.stop();
        }
      });
    });

    test("a renewal that finds the lease gone aborts the running handler's signal; the job runs again", async () => {
      let runs = 0;
      let firstId: string | null = null;
      const ends: string[] = [];
      const k = kind(
        't.renewal',
        async (job) => {
          const run = ++runs;
          if (run > 1) return;
          firstId = job.id;
          // waits for its signal (8 s at most: a renewal comes every lease / 3 or so)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 8000);
            job.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
          });
          const reason = job.signal.reason as unknown;
          ends.push(
            job.signal.aborted ? (reason instanceof Error ? reason.message : String(reason)) : 'not aborted',
          );
          throw reason ?? new Error('not aborted');
        },
        { leaseMs: 900 },
      );
      await withHarness(engine, [k], async (h) => {
        await h.engine.queue.enqueue('t.renewal', { n: 1 });
        const w = h.engine.startWorkers({ deps: {} });
        try {
          await waitFor(() => firstId, 'the first run');
          await h.loseLease('t.renewal', firstId!);
          await waitFor(() => ends.length === 1, 'the first run to end', 10_000);
          assert.match(ends[0]!, /lease/, 'its signal was aborted for the lost lease');
          await waitFor(() => runs === 2, 'the job to run again', 15_000);
          await waitFor(async () => {
            const c = (await h.engine.queue.counts())['t.renewal']!;
            return c.active + c.waiting + c.delayed + c.dead === 0;
          }, 'the job done');
        } finally {
          await w.stop();
        }
      });
    });

    test('per-kind concurrency is held, and config overrides it per kind', async () => {
      let inFlight = 0;
      let peak = 0;
      let otherInFlight = 0;
      let otherPeak = 0;
      const slow = kind(
        't.slow',
        async () => {
          peak = Math.max(peak, ++inFlight);
          await sleep(60);
          inFlight--;
        },
        { concurrency: 3 },
      );
      const other = kind(
        't.other',
        async () => {
          otherPeak = Math.max(otherPeak, ++otherInFlight);
          await sleep(40);
          otherInFlight--;
        },
        { concurrency: 5 },
      );
      await withHarness(engine, [slow, other], async (h) => {
        for (let n = 0; n < 15; n++) await h.engine.queue.enqueue('t.slow', { n });
        for (let n = 0; n < 8; n++) await h.engine.queue.enqueue('t.other', { n });
        const w = h.engine.startWorkers({ deps: {}, concurrency: { 't.other': 2 } });
        try {
          await waitFor(async () => {
            const c = await h.engine.queue.counts();
            return (
              c['t.slow']!.waiting + c['t.slow']!.active + c['t.other']!.waiting + c['t.other']!.active === 0
            );
          }, 'every job');
        } finally {
          await w.stop();
        }
        assert.equal(peak, 3, 'the kind runs 3 at once');
        assert.equal(otherPeak, 2, 'the override holds (2, not 5)');
      });
    });

    test('graceful stop: running jobs finish, no new job starts; past the deadline they are given back', async () => {
      const finished: number[] = [];
      const started: number[] = [];
      const k = kind(
        't.stop',
        async (job) => {
          started.push(job.payload.n);
          if (job.payload.n >= 100) {
            // ignores nothing: waits for its signal
            await new Promise((_, reject) =>
              job.signal.addEventListener('abort', () => reject(job.signal.reason as Error), { once: true }),
            );
          }
          await sleep(300);
          finished.push(job.payload.n);
        },
        { concurrency: 2 },
      );
      await withHarness(engine, [k], async (h) => {
        for (let n = 1; n <= 4; n++) await h.engine.queue.enqueue('t.stop', { n });
        const w = h.engine.startWorkers({ deps: {}, shutdownMs: 5000 });
        await waitFor(() => started.length === 2, 'two jobs to start');
        await w.stop();
        assert.deepEqual(finished.sort(), started.sort(), 'the running jobs finished before stop() resolved');
        assert.equal(started.length, 2, 'no new job started while stopping');
        await sleep(200);
        const c = (await h.engine.queue.counts())['t.stop']!;
        assert.equal(c.waiting, 2);
        assert.equal(c.active, 0);

        // a job that runs past the deadline is aborted and given back to the queue
        await h.engine.queue.enqueue('t.stop', { n: 100 });
        const w2 = h.engine.startWorkers({ deps: {}, shutdownMs: 300, concurrency: { 't.stop': 3 } });
        await waitFor(() => started.includes(100), 'the long job to start');
        const t0 = Date.now();
        await w2.stop();
        assert.ok(Date.now() - t0 < 3000, 'stop() kept to the deadline');
        assert.ok(!finished.includes(100));
        const after = await waitFor(async () => {
          const c = (await h.engine.queue.counts())['t.stop']!;
          return c.active === 0 ? c : null;
        }, 'the aborted job to be given back');
        assert.equal(after!.dead, 0);
        // and a new worker runs it (and the other two)
        const runsOf100 = () => started.filter((n) => n === 100).length;
        const w3 = h.engine.startWorkers({ deps: {}, shutdownMs: 100 });
        try {
          await waitFor(
            () => runsOf100() === 2 && finished.includes(3) && finished.includes(4),
            'the given-back job',
          );
        } finally {
          await w3.stop();
        }
      });
    });

    test('trx enqueue: the job exists if and only if the transaction commits', async () => {
      const ran: number[] = [];
      const k = kind('t.trx', async (job) => void ran.push(job.payload.n));
      await withHarness(engine, [k], async (h) => {
        const w = h.engine.startWorkers({ deps: {} });
        try {
          await assert.rejects(
            withTransaction(h.db, async (trx) => {
              await h.engine.queue.enqueue('t.trx', { n: 1 }, { trx });
              throw new Error('rolled back');
            }),
            /rolled back/,
          );
          await withTransaction(h.db, async (trx) => {
            await h.engine.queue.enqueue('t.trx', { n: 2 }, { trx });
            // not visible (and not run) before the commit
            await sleep(150);
            assert.deepEqual(ran, []);
          });
          await waitFor(() => ran.length === 1, 'the committed job');
          await sleep(500);
          assert.deepEqual(ran, [2]);
        } finally {
          await w.stop();
        }
      });
    });
  });
}

const pg = queueEngines.find((e) => e.name === 'postgres')!;
describe('two workers on one PostgreSQL table', { skip: pg.skip }, () => {
  test('never run a job twice, nor at once', async () => {
    const runs = new Map<string, { start: number; end: number; worker: string }[]>();
    const make = (worker: string) =>
      kind(
        't.pair',
        async (job) => {
          const list = runs.get(job.id) ?? [];
          const entry = { start: performance.now(), end: Infinity, worker };
          list.push(entry);
          runs.set(job.id, list);
          await sleep(2 + (job.payload.n % 5));
          entry.end = performance.now();
        },
        { concurrency: 4 },
      );
    const h = await pg.open([make('a')]);
    try {
      const N = 300;
      for (let n = 0; n < N; n++) await h.engine.queue.enqueue('t.pair', { n });
      const a = h.engine.startWorkers({ deps: {} });
      const other = await h.another([make('b')], { ownPool: true });
      const b = other.startWorkers({ deps: {} });
      try {
        await waitFor(
          async () => {
            const c = (await h.engine.queue.counts())['t.pair']!;
            return c.waiting + c.active === 0;
          },
          'every job',
          30_000,
        );
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
      assert.equal(runs.size, N, 'every job ran');
      const twice = [...runs.entries()].filter(([, l]) => l.length > 1);
      assert.deepEqual(twice, [], 'no job ran twice');
      const byWorker = { a: 0, b: 0 };
      for (const [, [r]] of runs) byWorker[r!.worker as 'a' | 'b']++;
      assert.ok(byWorker.a > 0 && byWorker.b > 0, `both workers took jobs: ${JSON.stringify(byWorker)}`);
    } finally {
      await h.close();
    }
  });
});
