// The job engine: createJobEngine picks the engine (the `jobs` table of the app's database, or
// BullMQ when REDIS_URL is set — PAGEGRADE_QUEUE forces one), and gives the Queue that the
// services enqueue through and a way to start this process's workers. docs/jobs.md.
import { ConfigError } from '../config.js';
import type { Db } from '../store/database.js';
import { EmbeddedQueue } from './embedded.js';
import { setHeapGrowth } from './heap.js';
import { type AnyJobKind, KindRegistry, silentLog } from './kind-tools.js';
import type { JobLogger, Queue, QueueAdmin } from './types.js';
import { jobKinds } from './kinds/index.js';
import { startEmbeddedWorkers, type WorkerSettings, type Workers } from './worker.js';

export type { AnyJobKind } from './kind-tools.js';
export type { WorkerSettings, Workers } from './worker.js';

export interface JobEngineConfig {
  /** PAGEGRADE_QUEUE: `auto` (BullMQ when redisUrl is set), `embedded` or `bullmq` */
  readonly queueEngine: 'auto' | 'embedded' | 'bullmq';
  readonly redisUrl: string | null;
  readonly redisPrefix: string;
  /** how often the embedded workers (and the BullMQ outbox relay) look for work, ms */
  readonly jobPollMs: number;
  /** PAGEGRADE_WORKER_HEAP_GROWTH, set when the workers start (src/jobs/heap.ts); absent or 0: V8's own */
  readonly workerHeapGrowth?: number;
}

export interface JobEngine {
  readonly queue: Queue & QueueAdmin;
  /** starts this process's workers (every kind with a slot; the V8 heap's growth set first); stop them before close() */
  startWorkers<D>(settings: Omit<WorkerSettings<D>, 'pollMs'>): Workers;
  /** closes the queue (the database belongs to the caller) */
  close(): Promise<void>;
}

export function engineName(config: JobEngineConfig): 'embedded' | 'bullmq' {
  if (config.queueEngine === 'auto') return config.redisUrl ? 'bullmq' : 'embedded';
  return config.queueEngine;
}

export async function createJobEngine(
  config: JobEngineConfig,
  deps: { db: Db; kinds: readonly AnyJobKind[]; log?: JobLogger },
): Promise<JobEngine> {
  const registry = new KindRegistry(deps.kinds);
  const log = deps.log ?? silentLog;
  if (engineName(config) === 'bullmq') {
    if (!config.redisUrl) throw new Error('the BullMQ job engine needs REDIS_URL');
    // loaded only when used: BullMQ is a large module
    const { BullmqQueue, startBullmqWorkers } = await import('./bullmq.js');
    const queue = new BullmqQueue({
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      db: deps.db,
      registry,
      log,
      relayMs: config.jobPollMs,
    });
    return {
      queue,
      startWorkers: (settings) => {
        setHeapGrowth(config.workerHeapGrowth ?? 0);
        return startBullmqWorkers(queue, { log, ...settings });
      },
      close: () => queue.close(),
    };
  }
  const queue = new EmbeddedQueue(deps.db, registry);
  return {
    queue,
    startWorkers: (settings) => {
      setHeapGrowth(config.workerHeapGrowth ?? 0);
      return startEmbeddedWorkers(queue, { log, ...settings, pollMs: config.jobPollMs });
    },
    close: () => queue.close(),
  };
}

/** PAGEGRADE_JOB_CONCURRENCY may only name kinds that exist (a typo would silently do nothing). */
export function checkJobConcurrency(
  concurrency: Readonly<Record<string, number>>,
  kinds: readonly AnyJobKind[],
): void {
  const known = kinds.map((k) => k.kind);
  for (const name of Object.keys(concurrency)) {
    if (!known.includes(name)) {
      throw new ConfigError(
        'PAGEGRADE_JOB_CONCURRENCY',
        `unknown job kind "${name}"; the kinds are: ${known.join(', ') || '(none)'}`,
      );
    }
  }
}

/** A logger that writes through whichever logger is set last (the app's, once it exists). */
export function forwardingLog(initial: JobLogger = silentLog): JobLogger & { target: JobLogger } {
  const f = {
    target: initial,
    debug: (o: object, m?: string) => f.target.debug(o, m),
    info: (o: object, m?: string) => f.target.info(o, m),
    warn: (o: object, m?: string) => f.target.warn(o, m),
    error: (o: object, m?: string) => f.target.error(o, m),
  };
  return f;
}

/**
 * The embedded engine's queue on `db` with the application's job kinds, and no workers: what a
 * process gives createServices when it only enqueues (a CLI command, a test), or before it
 * starts its workers.
 */
export function embeddedQueue(db: Db): EmbeddedQueue {
  return new EmbeddedQueue(db, new KindRegistry(jobKinds));
}
