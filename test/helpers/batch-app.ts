// Batches in one process: the test kit's app (test/helpers/app.ts) whose services enqueue on a
// real job engine (the jobs table of the test database) with its workers running, so that a
// batch started from the API or the dashboard is crawled and audited as in production.
// (test/sites/batches.test.ts builds its own, for the BullMQ engine too.)
import { createJobEngine, type JobEngine, type Workers } from '../../src/jobs/index.js';
import { jobKinds } from '../../src/jobs/kinds/index.js';
import { silentLog } from '../../src/jobs/kind-tools.js';
import type { Queue } from '../../src/jobs/types.js';
import type { AnyJobKind } from '../../src/jobs/kind-tools.js';
import type { Batch } from '../../src/services/batches/types.js';
import type { Services } from '../../src/services/types.js';
import { waitFor } from './queues.js';
import { buildTestApp, type TestApp, type TestAppOptions } from './app.js';
import type { TestDialect } from './db.js';

export interface BatchApp {
  t: TestApp;
  engine: JobEngine;
  workers: Workers;
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
}

export async function startBatchApp(dialect: TestDialect, options: BatchAppOptions = {}): Promise<BatchApp> {
  const { config = {} } = options;
  // the services enqueue on the engine's queue, made after the app (it needs the database)
  const holder: { q?: Queue } = {};
  const lazy: Queue = {
    engine: 'embedded',
    enqueue: (...a) => holder.q!.enqueue(...a),
    counts: () => holder.q!.counts(),
    close: async () => {},
  };
  const t = await buildTestApp(dialect, {
    queue: lazy,
    logLevel: 'silent',
    config: { crawlDelayMs: 0, crawlConcurrency: 2, ...config },
    ...(options.renderer ? { renderer: options.renderer } : {}),
  });
  const engine = await createJobEngine(
    { queueEngine: 'embedded', redisUrl: null, redisPrefix: 'unused:', jobPollMs: options.pollMs ?? 100 },
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
    async close() {
      await workers.stop();
      await engine.close();
      await t.close();
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
