// The embedded engine's queue: jobs are rows of the app's own database (src/store/
// jobs.repository.ts). Enqueueing is one INSERT — in the caller's transaction when `trx` is
// given — and wakes the workers of this process at once; workers of other processes find the
// job at their next poll (PAGEGRADE_JOB_POLL_MS). The worker loop is src/jobs/worker.ts.
import type { Db } from '../store/database.js';
import { countJobs, insertJob, listDeadJobs, reviveDeadJobs } from '../store/jobs.repository.js';
import { type KindRegistry, serialisePayload } from './kind-tools.js';
import type { DeadJob, EnqueueOptions, Queue, QueueAdmin, QueueCounts } from './types.js';
import { sharedNow } from '../timers.js';

type Listener = (kind: string, runAt: number) => void;

/** How long after a `trx` enqueue the workers look (the transaction has likely committed by then). */
const AFTER_COMMIT_MS = [20, 250];

export class EmbeddedQueue implements Queue, QueueAdmin {
  readonly engine = 'embedded' as const;
  private readonly listeners = new Set<Listener>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly db: Db,
    readonly registry: KindRegistry,
  ) {}

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}) {
    if (this.closed) throw new Error('the queue is closed');
    const def = this.registry.get(kind);
    const text = serialisePayload(this.registry, def, payload);
    const now = sharedNow();
    const runAt = now + Math.max(0, Math.round(options.delayMs ?? 0));
    const res = await insertJob(options.trx ?? this.db, {
      kind,
      key: options.key ?? null,
      payload: text,
      maxAttempts: Math.max(1, options.maxAttempts ?? def.maxAttempts),
      runAt,
      now,
    });
    if (res.added) {
      if (options.trx) {
        // not visible before the caller commits: look again shortly (and at the next poll)
        for (const ms of AFTER_COMMIT_MS) {
          const t = setTimeout(() => {
            this.timers.delete(t);
            this.notify(kind, runAt);
          }, ms);
          t.unref();
          this.timers.add(t);
        }
      } else {
        this.notify(kind, runAt);
      }
    }
    return res;
  }

  committed(kind: string): void {
    if (!this.closed) this.notify(kind, sharedNow());
  }

  /** Calls `fn` when a job is added from this process; returns the unsubscribe function. */
  onEnqueue(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(kind: string, runAt: number): void {
    for (const fn of this.listeners) fn(kind, runAt);
  }

  async counts(): Promise<Record<string, QueueCounts>> {
    const out: Record<string, QueueCounts> = {};
    for (const k of this.registry.all) out[k.kind] = { waiting: 0, active: 0, delayed: 0, dead: 0 };
    for (const row of await countJobs(this.db, sharedNow())) {
      const { kind, ...counts } = row;
      out[kind] = counts;
    }
    return out;
  }

  async dead(options: { kind?: string; limit?: number } = {}): Promise<DeadJob[]> {
    const rows = await listDeadJobs(this.db, { kind: options.kind, limit: options.limit ?? 100 });
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      payload: parse(r.payload),
      attempts: r.attempts,
      error: r.lastError,
      failedAt: r.finishedAt === null ? null : new Date(r.finishedAt).toISOString(),
    }));
  }

  async retryDead(ids: readonly string[] | 'all', options: { kind?: string } = {}): Promise<number> {
    const n = await reviveDeadJobs(this.db, { ids, kind: options.kind, now: sharedNow() });
    if (n > 0) for (const k of this.registry.all) this.notify(k.kind, sharedNow());
    return n;
  }

  /** The database belongs to the caller; this only stops the pending wake-ups. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.listeners.clear();
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
