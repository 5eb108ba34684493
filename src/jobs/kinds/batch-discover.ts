// batch.discover: the start of a batch (docs/sites.md) — robots.txt and the site files once,
// the sitemap(s), the seeds, then the first batch.page jobs. An adapter: the rules are in
// services.batches.discover, which does nothing for a batch that is no longer queued
// (idempotent: a second run after a crash finds it running). When its last attempt fails (the
// database, a bug — a site that cannot be reached fails the batch itself), the batch ends
// failed with the reason instead of staying queued; the job still goes dead, for inspection.
import { BATCH_DISCOVER } from '../../contract/jobs.js';
import type { Services } from '../../services/types.js';
import { PermanentJobError, type JobKind } from '../types.js';

export const batchDiscover: JobKind<typeof BATCH_DISCOVER.payload, { services: Pick<Services, 'batches'> }> =
  {
    ...BATCH_DISCOVER,
    concurrency: 2,
    maxAttempts: 5,
    backoff: { baseMs: 5_000, maxMs: 300_000 },
    leaseMs: 30_000,
    async handle(job, { services }) {
      try {
        await services.batches.discover(job.payload.batchId, job.signal);
      } catch (err) {
        if ((job.attempt >= job.maxAttempts || err instanceof PermanentJobError) && !job.signal?.aborted) {
          const reason = err instanceof Error ? err.message : String(err);
          await services.batches.discoverGaveUp(job.payload.batchId, reason).catch(() => {});
        }
        throw err;
      }
    },
  };
