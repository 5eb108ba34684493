// The services and the job engine's workers of a bench, as `npm start` runs them, on a database
// the caller made: the one set-up of bench/crawl-load.ts (in its own process, on PostgreSQL, the
// embedded engine or BullMQ) and bench/lib/sites-worker.ts (the measured process of bench/sites.ts
// and bench/crawl-peers.ts, on SQLite). The application's modules are passed in: sites-worker
// loads them from dist/ or src/ (SITES_ROOT), and runs under plain node with this file bundled in
// (bench/lib/worker-script.ts), so this file imports types only.
import type * as Analyzer from '../../src/analyzer/index.js';
import type * as Jobs from '../../src/jobs/index.js';
import type * as KindTools from '../../src/jobs/kind-tools.js';
import type * as Kinds from '../../src/jobs/kinds/index.js';
import type { Batch } from '../../src/services/batches/types.js';
import type * as ServicesModule from '../../src/services/index.js';
import type { Services } from '../../src/services/types.js';
import type * as Database from '../../src/store/database.js';

/** what the set-up calls of the application */
export interface AppModules {
  analyze: typeof Analyzer.analyze;
  createJobEngine: typeof Jobs.createJobEngine;
  silentLog: typeof KindTools.silentLog;
  jobKinds: typeof Kinds.jobKinds;
  createServices: typeof ServicesModule.createServices;
  migrate: typeof Database.migrate;
}

export interface BenchServicesOptions {
  /** a fresh database: migrated here */
  db: Database.Db;
  engine: Pick<Jobs.JobEngineConfig, 'queueEngine' | 'redisUrl' | 'redisPrefix' | 'workerHeapGrowth'>;
  /** PAGEGRADE_CRAWL_DELAY_MS, PAGEGRADE_CRAWL_CONCURRENCY */
  crawlDelayMs: number;
  crawlConcurrency: number;
}

export interface BenchServices {
  services: Services;
  /** the organisation of the bench's one user: the owner of its batches */
  owner: number;
  /** batch `id`, asked every `pollMs` until it is done, cancelled or failed */
  ended(id: number, pollMs: number): Promise<Batch>;
  /** stops the workers and closes the job engine (the database stays the caller's) */
  stop(): Promise<void>;
}

/**
 * Migrates `db`, starts the job engine (its workers polling every 500 ms) and the services on it
 * with loopback sites allowed, the workers running every job kind, and makes the bench's user.
 */
export async function startBenchServices(app: AppModules, o: BenchServicesOptions): Promise<BenchServices> {
  await app.migrate(o.db);
  const engine = await app.createJobEngine(
    { ...o.engine, jobPollMs: 500 },
    { db: o.db, kinds: app.jobKinds },
  );
  const services = app.createServices({
    db: o.db,
    analyze: app.analyze,
    queue: engine.queue,
    config: {
      allowPrivateHosts: true,
      fetchTimeoutMs: 10_000,
      fetchMaxBytes: 5 * 1024 * 1024,
      userAgent: null,
      sessionSecret: 'bench-services-session-secret-bench-services',
      bootstrapKey: null,
      crawlDelayMs: o.crawlDelayMs,
      crawlConcurrency: o.crawlConcurrency,
    },
  });
  const workers = engine.startWorkers({ deps: { services, queue: engine.queue, log: app.silentLog } });
  const { organization } = await services.users.create('bench');
  return {
    services,
    owner: organization.id,
    async ended(id, pollMs) {
      let b = await services.batches.get(organization.id, id);
      while (!['done', 'cancelled', 'failed'].includes(b.status)) {
        await new Promise((r) => setTimeout(r, pollMs));
        b = await services.batches.get(organization.id, id);
      }
      return b;
    },
    async stop() {
      await workers.stop();
      await engine.close();
    },
  };
}
