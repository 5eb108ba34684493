// The job engines under test, each on its real store: the `jobs` table on a fresh SQLite file,
// the `jobs` table on a fresh PostgreSQL database, and BullMQ on the real Redis under a random
// key prefix (its outbox on a fresh SQLite file). The queue tests run the same suite over all
// three (test/jobs/queue.test.ts); PostgreSQL and Redis skip with the reason printed when
// missing, and fail under PAGEGRADE_REQUIRE_POSTGRES / PAGEGRADE_REQUIRE_REDIS = 1.
//
//   for (const e of queueEngines) describe(e.name, { skip: e.skip }, () => {
//     test('…', async () => {
//       const h = await e.open([myKind]);
//       try { const w = h.engine.startWorkers({ deps: {} }); … } finally { await h.close(); }
//     });
//   });
import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createJobEngine, type AnyJobKind, type JobEngine } from '../../src/jobs/index.js';
import { createDb, type Db } from '../../src/store/database.js';
import { claimJobs } from '../../src/store/jobs.repository.js';
import { openTestDb, postgresDialect, sqliteDialect, type TestDb, type TestDialect } from './db.js';
import {
  REDIS_URL,
  REQUIRE_REDIS,
  clearRedisPrefix,
  randomId,
  redisUnavailable,
  skipReason,
} from './services.js';

export interface QueueHarness {
  engine: JobEngine;
  /** the app database (the jobs table, or BullMQ's outbox) */
  db: Db;
  databaseUrl: string;
  /** BullMQ: the key prefix (PAGEGRADE_REDIS_PREFIX) */
  redisPrefix: string;
  /** another engine on the same stores — as another process would have — with these kinds */
  another(kinds: readonly AnyJobKind[], options?: { ownPool?: boolean }): Promise<JobEngine>;
  /**
   * A worker that takes one due job of `kind` and dies holding it: claimed under a lease of
   * `leaseMs` that nobody renews. Answers the job id, or null when none was due.
   */
  abandonOne(kind: string, leaseMs: number): Promise<string | null>;
  /**
   * The running job `jobId` of `kind` loses its lease behind its worker's back, as when the
   * worker was cut off past its lease: the table engines give the row another worker's lease
   * (it is reaped when its time runs out); BullMQ's lock key is deleted (the stalled check
   * moves the job back).
   */
  loseLease(kind: string, jobId: string): Promise<void>;
  close(): Promise<void>;
}

export interface QueueEngineUnderTest {
  name: 'sqlite' | 'postgres' | 'bullmq';
  skip: false | string;
  open(kinds: readonly AnyJobKind[], options?: { pollMs?: number }): Promise<QueueHarness>;
}

const redisReason = await redisUnavailable();

function tableEngine(dialect: TestDialect): QueueEngineUnderTest {
  return {
    name: dialect.name,
    skip: dialect.skip,
    async open(kinds, options = {}) {
      const database: TestDb = await openTestDb(dialect);
      const config = {
        queueEngine: 'embedded',
        redisUrl: null,
        redisPrefix: '',
        jobPollMs: options.pollMs ?? 100,
      } as const;
      const engines: JobEngine[] = [];
      const pools: { close(): Promise<void> }[] = [];
      const engine = await createJobEngine(config, { db: database.db, kinds });
      engines.push(engine);
      return {
        engine,
        db: database.db,
        databaseUrl: database.databaseUrl,
        redisPrefix: '',
        async another(otherKinds, o = {}) {
          let db = database.db;
          if (o.ownPool) {
            const handle = createDb(database.databaseUrl);
            pools.push(handle);
            db = handle.db;
          }
          const e = await createJobEngine(config, { db, kinds: otherKinds });
          engines.push(e);
          return e;
        },
        async abandonOne(kind, leaseMs) {
          const rows = await claimJobs(database.db, {
            kind,
            limit: 1,
            lease: `dead-worker.${randomUUID()}`,
            now: Date.now(),
            leaseMs,
          });
          return rows[0]?.id ?? null;
        },
        async loseLease(kind, jobId) {
          await database.db
            .updateTable('jobs')
            .set({ lease: `another-worker.${randomUUID()}` })
            .where('id', '=', Number(jobId))
            .where('kind', '=', kind)
            .where('state', '=', 'running')
            .execute();
        },
        async close() {
          for (const e of engines) await e.close();
          for (const p of pools) await p.close();
          await database.cleanup();
        },
      };
    },
  };
}

const bullmqEngine: QueueEngineUnderTest = {
  name: 'bullmq',
  skip: skipReason(redisReason, REQUIRE_REDIS),
  async open(kinds, options = {}) {
    const database = await openTestDb(sqliteDialect);
    const redisPrefix = `pagegrade-test-${randomId()}:`;
    const config = {
      queueEngine: 'bullmq',
      redisUrl: REDIS_URL,
      redisPrefix,
      jobPollMs: options.pollMs ?? 100,
    } as const;
    const engines: JobEngine[] = [];
    const leftovers: { close(): Promise<unknown> }[] = [];
    const engine = await createJobEngine(config, { db: database.db, kinds });
    engines.push(engine);
    return {
      engine,
      db: database.db,
      databaseUrl: database.databaseUrl,
      redisPrefix,
      async another(otherKinds) {
        const e = await createJobEngine(config, { db: database.db, kinds: otherKinds });
        engines.push(e);
        return e;
      },
      async abandonOne(kind, leaseMs) {
        // a BullMQ worker that fetches one job by hand and never renews its lock
        const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
        const worker = new Worker(kind, null, {
          connection,
          prefix: `${redisPrefix}bull`,
          lockDuration: leaseMs,
          autorun: false,
        });
        leftovers.push({ close: () => worker.close(true).then(() => connection.quit()) });
        const job = await worker.getNextJob(`dead-worker-${randomUUID()}`, { block: false });
        return job?.id ?? null;
      },
      async loseLease(kind, jobId) {
        const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
        try {
          await redis.del(`${redisPrefix}bull:${kind}:${jobId}:lock`);
        } finally {
          await redis.quit();
        }
      },
      async close() {
        for (const e of engines) await e.close();
        for (const l of leftovers) await l.close().catch(() => {});
        await database.cleanup();
        await clearRedisPrefix(redisPrefix);
      },
    };
  },
};

export const queueEngines: QueueEngineUnderTest[] = [
  tableEngine(sqliteDialect),
  tableEngine(postgresDialect),
  bullmqEngine,
];

/** Polls `check` every 20 ms until it is truthy; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
