// Batches in one process: the test kit's app (test/helpers/app.ts) whose services enqueue on a
// real job engine (the jobs table of the test database) with its workers running, so that a
// batch started from the API or the dashboard is crawled and audited as in production — on the
// embedded engine, or (`redis: true`) on BullMQ with a key prefix of its own, cleared on close.
// `engineSetups` is the matrix the site tests run on: SQLite and PostgreSQL on the embedded
// engine, and one dialect on BullMQ (skipped, with the reason, without Redis).
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import type { BatchExport } from '../../src/contract/batches/schemas.js';
import { createJobEngine, type JobEngine, type Workers } from '../../src/jobs/index.js';
import { jobKinds } from '../../src/jobs/kinds/index.js';
import { batchEnd, batchEndKind } from '../../src/jobs/kinds/batch-end.js';
import { silentLog } from '../../src/jobs/kind-tools.js';
import type { Queue } from '../../src/jobs/types.js';
import type { AnyJobKind } from '../../src/jobs/kind-tools.js';
import type { Batch } from '../../src/services/batches/types.js';
import type { Services } from '../../src/services/types.js';
import { waitFor } from './queues.js';
import { buildTestApp, type TestApp, type TestAppOptions } from './app.js';
import type { TestUser } from './factories.js';
import { postgresDialect, sqliteDialect, type TestDialect } from './db.js';
import {
  REDIS_URL,
  REQUIRE_REDIS,
  clearRedisPrefix,
  randomId,
  redisUnavailable,
  skipReason,
} from './services.js';

export interface BatchApp {
  t: TestApp;
  engine: JobEngine;
  workers: Workers;
  /** BullMQ's key prefix (PAGEGRADE_REDIS_PREFIX); unused on the embedded engine */
  redisPrefix: string;
  close(): Promise<void>;
}

export interface BatchAppOptions {
  config?: TestAppOptions['config'];
  /** the job kinds the workers run (default: the application's) */
  kinds?: readonly AnyJobKind[];
  /** the services the workers call (fault injection); the app keeps the real ones */
  workerServices?: (real: Services) => Services;
  pollMs?: number;
  /** Chromium for rendered batches (test/helpers/renderer.ts); absent: render=1 answers 422 */
  renderer?: TestAppOptions['renderer'];
  /** BullMQ on Redis (REDIS_URL) instead of the embedded engine */
  redis?: boolean;
}

/** One setting of the site tests' matrix. */
export interface EngineSetup {
  name: string;
  dialect: TestDialect;
  skip: false | string;
  redis: boolean;
}

const redisReason = await redisUnavailable();

/** SQLite and PostgreSQL on the embedded engine, and `redisDialect` on BullMQ. */
export function engineSetups(redisDialect: TestDialect): EngineSetup[] {
  return [
    { name: 'sqlite', dialect: sqliteDialect, skip: sqliteDialect.skip, redis: false },
    { name: 'postgres', dialect: postgresDialect, skip: postgresDialect.skip, redis: false },
    {
      name: `${redisDialect.name} + redis`,
      dialect: redisDialect,
      skip: redisDialect.skip || skipReason(redisReason, REQUIRE_REDIS),
      redis: true,
    },
  ];
}

export async function startBatchApp(dialect: TestDialect, options: BatchAppOptions = {}): Promise<BatchApp> {
  const { config = {} } = options;
  // the services enqueue on the engine's queue, made after the app (it needs the database)
  const holder: { q?: Queue } = {};
  const lazy: Queue = {
    engine: options.redis ? 'bullmq' : 'embedded',
    enqueue: (...a) => holder.q!.enqueue(...a),
    committed: (kind) => holder.q!.committed(kind),
    counts: () => holder.q!.counts(),
    close: async () => {},
  };
  const t = await buildTestApp(dialect, {
    queue: lazy,
    logLevel: 'silent',
    config: { crawlDelayMs: 0, crawlConcurrency: 2, ...config },
    ...(options.renderer ? { renderer: options.renderer } : {}),
  });
  const prefix = `pagegrade-test-${randomId()}:`;
  const engine = await createJobEngine(
    {
      queueEngine: options.redis ? 'bullmq' : 'embedded',
      redisUrl: options.redis ? REDIS_URL : null,
      redisPrefix: prefix,
      jobPollMs: options.pollMs ?? 100,
    },
    { db: t.database.db, kinds: options.kinds ?? jobKinds },
  );
  holder.q = engine.queue;
  const workers = engine.startWorkers({
    deps: {
      services: options.workerServices?.(t.services) ?? t.services,
      queue: engine.queue,
      log: silentLog,
    },
  });
  return {
    t,
    engine,
    workers,
    redisPrefix: prefix,
    async close() {
      await workers.stop();
      await engine.close();
      await t.close();
      if (options.redis) await clearRedisPrefix(prefix);
    },
  };
}

/** Waits until batch `id` is no longer queued or running, and returns it. */
export async function batchEnded(t: TestApp, userId: number, id: number, timeoutMs = 60_000): Promise<Batch> {
  const b = await waitFor(
    async () => {
      const b = await t.services.batches.get(userId, id);
      return b.status === 'running' || b.status === 'queued' ? null : b;
    },
    `batch ${id} to end`,
    timeoutMs,
  );
  return b!;
}

/**
 * The job kinds with a batch's end retried at once (its default backoff is 5 s and more), and
 * worker services whose next end, while `killWhen()` gives a predicate, is stopped (as a killed
 * worker's) the moment that predicate holds, then fails — so the engine retries it. The tests
 * of a check step taken up again after a kill use them (`startBatchApp`'s `kinds` and
 * `workerServices`); `killWhen` returns null for an end that runs as it is.
 */
export function killableEnds(killWhen: () => (() => boolean) | null): {
  kinds: AnyJobKind[];
  workerServices: (real: Services) => Services;
} {
  return {
    kinds: jobKinds.map((k) =>
      k.kind === batchEnd.kind ? batchEndKind({ backoff: { baseMs: 50, maxMs: 100 } }) : k,
    ),
    workerServices: (real) => ({
      ...real,
      batches: {
        ...real.batches,
        end: async (batchId, signal) => {
          const killed = killWhen();
          if (killed === null) return real.batches.end(batchId, signal);
          const kill = new AbortController();
          const look = setInterval(() => {
            if (killed()) kill.abort(new Error('killed'));
          }, 1);
          try {
            await real.batches.end(batchId, kill.signal);
          } finally {
            clearInterval(look);
          }
          throw new Error('the worker was killed in the middle of the checks');
        },
      },
    }),
  };
}

/** POST /api/v1/batches with `payload` as the key `auth` (asserted 202); the new batch's id. */
export async function postBatch(
  t: TestApp,
  auth: Record<string, string>,
  payload: Record<string, unknown>,
): Promise<number> {
  return (await posted(t, auth, payload)).id;
}

/** POST /api/v1/batches (asserted 202): the batch as the answer has it. */
async function posted(
  t: TestApp,
  auth: Record<string, string>,
  payload: Record<string, unknown>,
): Promise<{ id: number; options: Record<string, unknown> }> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/batches',
    headers: { ...auth, 'content-type': 'application/json' },
    payload,
  });
  assert.equal(res.statusCode, 202, res.body);
  return (res.json() as { data: { id: number; options: Record<string, unknown> } }).data;
}

/** The JSON export of a batch (GET /api/v1/batches/{id}/export?format=json). */
export type BatchExportJson = Static<typeof BatchExport>;
/** One of a batch's findings as its JSON export has it. */
export type ExportFinding = BatchExportJson['findings'][number];

/**
 * Waits until batch `id` of `user` ends, asserts it is done (its error as the message), and
 * returns its JSON export (asserted 200).
 */
export async function endedExport(
  t: TestApp,
  user: Pick<TestUser, 'id' | 'auth'>,
  id: number,
  timeoutMs?: number,
): Promise<BatchExportJson> {
  const done = await batchEnded(t, user.id, id, timeoutMs);
  assert.equal(done.status, 'done', done.error ?? '');
  const exp = await t.request({
    method: 'GET',
    url: `/api/v1/batches/${id}/export?format=json`,
    headers: user.auth,
  });
  assert.equal(exp.statusCode, 200, exp.body);
  return exp.json() as BatchExportJson;
}

/**
 * A batch with `payload` posted as `user` (POST /api/v1/batches, asserted 202), waited for
 * (asserted done) and its findings read from the JSON export: its id, its options as the POST
 * answered them, the findings.
 */
export async function crawlFindings(
  t: TestApp,
  user: Pick<TestUser, 'id' | 'auth'>,
  payload: Record<string, unknown>,
  timeoutMs?: number,
): Promise<{ id: number; options: Record<string, unknown>; findings: ExportFinding[] }> {
  const { id, options } = await posted(t, user.auth, payload);
  const { findings } = await endedExport(t, user, id, timeoutMs);
  return { id, options, findings };
}
