// batch.end: the end of a batch whose pages are all done (docs/sites.md, "The end of a batch")
// — its findings, summary, issue states and diff, then batch.completed (or batch.failed). An
// adapter: the rules are in services.batches.end, which does nothing for a batch no longer
// `running` and writes the end in one transaction (idempotent: a run killed midway is retried,
// a run after the end committed does nothing). When its last attempt fails (the database, a
// bug) the batch ends failed with the reason instead of staying running; the job still goes
// dead, for inspection.
//
// One at a time per process: the end of a 100,000-page batch reads every page's facts.
import { BATCH_END } from '../../contract/jobs.js';
import type { Services } from '../../services/types.js';
import { PermanentJobError, type JobKind } from '../types.js';

export type BatchEndKind = JobKind<typeof BATCH_END.payload, { services: Pick<Services, 'batches'> }>;

export function batchEndKind(
  overrides: Partial<Pick<BatchEndKind, 'concurrency' | 'leaseMs' | 'maxAttempts' | 'backoff'>> = {},
): BatchEndKind {
  return {
    ...BATCH_END,
    concurrency: 1,
    maxAttempts: 5,
    backoff: { baseMs: 5_000, maxMs: 300_000 },
    // renewed every leaseMs/3 while the end runs; after a crash, taken up again within a minute
    leaseMs: 60_000,
    ...overrides,
    async handle(job, { services }) {
      try {
        await services.batches.end(job.payload.batchId, job.signal);
      } catch (err) {
        if ((job.attempt >= job.maxAttempts || err instanceof PermanentJobError) && !job.signal?.aborted) {
          const reason = err instanceof Error ? err.message : String(err);
          await services.batches.endGaveUp(job.payload.batchId, reason).catch(() => {});
        }
        throw err;
      }
    },
  };
}

export const batchEnd: BatchEndKind = batchEndKind();
