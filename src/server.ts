// The entry point: config → database → migrations → job queue → first key → listen → job
// workers (unless PAGEGRADE_WORKER=0) → graceful close (HTTP and workers together).
//
// Exit codes: 0 after a graceful shutdown (SIGTERM/SIGINT); 78 (EX_CONFIG) when the
// configuration is invalid (the message names the variable); 1 when the service cannot start
// (database or Redis unreachable, migration failed, port in use) or a shutdown step failed;
// 143/130 when SIGTERM/SIGINT comes before the port is open (the start is abandoned).
import type { App } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { JobEngine, Workers } from './jobs/index.js';
import { setHeapGrowth } from './jobs/heap.js';
import type { DatabaseHandle } from './store/database.js';
import type { createKeyBus as createKeyBusType, RedisClient } from './store/redis.js';
import type { ChangeBus } from './services/shared/changes.js';
import type { PgChangeBus } from './store/pg-changes.js';

export const EXIT_CONFIG = 78;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`pagegrade: invalid configuration: ${err.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }

  // V8's heap growth (src/jobs/heap.ts), before the service is loaded: a full collection made
  // while it loads would otherwise set V8's limits by its own growth factor
  const heapGrowthPercent = config.worker ? config.workerHeapGrowth : config.apiHeapGrowth;
  setHeapGrowth(heapGrowthPercent);

  // the rest of the service is loaded once the configuration is known to be good
  const [
    { sql },
    { buildApp },
    { analyze },
    { createDb, migrate },
    { closeRedis, createChangeBus, createKeyBus, createRedis, pingRedis },
    { createPgChangeBus, pgKeyChanges },
    { bootstrap, createServices },
    { checkJobConcurrency, createJobEngine, forwardingLog },
    { jobKinds, jobKindsFor, recurringTasksFor },
    { rendererFromConfig },
    { keepSharedClock },
  ] = await Promise.all([
    import('kysely'),
    import('./app.js'),
    import('./analyzer/index.js'),
    import('./store/database.js'),
    import('./store/redis.js'),
    import('./store/pg-changes.js'),
    import('./services/index.js'),
    import('./jobs/index.js'),
    import('./jobs/kinds/index.js'),
    import('./render/index.js'),
    import('./store/db-clock.js'),
    // BullMQ is a large module: load it with the rest when it will be used
    config.redisUrl !== null && config.queueEngine !== 'embedded' ? import('./jobs/bullmq.js') : null,
  ]);

  try {
    checkJobConcurrency(config.jobConcurrency, jobKinds);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`pagegrade: invalid configuration: ${err.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }

  let database: DatabaseHandle | null = null;
  let redis: RedisClient | null = null;
  let keyBus: ReturnType<typeof createKeyBusType> | null = null;
  let changes: (ChangeBus & { close(): Promise<void> }) | null = null;
  let pgBus: PgChangeBus | null = null;
  let app: App | null = null;
  let engine: JobEngine | null = null;
  let workers: Workers | null = null;
  let renderer: { close(): Promise<void> } | null = null;
  // the job engine logs through the app's logger once the app exists
  const jobLog = forwardingLog();

  // Signals: before the port is open, one stops the start at once (nothing is acknowledged yet);
  // from the "listening" line on, the service shuts down gracefully — a signal that comes while
  // the workers are still starting waits for them. The handlers are in place before anything is
  // written that a supervisor may wait for.
  let listening = false;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    if (!listening) process.exit(signal === 'SIGINT' ? 130 : 143);
    void started.then(() => shutdown(signal));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  try {
    database = createDb(config.databaseUrl);
    await migrate(database.db);
    const { db } = database;
    redis = createRedis(config);
    if (redis) await pingRedis(redis);

    engine = await createJobEngine(config, { db, kinds: jobKindsFor(config), log: jobLog });
    // rendered audits: Chromium starts at the first one (docs/rendering.md)
    const chromium = rendererFromConfig(config);
    renderer = chromium;
    // PostgreSQL: the LISTEN connection, with Redis too — key changes are heard from the
    // database itself (the triggers' NOTIFY), whatever process or tool makes them
    pgBus = database.dialect === 'postgres' ? createPgChangeBus(config.databaseUrl, db) : null;
    // API key changes made anywhere empty the key cache at once: SQLite's data_version and
    // counter, PostgreSQL's NOTIFY (src/store/key-changes.ts); Redis carries this service's own
    // revocations to the others as well
    const keyChanges = database.keyChanges ?? (pgBus ? pgKeyChanges(pgBus) : null);
    keyBus = redis ? createKeyBus(redis, config) : null;
    // a batch's progress reaches its live page from workers in other processes: Redis pub/sub
    // with Redis, else LISTEN/NOTIFY on PostgreSQL; SQLite: this process's emitter (one process)
    changes = redis ? createChangeBus(redis, config) : pgBus;
    const services = createServices({
      db,
      analyze,
      config,
      queue: engine.queue,
      renderer: chromium,
      ...(keyBus ? { keyBus } : {}),
      ...(keyChanges ? { keyChanges } : {}),
      ...(changes ? { changes } : {}),
    });
    const firstKey = await bootstrap(services, config);

    app = await buildApp(config, {
      services,
      healthCheck: async () => {
        await sql`select 1`.execute(db);
      },
      redis,
      metricsSources: { dbPool: database.poolStats, queue: engine.queue },
    });
    jobLog.target = app.log.child({ component: 'jobs' });
    // leases, schedule claims and a crawl's timing on the database's clock (src/timers.ts sharedNow)
    await keepSharedClock(database, app.log);
    app.log.info({ heapGrowthPercent }, "the V8 heap's growth (0: V8's own)");
    await app.listen({ port: config.port, host: config.host });
    listening = true;

    if (config.worker) {
      workers = engine.startWorkers({
        deps: { services, queue: engine.queue, log: jobLog },
        concurrency: config.jobConcurrency,
        shutdownMs: config.workerShutdownMs,
        recurring: recurringTasksFor(config),
      });
    }

    if (firstKey !== null) process.stdout.write(firstKeyBlock(firstKey, config.publicUrl));
    markStarted();
  } catch (err) {
    process.stderr.write(`pagegrade: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    await app?.close().catch(() => {});
    await renderer?.close().catch(() => {});
    await engine?.close().catch(() => {});
    await keyBus?.close().catch(() => {});
    await changes?.close().catch(() => {});
    if (pgBus !== changes) await pgBus?.close().catch(() => {});
    await closeRedis(redis).catch(() => {});
    await database?.close().catch(() => {});
    process.exit(1);
  }

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) {
      // a second signal while closing: stop now
      process.exit(1);
    }
    closing = true;
    // in-flight audits are bounded by the fetch timeout, running jobs by the worker deadline;
    // never hang longer than this
    setTimeout(
      () => {
        app!.log.error('shutdown took too long; exiting');
        process.exit(1);
      },
      Math.max(config.fetchTimeoutMs, workers ? config.workerShutdownMs : 0) + 20_000,
    ).unref();
    app!.log.info({ signal }, 'shutting down: finishing in-flight requests and running jobs');
    let code = 0;
    // the workers take no new job and let running ones finish (until the deadline) while the
    // HTTP server stops accepting connections and finishes in-flight requests (new ones get 503)
    const [http, jobs] = await Promise.allSettled([app!.close(), workers?.stop()]);
    if (http.status === 'rejected') {
      app!.log.error({ err: http.reason }, 'closing the HTTP server failed');
      code = 1;
    }
    if (jobs.status === 'rejected') {
      app!.log.error({ err: jobs.reason }, 'stopping the job workers failed');
      code = 1;
    }
    await renderer?.close().catch((err: unknown) => app!.log.error({ err }, 'closing Chromium failed'));
    try {
      await engine!.close();
    } catch (err) {
      app!.log.error({ err }, 'closing the job queue failed');
      code = 1;
    }
    try {
      await keyBus?.close();
      await changes?.close();
      if (pgBus !== changes) await pgBus?.close();
      await closeRedis(redis);
      await database!.close();
    } catch (err) {
      app!.log.error({ err }, 'closing the database failed');
      code = 1;
    }
    app!.log.info('stopped');
    process.exit(code);
  };
}

await main();

/**
 * The first start's key, printed once on stdout as a block of its own between the JSON log
 * lines (one write, so no log line cuts into it): a blank line and a rule before and after, the
 * key alone on the line after "API key (shown once):" (scripts take that line).
 */
function firstKeyBlock(key: string, publicUrl: string): string {
  const rule = '='.repeat(72);
  return [
    '',
    rule,
    'Pagegrade: first start on an empty database.',
    'Created user admin. API key (shown once):',
    key,
    `Sign in at ${publicUrl}/login with it, or send it as "Authorization: Bearer <key>".`,
    'It is stored only as a hash: keep it now (more keys: npx pagegrade keys create admin).',
    rule,
    '',
    '',
  ].join('\n');
}
