// The BullMQ engine (REDIS_URL set): one BullMQ queue per job kind, so that each kind has its
// own BullMQ Worker with its own concurrency, lock duration and backoff. Keys live under
// `<PAGEGRADE_REDIS_PREFIX>bull:<kind>:…`.
//
// - De-duplication: the `key` is BullMQ's deduplication id (live while the job waits, is
//   delayed or runs; cleared when it completes or fails). The job id is a UUID chosen at
//   enqueue: BullMQ answers the existing job's id for a duplicate, so `added` is known.
// - `trx` enqueue: a row in `job_outbox`, in the caller's transaction; a relay loop in every
//   process (and once at start-up) moves committed rows to Redis and deletes them. Adding the
//   same job id twice is a no-op in BullMQ, so a relay that dies between the add and the
//   delete never makes a second job.
// - Retries: BullMQ's attempts, with this project's backoff (exponential, jittered, capped);
//   a PermanentJobError or an invalid payload becomes BullMQ's UnrecoverableError (failed at
//   once). Completed jobs are kept an hour, failed (dead) ones 30 days.
// - Leases are BullMQ's locks (lockDuration = the kind's leaseMs, renewed by BullMQ); a job
//   whose lock expired is moved back to waiting by any worker's stalled check.
import { randomUUID } from 'node:crypto';
import { Queue as BullQueue, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Db } from '../store/database.js';
import { insertOutbox, outboxPending, relayOutbox, type OutboxRow } from '../store/jobs.repository.js';
import {
  type AnyJobKind,
  type KindRegistry,
  backoffDelay,
  errorText,
  isPermanent,
  serialisePayload,
  silentLog,
} from './kind-tools.js';
import { sharedNow, sleep } from '../timers.js';
import {
  LeaseLostError,
  type DeadJob,
  type EnqueueOptions,
  type JobLogger,
  type Queue,
  type QueueAdmin,
  type QueueCounts,
} from './types.js';
import {
  runHandler,
  slotsOf,
  startRecurring,
  DEAD_RETENTION_MS,
  type WorkerSettings,
  type Workers,
} from './worker.js';

export interface BullmqQueueOptions {
  redisUrl: string;
  /** PAGEGRADE_REDIS_PREFIX; BullMQ's keys go under `<prefix>bull` */
  redisPrefix: string;
  /** the app's database: the outbox of `trx` enqueues */
  db: Db;
  registry: KindRegistry;
  log?: JobLogger;
  /** how often the outbox is relayed (default 1000 ms; also right after each `trx` enqueue) */
  relayMs?: number;
}

const COMPLETED_KEEP = { age: 3600, count: 10_000 };
const FAILED_KEEP = { age: DEAD_RETENTION_MS / 1000 };
const RELAY_BATCH = 200;
const AFTER_COMMIT_MS = [20, 250];

export class BullmqQueue implements Queue, QueueAdmin {
  readonly engine = 'bullmq' as const;
  readonly prefix: string;
  readonly connection: Redis;
  private readonly queues = new Map<string, BullQueue>();
  private readonly log: JobLogger;
  private readonly relayTimer: NodeJS.Timeout;
  private readonly wakeTimers = new Set<NodeJS.Timeout>();
  private relaying: Promise<number> | null = null;
  private relayAgain = false;
  private closed = false;

  constructor(readonly options: BullmqQueueOptions) {
    this.prefix = `${options.redisPrefix}bull`;
    this.log = options.log ?? silentLog;
    // BullMQ needs maxRetriesPerRequest: null (its blocking commands must not time out)
    this.connection = new Redis(options.redisUrl, {
      maxRetriesPerRequest: null,
      connectionName: 'pagegrade-jobs',
    });
    this.connection.on('error', () => {});
    for (const k of options.registry.all) this.queueOf(k.kind);
    this.relayTimer = setInterval(() => void this.relay(), options.relayMs ?? 1000);
    this.relayTimer.unref();
    // jobs committed while no process was running
    void this.relay();
  }

  get registry(): KindRegistry {
    return this.options.registry;
  }

  queueOf(kind: string): BullQueue {
    let q = this.queues.get(kind);
    if (!q) {
      this.options.registry.get(kind);
      q = new BullQueue(kind, { connection: this.connection, prefix: this.prefix });
      q.on('error', (err) => this.log.error({ err, kind }, 'BullMQ queue error'));
      this.queues.set(kind, q);
    }
    return q;
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}) {
    if (this.closed) throw new Error('the queue is closed');
    const def = this.options.registry.get(kind);
    const text = serialisePayload(this.options.registry, def, payload);
    const now = sharedNow();
    const row = {
      jobId: randomUUID(),
      kind,
      key: options.key ?? null,
      payload: text,
      maxAttempts: options.maxAttempts ?? null,
      runAt: now + Math.max(0, Math.round(options.delayMs ?? 0)),
    };
    if (options.trx) {
      await insertOutbox(options.trx, { ...row, now });
      this.relaySoon();
      // with the caller's commit the job will exist; a duplicate key is found when it is relayed
      return { id: row.jobId, added: true };
    }
    return this.add(row);
  }

  private async add(row: Omit<OutboxRow, 'id'>): Promise<{ id: string; added: boolean }> {
    const def = this.options.registry.get(row.kind);
    const job = await this.queueOf(row.kind).add(row.kind, JSON.parse(row.payload), {
      jobId: row.jobId,
      attempts: Math.max(1, row.maxAttempts ?? def.maxAttempts),
      backoff: { type: 'pagegrade', delay: def.backoff.baseMs },
      delay: Math.max(0, row.runAt - sharedNow()),
      ...(row.key !== null ? { deduplication: { id: row.key } } : {}),
      removeOnComplete: COMPLETED_KEEP,
      removeOnFail: FAILED_KEEP,
    });
    return { id: job.id!, added: job.id === row.jobId };
  }

  /** the outbox rows the transaction wrote go to Redis now */
  committed(): void {
    void this.relay();
  }

  private relaySoon(): void {
    for (const ms of AFTER_COMMIT_MS) {
      const t = setTimeout(() => {
        this.wakeTimers.delete(t);
        void this.relay();
      }, ms);
      t.unref();
      this.wakeTimers.add(t);
    }
  }

  /** Moves committed outbox rows to Redis; one relay at a time per process. Returns how many. */
  relay(): Promise<number> {
    if (this.closed) return Promise.resolve(0);
    if (this.relaying) {
      this.relayAgain = true;
      return this.relaying;
    }
    this.relaying = (async () => {
      let total = 0;
      try {
        do {
          this.relayAgain = false;
          if (!(await outboxPending(this.options.db))) continue;
          for (;;) {
            const n = await relayOutbox(this.options.db, RELAY_BATCH, async (rows) => {
              await Promise.all(rows.map((r) => this.add(r)));
            });
            total += n;
            if (n < RELAY_BATCH) break;
          }
        } while (this.relayAgain && !this.closed);
      } catch (err) {
        if (!this.closed) this.log.error({ err }, 'relaying queued jobs to Redis failed; trying again');
      } finally {
        this.relaying = null;
      }
      return total;
    })();
    return this.relaying;
  }

  async counts(): Promise<Record<string, QueueCounts>> {
    const out: Record<string, QueueCounts> = {};
    await Promise.all(
      this.options.registry.all.map(async (k) => {
        const c = await this.queueOf(k.kind).getJobCounts(
          'wait',
          'prioritized',
          'active',
          'delayed',
          'failed',
        );
        out[k.kind] = {
          waiting: (c.wait ?? 0) + (c.prioritized ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          dead: c.failed ?? 0,
        };
      }),
    );
    return out;
  }

  private kindsFor(kind: string | undefined): AnyJobKind[] {
    return kind === undefined ? this.options.registry.all : [this.options.registry.get(kind)];
  }

  async dead(options: { kind?: string; limit?: number } = {}): Promise<DeadJob[]> {
    const limit = options.limit ?? 100;
    const all: DeadJob[] = [];
    for (const k of this.kindsFor(options.kind)) {
      const jobs = await this.queueOf(k.kind).getFailed(0, limit - 1);
      for (const j of jobs) {
        all.push({
          id: j.id!,
          kind: k.kind,
          payload: j.data,
          attempts: j.attemptsMade,
          error: j.failedReason ?? null,
          failedAt: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
        });
      }
    }
    return all.sort((a, b) => (b.failedAt ?? '').localeCompare(a.failedAt ?? '')).slice(0, limit);
  }

  async retryDead(ids: readonly string[] | 'all', options: { kind?: string } = {}): Promise<number> {
    let n = 0;
    for (const k of this.kindsFor(options.kind)) {
      const q = this.queueOf(k.kind);
      const jobs =
        ids === 'all'
          ? await q.getFailed(0, -1)
          : (await Promise.all(ids.map((id) => q.getJob(id)))).filter((j): j is Job => !!j);
      for (const job of jobs) {
        if ((await job.getState()) !== 'failed') continue;
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        n++;
      }
    }
    return n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // a last relay of what committed meanwhile
    await this.relay().catch(() => 0);
    this.closed = true;
    clearInterval(this.relayTimer);
    for (const t of this.wakeTimers) clearTimeout(t);
    await this.relaying?.catch(() => 0);
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}

/**
 * JobContext.fence on BullMQ: the job's lock extended in Redis for a full lease, only while this
 * worker's token still holds it (a cut-off worker whose lock expired finds it gone, even before
 * any stalled check moved the job). An answer that does not come within a third of the lease
 * counts as lost: the outcome is not written, and the job runs again.
 */
async function fence(job: Job, token: string | undefined, t: Tracked, leaseMs: number): Promise<void> {
  if (!t.controller.signal.aborted && token !== undefined) {
    const timer = new AbortController();
    const held = await Promise.race([
      job.extendLock(token, leaseMs).then(
        (n) => Number(n) === 1,
        () => false,
      ),
      sleep(Math.max(100, Math.floor(leaseMs / 3)), timer.signal).then(() => false),
    ]);
    timer.abort();
    if (held) return;
  }
  const lost = new LeaseLostError();
  if (!t.controller.signal.aborted) t.controller.abort(lost);
  throw lost;
}

interface Tracked {
  controller: AbortController;
  abortedFor: null | 'shutdown';
  settled: boolean;
  promise: Promise<void>;
}

/** Starts one BullMQ Worker per kind with a slot in this process. */
export function startBullmqWorkers<D>(queue: BullmqQueue, settings: WorkerSettings<D>): Workers {
  const { registry } = queue;
  const log = settings.log ?? silentLog;
  const shutdownMs = settings.shutdownMs ?? 30_000;
  const abortGraceMs = settings.abortGraceMs ?? 2000;
  const tracked = new Map<string, Set<Tracked>>();
  const workers = new Map<string, Worker>();
  let stopping = false;
  let stopped: Promise<void> | null = null;
  const workerConnection = new Redis(queue.options.redisUrl, {
    maxRetriesPerRequest: null,
    connectionName: 'pagegrade-workers',
  });
  workerConnection.on('error', () => {});

  for (const kind of registry.all) {
    const slots = slotsOf(kind, settings.concurrency);
    if (slots === 0) continue;
    const running = new Set<Tracked>();
    /** the running jobs by id: a renewal that finds a job's lock gone aborts its signal */
    const byJob = new Map<string, Tracked>();
    tracked.set(kind.kind, running);
    const processor = async (job: Job, token?: string, bullSignal?: AbortSignal): Promise<void> => {
      if (stopping) {
        // taken while stopping: give it straight back
        await job.moveToWait(token);
        throw new WaitingError();
      }
      const t: Tracked = { controller: new AbortController(), abortedFor: null, settled: false } as Tracked;
      bullSignal?.addEventListener('abort', () => t.controller.abort(bullSignal.reason), { once: true });
      let done!: () => void;
      t.promise = new Promise((r) => (done = r));
      running.add(t);
      byJob.set(job.id!, t);
      try {
        await runHandler(
          registry,
          kind,
          {
            id: job.id!,
            payload: job.data,
            attempt: Math.max(1, job.attemptsStarted || job.attemptsMade + 1),
            maxAttempts: job.opts.attempts ?? kind.maxAttempts,
            signal: t.controller.signal,
            fence: () => fence(job, token, t, kind.leaseMs),
          },
          settings.deps,
        );
      } catch (err) {
        if (t.abortedFor === 'shutdown') {
          // aborted by the shutdown deadline: back to waiting, for another worker
          await job.moveToWait(token);
          throw new WaitingError();
        }
        if (err instanceof LeaseLostError || t.controller.signal.reason instanceof LeaseLostError) {
          // the lock is gone (or unconfirmed): nothing more is written for this run; the job is
          // the stalled check's, or already another worker's
          log.warn({ kind: kind.kind, jobId: job.id }, 'job lease lost while it ran; outcome discarded');
          throw new WaitingError();
        }
        if (isPermanent(err)) throw new UnrecoverableError(errorText(err));
        throw err;
      } finally {
        t.settled = true;
        running.delete(t);
        if (byJob.get(job.id!) === t) byJob.delete(job.id!);
        done();
      }
    };
    const worker = new Worker(kind.kind, processor, {
      connection: workerConnection,
      prefix: queue.prefix,
      concurrency: slots,
      lockDuration: kind.leaseMs,
      stalledInterval: kind.leaseMs,
      // a job held by a dead worker counts as an attempt, as on the embedded engine
      maxStalledCount: kind.maxAttempts,
      removeOnComplete: COMPLETED_KEEP,
      removeOnFail: FAILED_KEEP,
      settings: { backoffStrategy: (attemptsMade: number) => backoffDelay(kind, attemptsMade) },
    });
    worker.on('error', (err) => log.error({ err, kind: kind.kind }, 'BullMQ worker error'));
    worker.on('failed', (job, err) => {
      if (!job || err instanceof WaitingError || err.name === 'WaitingError') return;
      const fields = { kind: kind.kind, jobId: job.id, attempt: job.attemptsMade, err };
      if (job.finishedOn) log.error(fields, 'job dead');
      else log.warn(fields, 'job failed; will retry');
    });
    // as on the embedded engine: a renewal that finds the lock gone (expired, or another
    // worker's) aborts the handler's signal; its outcome is then discarded (fence, above).
    // A renewal that cannot reach Redis is not a loss: it tells nothing.
    worker.on('lockRenewalFailed', (jobIds: string[]) => {
      for (const id of jobIds) {
        const t = byJob.get(id);
        if (t && !t.settled && !t.controller.signal.aborted) t.controller.abort(new LeaseLostError());
      }
    });
    workers.set(kind.kind, worker);
  }

  const stopRecurring = startRecurring(settings.recurring ?? [], settings.deps, log);
  const allTracked = () => [...tracked.values()].flatMap((s) => [...s]);

  return {
    running() {
      const out: Record<string, number> = {};
      for (const [kind, s] of tracked) out[kind] = s.size;
      return out;
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        const recurringStopped = stopRecurring();
        // no new jobs; running ones go on (BullMQ keeps renewing their locks)
        await Promise.allSettled([...workers.values()].map((w) => w.pause(true)));
        const timers = new AbortController();
        await Promise.race([
          Promise.allSettled(allTracked().map((t) => t.promise)),
          sleep(shutdownMs, timers.signal),
        ]);
        const left = allTracked();
        if (left.length > 0) {
          log.warn(
            { jobs: left.length, shutdownMs },
            'jobs still running at the shutdown deadline: aborting them',
          );
          for (const t of left) {
            t.abortedFor = 'shutdown';
            t.controller.abort(new Error('the worker is stopping'));
          }
          await Promise.race([
            Promise.allSettled(left.map((t) => t.promise)),
            sleep(abortGraceMs, timers.signal),
          ]);
          // let the give-backs (moveToWait) reach Redis
          await sleep(50);
        }
        timers.abort();
        // force: never wait for a handler that ignored its signal (its lock expires instead)
        await Promise.allSettled([...workers.values()].map((w) => w.close(true)));
        await workerConnection.quit().catch(() => workerConnection.disconnect());
        await recurringStopped;
      })();
      return stopped;
    },
  };
}
