// The worker loop of the embedded engine, and what both engines' workers share (settings,
// running a handler, recurring tasks). docs/jobs.md tells the whole story; in short:
//
// - Slots per kind: a kind runs at most `concurrency` jobs at once in this process (config
//   PAGEGRADE_JOB_CONCURRENCY overrides; 0 = not in this process).
// - Claims: when a slot is free the worker claims due jobs of the kind (one statement; FOR
//   UPDATE SKIP LOCKED on PostgreSQL, BEGIN IMMEDIATE on SQLite), so several processes share
//   one table safely. It looks when a job is enqueued in this process (wake-up), when a job
//   ends, and every `pollMs` (jobs of other processes, delays that came due).
// - Leases: a claimed job is held until `locked_until`; the worker renews the leases of its
//   running jobs every leaseMs/3. A lease that is not renewed (the process died, or stalled)
//   expires: any worker's poll puts the job back (or buries it, on its last attempt). A
//   renewal that finds the lease gone aborts the handler's signal; its outcome is discarded.
// - Outcomes: done → the row is deleted; an error → waiting again after the kind's backoff
//   (exponential, jittered), or dead after `maxAttempts` attempts; a PermanentJobError or an
//   invalid payload → dead at once. Dead jobs are kept for inspection (30 days).
// - Stop: no new claims; running jobs get `shutdownMs` to finish (leases still renewed), then
//   their signals are aborted. A handler that settles after the abort gives its job back
//   (due at once, the attempt not counted); one that does not keeps it until its lease
//   expires, and another worker takes it then.
import { randomUUID } from 'node:crypto';
import type { EmbeddedQueue } from './embedded.js';
import {
  type AnyJobKind,
  type KindRegistry,
  backoffDelay,
  errorText,
  invalidPayload,
  isPermanent,
  silentLog,
} from './kind-tools.js';
import { sharedNow, sleep } from '../timers.js';
import { LeaseLostError, type JobContext, type JobLogger } from './types.js';
import type { Db } from '../store/database.js';
import {
  buryJob,
  claimJobs,
  completeJobs,
  purgeDeadJobs,
  reapExpiredLeases,
  releaseJob,
  renewLease,
  renewLeases,
  retryJobLater,
  type JobRow,
} from '../store/jobs.repository.js';

/** Something a worker process does every `everyMs` besides jobs (e.g. enqueue due schedules). */
export interface RecurringTask<D = unknown> {
  name: string;
  everyMs: number;
  /** must be safe when several processes run it at once (claims in the database) */
  run(deps: D, signal: AbortSignal): Promise<void>;
}

export interface WorkerSettings<D = unknown> {
  /** what every handler receives as `deps` */
  deps: D;
  /** per kind: jobs at once in this process (overrides the kind's `concurrency`; 0 = none) */
  concurrency?: Readonly<Record<string, number>>;
  /** embedded: how often to look for jobs of other processes and due delays (default 1000) */
  pollMs?: number;
  /** how long running jobs may take to finish once stop() is called (default 30000) */
  shutdownMs?: number;
  /** after the deadline: how long aborted handlers get to settle (default 2000) */
  abortGraceMs?: number;
  log?: JobLogger;
  recurring?: readonly RecurringTask<D>[];
}

export interface Workers {
  /** jobs running in this process now, by kind */
  running(): Record<string, number>;
  /** graceful stop (idempotent): see the top of this file */
  stop(): Promise<void>;
}

/** Dead jobs are deleted after this long. */
export const DEAD_RETENTION_MS = 30 * 24 * 3600_000;

/** Concurrency of each kind in this process (0: not run here). */
export function slotsOf(kind: AnyJobKind, overrides: Readonly<Record<string, number>> | undefined): number {
  return Math.max(0, Math.floor(overrides?.[kind.kind] ?? kind.concurrency));
}

/** Checks the payload, then runs the handler. */
export async function runHandler(
  registry: KindRegistry,
  kind: AnyJobKind,
  ctx: {
    id: string;
    payload: unknown;
    attempt: number;
    maxAttempts: number;
    signal: AbortSignal;
    fence?: JobContext<unknown>['fence'];
  },
  deps: unknown,
): Promise<void> {
  const problem = registry.payloadProblem(kind, ctx.payload);
  if (problem !== null) throw invalidPayload(kind.kind, problem);
  await kind.handle({ ...ctx, kind: kind.kind }, deps);
}

/** Runs recurring tasks until the returned function is called (it waits for a running one). */
export function startRecurring<D>(
  tasks: readonly RecurringTask<D>[],
  deps: D,
  log: JobLogger,
): () => Promise<void> {
  const controller = new AbortController();
  const loops = tasks.map(async (task) => {
    // a first run soon after start (spread a little between processes started together)
    await sleep(Math.min(task.everyMs, 200 + Math.random() * 300), controller.signal);
    while (!controller.signal.aborted) {
      try {
        await task.run(deps, controller.signal);
      } catch (err) {
        log.error({ err, task: task.name }, 'recurring task failed');
      }
      await sleep(task.everyMs, controller.signal);
    }
  });
  return async () => {
    controller.abort();
    await Promise.allSettled(loops);
  };
}

interface Active {
  row: JobRow;
  controller: AbortController;
  /** why the signal was aborted by the worker */
  abortedFor: null | 'shutdown' | 'lease';
  settled: boolean;
  promise: Promise<void>;
}

/** Starts the embedded engine's workers for every kind with a slot in this process. */
export function startEmbeddedWorkers<D>(queue: EmbeddedQueue, settings: WorkerSettings<D>): Workers {
  const { db, registry } = queue;
  const log = settings.log ?? silentLog;
  const pollMs = settings.pollMs ?? 1000;
  const shutdownMs = settings.shutdownMs ?? 30_000;
  const abortGraceMs = settings.abortGraceMs ?? 2000;
  const workerId = randomUUID().slice(0, 8);
  let claimCounter = 0;
  let stopping = false;
  let stopped: Promise<void> | null = null;
  let lastPurge = 0;

  // Finished jobs are deleted in batches: while one DELETE is in flight, the jobs finishing
  // meanwhile wait for the next (one commit for many jobs; no added wait when idle).
  let completing: { id: string; lease: string; done: (held: boolean) => void; fail: (e: unknown) => void }[] =
    [];
  let flushing = false;
  async function flushCompletions(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      while (completing.length > 0) {
        const batch = completing;
        completing = [];
        try {
          const deleted = await completeJobs(db, batch);
          for (const c of batch) c.done(deleted.has(c.id));
        } catch (err) {
          for (const c of batch) c.fail(err);
        }
      }
    } finally {
      flushing = false;
    }
  }
  const writing = new Set<Promise<boolean>>();
  function complete(id: string, lease: string): Promise<boolean> {
    const p = new Promise<boolean>((done, fail) => {
      completing.push({ id, lease, done, fail });
      void flushCompletions();
    });
    writing.add(p);
    void p.catch(() => false).finally(() => writing.delete(p));
    return p;
  }

  class KindRunner {
    readonly active = new Map<string, Active>();
    private filling = false;
    private again = false;
    private readonly renewTimer: NodeJS.Timeout;
    private wakeTimer: NodeJS.Timeout | null = null;
    private wakeAt = Infinity;

    constructor(
      readonly kind: AnyJobKind,
      readonly slots: number,
    ) {
      this.renewTimer = setInterval(() => void this.renew(), Math.max(50, Math.floor(kind.leaseMs / 3)));
      this.renewTimer.unref();
    }

    /** Claims jobs while slots are free (one fill at a time; a request during one runs it again). */
    async fill(): Promise<void> {
      if (stopping) return;
      if (this.filling) {
        this.again = true;
        return;
      }
      this.filling = true;
      try {
        do {
          this.again = false;
          while (!stopping) {
            const free = this.slots - this.active.size;
            if (free <= 0) break;
            const rows = await claimJobs(db, {
              kind: this.kind.kind,
              limit: free,
              lease: `${workerId}.${++claimCounter}`,
              now: sharedNow(),
              leaseMs: this.kind.leaseMs,
            });
            for (const row of rows) this.start(row);
            if (rows.length < free) break;
          }
        } while (this.again && !stopping);
      } catch (err) {
        log.error({ err, kind: this.kind.kind }, 'claiming jobs failed; trying again at the next poll');
      } finally {
        this.filling = false;
      }
    }

    /** A wake-up for a job due at `runAt` (now, or within the poll interval). */
    wake(runAt: number): void {
      const wait = runAt - sharedNow();
      if (wait <= 0) return void this.fill();
      if (wait >= pollMs || runAt >= this.wakeAt) return;
      if (this.wakeTimer) clearTimeout(this.wakeTimer);
      this.wakeAt = runAt;
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = null;
        this.wakeAt = Infinity;
        void this.fill();
      }, wait);
      this.wakeTimer.unref();
    }

    private start(row: JobRow): void {
      const controller = new AbortController();
      const a = { row, controller, abortedFor: null, settled: false } as Omit<Active, 'promise'> as Active;
      this.active.set(row.id, a);
      a.promise = (async () => {
        let error: unknown = null;
        try {
          let payload: unknown;
          try {
            payload = JSON.parse(row.payload);
          } catch {
            throw invalidPayload(row.kind, 'not JSON');
          }
          await runHandler(
            registry,
            this.kind,
            {
              id: row.id,
              payload,
              attempt: row.attempts,
              maxAttempts: row.maxAttempts,
              signal: controller.signal,
              fence: (trx) => this.fence(a, trx),
            },
            settings.deps,
          );
        } catch (err) {
          error = err ?? new Error('the handler threw a nullish value');
        }
        a.settled = true;
        await this.finish(a, error);
      })()
        .catch((err: unknown) => {
          // the outcome could not be written (database down): the lease expires and the job runs again
          log.error({ err, kind: row.kind, jobId: row.id }, 'recording a job outcome failed');
        })
        .finally(() => {
          this.active.delete(row.id);
          if (!stopping) void this.fill();
        });
    }

    private async finish(a: Active, error: unknown): Promise<void> {
      const { row } = a;
      const fields = { kind: row.kind, jobId: row.id, attempt: row.attempts };
      if (a.abortedFor === 'lease') {
        log.warn(fields, 'job lease lost while it ran (another worker has it now); outcome discarded');
        return;
      }
      let held: boolean;
      if (error === null) {
        // the slot is free once the handler is done: the next claim need not wait for the
        // delete's commit (if the process dies first, the job runs again: at least once)
        this.active.delete(row.id);
        void this.fill();
        held = await complete(row.id, row.lease!);
        if (held) log.debug(fields, 'job done');
      } else if (a.abortedFor === 'shutdown') {
        held = await releaseJob(db, row.id, row.lease!, sharedNow());
        log.info(fields, 'job aborted by shutdown; given back to the queue');
      } else if (isPermanent(error) || row.attempts >= row.maxAttempts) {
        held = await buryJob(db, row.id, row.lease!, errorText(error), sharedNow());
        log.error(
          { ...fields, err: error },
          isPermanent(error) ? 'job failed permanently: dead' : 'job failed its last attempt: dead',
        );
      } else {
        const delay = backoffDelay(this.kind, row.attempts);
        held = await retryJobLater(db, row.id, row.lease!, sharedNow() + delay, errorText(error));
        log.warn({ ...fields, err: error, retryInMs: delay }, 'job failed; will retry');
      }
      if (!held)
        log.warn(fields, 'job lease lost before its outcome was written (another worker has it now)');
    }

    /** The job's lease renewed in the outcome's own transaction (JobContext.fence). */
    async fence(a: Active, trx: Db): Promise<void> {
      if (a.abortedFor !== 'lease') {
        if (await renewLease(trx, a.row.id, a.row.lease!, sharedNow() + this.kind.leaseMs)) return;
      }
      a.abortedFor = 'lease';
      const lost = new LeaseLostError();
      a.controller.abort(lost);
      throw lost;
    }

    async renew(): Promise<void> {
      const running = [...this.active.values()].filter((a) => !a.settled && a.abortedFor !== 'lease');
      if (running.length === 0) return;
      try {
        const held = await renewLeases(
          db,
          [...new Set(running.map((a) => a.row.lease!))],
          sharedNow() + this.kind.leaseMs,
        );
        for (const a of running) {
          if (a.settled || held.get(a.row.id) === a.row.lease) continue;
          a.abortedFor = 'lease';
          a.controller.abort(new Error('job lease lost'));
        }
      } catch (err) {
        log.error({ err, kind: this.kind.kind }, 'renewing job leases failed');
      }
    }

    close(): void {
      clearInterval(this.renewTimer);
      if (this.wakeTimer) clearTimeout(this.wakeTimer);
    }
  }

  const runners = new Map<string, KindRunner>();
  for (const kind of registry.all) {
    const slots = slotsOf(kind, settings.concurrency);
    if (slots > 0) runners.set(kind.kind, new KindRunner(kind, slots));
  }

  async function poll(): Promise<void> {
    try {
      const now = sharedNow();
      const reaped = await reapExpiredLeases(db, now);
      if (reaped.retried + reaped.buried > 0) log.warn(reaped, 'jobs whose lease expired were taken back');
      if (now - lastPurge > 3600_000) {
        lastPurge = now;
        await purgeDeadJobs(db, now - DEAD_RETENTION_MS);
      }
    } catch (err) {
      log.error({ err }, 'reaping expired job leases failed');
    }
    await Promise.all([...runners.values()].map((r) => r.fill()));
  }

  let pollTimer: NodeJS.Timeout | null = null;
  const schedulePoll = () => {
    pollTimer = setTimeout(() => {
      void poll().finally(() => {
        if (!stopping) schedulePoll();
      });
    }, pollMs);
    pollTimer.unref();
  };
  const unsubscribe = queue.onEnqueue((kind, runAt) => runners.get(kind)?.wake(runAt));
  const stopRecurring = startRecurring(settings.recurring ?? [], settings.deps, log);
  void poll();
  schedulePoll();

  const allActive = () => [...runners.values()].flatMap((r) => [...r.active.values()]);

  return {
    running() {
      const out: Record<string, number> = {};
      for (const [kind, r] of runners) out[kind] = r.active.size;
      return out;
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        if (pollTimer) clearTimeout(pollTimer);
        unsubscribe();
        const recurringStopped = stopRecurring();
        const timers = new AbortController();
        await Promise.race([
          Promise.allSettled(allActive().map((a) => a.promise)),
          sleep(shutdownMs, timers.signal),
        ]);
        const left = allActive();
        if (left.length > 0) {
          log.warn(
            { jobs: left.length, shutdownMs },
            'jobs still running at the shutdown deadline: aborting them',
          );
          for (const a of left) {
            if (a.settled) continue;
            a.abortedFor ??= 'shutdown';
            a.controller.abort(new Error('the worker is stopping'));
          }
          await Promise.race([
            Promise.allSettled(left.map((a) => a.promise)),
            sleep(abortGraceMs, timers.signal),
          ]);
        }
        // the deletes of jobs that finished last
        await Promise.race([Promise.allSettled([...writing]), sleep(abortGraceMs, timers.signal)]);
        timers.abort();
        for (const r of runners.values()) r.close();
        await recurringStopped;
      })();
      return stopped;
    },
  };
}
