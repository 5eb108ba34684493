// The job engine's contract: one Queue interface, two engines behind it (a `jobs` table in the
// app's own database — the embedded default — and BullMQ on Redis when REDIS_URL is set), and
// job kinds that are adapters like route handlers: validate the payload, call a service.
//
//   src/jobs/types.ts           this contract (engines and kinds may add to it, never change it)
//   src/jobs/kinds/<kind>.ts    one kind of job: its payload schema and a handler
//   src/jobs/worker.ts          the worker loop (slots per kind, leases, graceful stop)
//   src/store/jobs.repository.ts  the embedded engine's SQL
//
// Delivery is at least once: a handler may run again after a crash, a lost lease or a retry,
// so every handler is idempotent (it checks the state it would change before changing it).
import type { Static, TSchema } from 'typebox';
import type { Queue } from '../contract/jobs.js';
import type { Db } from '../store/database.js';

// the queue's side that the services see is declared with the jobs they enqueue
export type { EnqueueOptions, Queue, QueueCounts } from '../contract/jobs.js';

export interface JobContext<P> {
  id: string;
  kind: string;
  payload: P;
  /** 1 on the first run */
  attempt: number;
  maxAttempts: number;
  /** aborted when the worker stops past its deadline or the job's lease is lost */
  signal: AbortSignal;
  /**
   * Called in the transaction that writes the job's outcome, before it commits: confirms
   * that this run still holds the job and renews its lease for a full `leaseMs`, or aborts
   * `signal` and throws a LeaseLostError (the transaction rolls back; the run that holds the
   * job now writes the outcome). The embedded engine renews the job's row in `trx` itself, so
   * the lease and the outcome commit together; BullMQ's lock is extended in Redis. Absent
   * where no engine runs the handler.
   */
  fence?: (trx: Db) => Promise<void>;
}

/** Thrown by a job's fence: another run holds the job now (or the lease could not be confirmed). */
export class LeaseLostError extends Error {
  constructor(message = 'the job lease was lost: another worker has the job now') {
    super(message);
    this.name = 'LeaseLostError';
  }
}

/** Thrown by a handler for a failure that a retry cannot mend: the job goes dead at once. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export interface JobKind<S extends TSchema = TSchema, D = unknown> {
  /** e.g. `webhook.deliver`, `report.reaudit`, `batch.page` */
  kind: string;
  /** TypeBox schema of the payload, checked before the handler runs (an invalid payload is dead at once) */
  payload: S;
  /** jobs of this kind run at once per process (config may override) */
  concurrency: number;
  maxAttempts: number;
  /** delay before attempt n+1: min(maxMs, baseMs × 2^(n−1)), with jitter */
  backoff: { baseMs: number; maxMs: number };
  /** a running job whose lease is not renewed within this is taken up again by another worker */
  leaseMs: number;
  handle(job: JobContext<Static<S>>, deps: D): Promise<void>;
}

// ---------------------------------------------------------------------------------------
// Added with the engines (additions only; the contract above is unchanged).

/** What a worker logs through (a pino logger satisfies it). */
export interface JobLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * What every handler of the application's job kinds receives as `deps` (src/jobs/kinds): the
 * services (a handler is an adapter that calls them), the queue (to enqueue follow-up jobs)
 * and a logger. Typed loosely here so that this file does not import the services.
 */
export interface JobDeps<S = unknown> {
  services: S;
  queue: Queue;
  log: JobLogger;
}

/** A dead job, for inspection (`pagegrade jobs dead`). */
export interface DeadJob {
  id: string;
  kind: string;
  payload: unknown;
  /** attempts made */
  attempts: number;
  /** the last attempt's error */
  error: string | null;
  /** when it died (ISO 8601) */
  failedAt: string | null;
}

/**
 * Operations on dead jobs, which both engines keep for inspection (docs/jobs.md): list them,
 * and put them back in the queue with a fresh set of attempts. Not part of `Queue` so that
 * services and handlers, which only enqueue, never see them.
 */
export interface QueueAdmin {
  dead(options?: { kind?: string; limit?: number }): Promise<DeadJob[]>;
  /** retries the given dead jobs (or every dead job, of one kind when given); returns how many */
  retryDead(ids: readonly string[] | 'all', options?: { kind?: string }): Promise<number>;
}
