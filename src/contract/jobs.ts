// The jobs the services enqueue, declared once: each kind's name and payload schema, and the
// queue they are enqueued on. The services enqueue through `enqueueJob` (the payload's type
// comes from the declaration); the handlers in src/jobs/kinds take the same declaration, so a
// name or a payload field cannot differ between the two sides. The engines behind `Queue`
// (src/jobs: embedded, BullMQ) are chosen by the process that composes the services.
import { Type, type Static, type TObject } from 'typebox';
import type { Db } from '../store/database.js';

/** A job kind as the services know it: its name and its payload's schema. */
export interface JobDeclaration<S extends TObject = TObject> {
  /** lower-case words joined by dots, e.g. `webhook.deliver` */
  readonly kind: string;
  readonly payload: S;
}

const declare = <S extends TObject>(kind: string, payload: S): JobDeclaration<S> => ({ kind, payload });
const id = () => Type.Integer({ minimum: 1 });

/** The start of a batch: robots.txt and the site files, the sitemaps, the seeds (docs/sites.md). */
export const BATCH_DISCOVER = declare(
  'batch.discover',
  Type.Object({ batchId: id() }, { additionalProperties: false }),
);
/** One page of a batch: audit, store, follow its links. */
export const BATCH_PAGE = declare(
  'batch.page',
  Type.Object({ batchId: id(), pageId: id() }, { additionalProperties: false }),
);
/**
 * The end of a batch whose pages are all done (docs/sites.md, "The end of a batch"): its
 * findings, summary, issue states and diff, then its event — a job of its own, not the last
 * page's transaction.
 */
export const BATCH_END = declare(
  'batch.end',
  Type.Object({ batchId: id() }, { additionalProperties: false }),
);
/** One slot of one schedule: an ordinary re-audit (docs/schedules.md). */
export const SCHEDULE_RUN = declare(
  'schedule.run',
  Type.Object(
    { scheduleId: id(), slot: Type.String({ minLength: 1, maxLength: 64 }) },
    { additionalProperties: false },
  ),
);
/** One delivery of one event to one webhook (docs/webhooks.md). */
export const WEBHOOK_DELIVER = declare(
  'webhook.deliver',
  Type.Object({ deliveryId: id() }, { additionalProperties: false }),
);

export interface EnqueueOptions {
  /**
   * De-duplication: while a job of the same kind with this key is waiting, delayed or running,
   * enqueue adds nothing and answers that job's id (`added: false`).
   */
  key?: string;
  /** run no earlier than this many milliseconds from now (default 0) */
  delayMs?: number;
  /** attempts before the job is dead (default: its kind's `maxAttempts`) */
  maxAttempts?: number;
  /**
   * Commit the job with the caller's transaction: it exists if and only if that transaction
   * commits (embedded: inserted in it; BullMQ: an outbox row in it, relayed to Redis after).
   */
  trx?: Db;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  dead: number;
}

/** The job queue the services are given (src/jobs: the embedded engine or BullMQ). */
export interface Queue {
  readonly engine: 'embedded' | 'bullmq';
  enqueue(kind: string, payload: unknown, options?: EnqueueOptions): Promise<{ id: string; added: boolean }>;
  /**
   * The transaction that enqueued jobs of `kind` with `trx` has committed: this process's
   * workers look now (without it they look shortly after such an enqueue, and at their poll).
   */
  committed(kind: string): void;
  /** jobs by kind and state (metrics, health details, tests) */
  counts(): Promise<Record<string, QueueCounts>>;
  close(): Promise<void>;
}

/** Enqueues a job of a declared kind; the payload is typed by the declaration's schema. */
export function enqueueJob<S extends TObject>(
  queue: Queue,
  job: JobDeclaration<S>,
  payload: Static<S>,
  options?: EnqueueOptions,
): Promise<{ id: string; added: boolean }> {
  return queue.enqueue(job.kind, payload, options);
}
