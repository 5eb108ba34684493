// batch.page: one page of a batch (docs/sites.md) — wait for the site's request slot, audit,
// store the report and the page's facts, add the links found, enqueue the next pages. An
// adapter: the rules are in services.batches.processPage, which skips a page that is no longer
// `fetching` (idempotent: after a crash the page is audited once, its report stored once).
//
// Concurrency is per process; a batch never has more than PAGEGRADE_CRAWL_CONCURRENCY pages in
// flight, so several batches share these slots. A rendered batch's page may wait here for the
// render pool (PAGEGRADE_RENDER_CONCURRENCY): the lease is renewed while it waits, and the
// job's signal takes it out of the line (docs/rendering.md).
import { BATCH_PAGE } from '../../contract/jobs.js';
import type { Services } from '../../services/types.js';
import { PermanentJobError, type JobKind } from '../types.js';

export type BatchPageKind = JobKind<typeof BATCH_PAGE.payload, { services: Pick<Services, 'batches'> }>;

export function batchPageKind(
  overrides: Partial<Pick<BatchPageKind, 'concurrency' | 'leaseMs' | 'maxAttempts' | 'backoff'>> = {},
): BatchPageKind {
  return {
    ...BATCH_PAGE,
    concurrency: 8,
    maxAttempts: 5,
    backoff: { baseMs: 2_000, maxMs: 120_000 },
    // renewed every leaseMs/3 while the page runs; after a crash, taken up again within 15 s
    leaseMs: 15_000,
    ...overrides,
    async handle(job, { services }) {
      try {
        await services.batches.processPage(job.payload.batchId, job.payload.pageId, job.signal, job.fence);
      } catch (err) {
        // the last attempt: the page ends failed (with why), so its batch does not wait for it
        // forever; the job itself still goes dead, for inspection (pagegrade jobs dead)
        if ((job.attempt >= job.maxAttempts || err instanceof PermanentJobError) && !job.signal?.aborted) {
          const reason = err instanceof Error ? err.message : String(err);
          await services.batches.pageGaveUp(job.payload.batchId, job.payload.pageId, reason).catch(() => {});
        }
        throw err;
      }
    },
  };
}

export const batchPage: BatchPageKind = batchPageKind();
