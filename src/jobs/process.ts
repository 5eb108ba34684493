// A process that runs the job workers without the HTTP server (`pagegrade worker`): config →
// database → migrations → job engine → services → workers, until SIGTERM/SIGINT; then the
// workers stop gracefully (running jobs get PAGEGRADE_WORKER_SHUTDOWN_MS to finish).
import pino from 'pino';
import { analyze } from '../analyzer/index.js';
import type { Config } from '../config.js';
import { loggerOptions } from '../logger.js';
import { createServices } from '../services/index.js';
import { createDb, migrate, type DatabaseHandle } from '../store/database.js';
import { keepSharedClock } from '../store/db-clock.js';
import { checkJobConcurrency, createJobEngine, engineName, type JobEngine, type Workers } from './index.js';
import { jobKinds, jobKindsFor, recurringTasksFor } from './kinds/index.js';
import { rendererFromConfig, type Renderer } from '../render/index.js';
import type { RedisClient } from '../store/redis.js';
import type { ChangeBus } from '../services/shared/changes.js';

/** Closes the change bus's Redis client (loaded only with REDIS_URL). */
async function closeRedisLater(redis: RedisClient): Promise<void> {
  const { closeRedis } = await import('../store/redis.js');
  await closeRedis(redis).catch(() => {});
}

export interface WorkerProcessOptions {
  /** only these kinds run here (the others get concurrency 0) */
  only?: readonly string[];
}

/** Runs until a signal; resolves with the exit code (0 after a graceful stop). */
export async function runWorkerProcess(config: Config, options: WorkerProcessOptions = {}): Promise<number> {
  const log = pino({ ...loggerOptions(config.logLevel), base: { component: 'jobs' } });
  checkJobConcurrency(config.jobConcurrency, jobKinds);
  const concurrency: Record<string, number> = { ...config.jobConcurrency };
  if (options.only) {
    checkJobConcurrency(Object.fromEntries(options.only.map((k) => [k, 1])), jobKinds);
    for (const k of jobKinds) if (!options.only.includes(k.kind)) concurrency[k.kind] = 0;
  }

  let database: DatabaseHandle | null = null;
  let engine: JobEngine | null = null;
  let workers: Workers;
  let renderer: Renderer | null = null;
  let redis: RedisClient | null = null;
  let changes: (ChangeBus & { close(): Promise<void> }) | null = null;
  try {
    database = createDb(config.databaseUrl);
    await migrate(database.db);
    // leases, schedule claims and a crawl's timing on the database's clock (src/timers.ts sharedNow)
    await keepSharedClock(database, log);
    engine = await createJobEngine(config, { db: database.db, kinds: jobKindsFor(config), log });
    // rendered audits in jobs (schedules, batches with render): Chromium starts at the first one
    renderer = rendererFromConfig(config);
    // the batches worked here tell their live pages in the web process: through Redis with
    // Redis, else through LISTEN/NOTIFY on PostgreSQL (SQLite: one process, nothing to tell)
    if (config.redisUrl) {
      const { createChangeBus, createRedis } = await import('../store/redis.js');
      redis = createRedis(config);
      changes = redis ? createChangeBus(redis, config) : null;
    } else if (database.dialect === 'postgres') {
      const { createPgChangeBus } = await import('../store/pg-changes.js');
      changes = createPgChangeBus(config.databaseUrl, database.db);
    }
    const services = createServices({
      db: database.db,
      analyze,
      config,
      queue: engine.queue,
      renderer,
      ...(changes ? { changes } : {}),
    });
    workers = engine.startWorkers({
      deps: { services, queue: engine.queue, log },
      concurrency,
      shutdownMs: config.workerShutdownMs,
      log,
      recurring: recurringTasksFor(config),
    });
  } catch (err) {
    await renderer?.close().catch(() => {});
    await changes?.close().catch(() => {});
    if (redis) await closeRedisLater(redis);
    await engine?.close().catch(() => {});
    await database?.close().catch(() => {});
    throw err;
  }
  // the workers' timers do not hold the process open (they are unref'd): this does, until a signal.
  // The handlers are in place before "workers started" is written: whoever waits for that line
  // may signal at once.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  log.info(
    {
      engine: engineName(config),
      kinds: jobKinds.filter((k) => (concurrency[k.kind] ?? k.concurrency) > 0).map((k) => k.kind),
    },
    'workers started',
  );

  const signal = await signalled;
  // a second signal stops at once
  const hard = () => process.exit(1);
  process.once('SIGTERM', hard);
  process.once('SIGINT', hard);
  clearInterval(keepAlive);
  log.info({ signal }, 'stopping: running jobs may finish');
  setTimeout(() => {
    log.error({}, 'shutdown took too long; exiting');
    process.exit(1);
  }, config.workerShutdownMs + 20_000).unref();
  let code = 0;
  try {
    await workers.stop();
  } catch (err) {
    log.error({ err }, 'stopping the workers failed');
    code = 1;
  }
  await renderer?.close().catch(() => {});
  await changes?.close().catch(() => {});
  if (redis) await closeRedisLater(redis);
  await engine.close().catch((err: unknown) => {
    log.error({ err }, 'closing the job queue failed');
    code = 1;
  });
  await database.close().catch(() => {});
  log.info({}, 'stopped');
  return code;
}
