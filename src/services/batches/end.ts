// The end of a batch whose pages are all done (job batch.end, enqueued once by the frontier:
// frontier.ts, pump): the URLs its pages link to or load that the crawl did not request checked
// (checks.ts), then its findings and summary computed from its pages, then — in one
// transaction that holds the batch's lock — the project's issue states, the diff with the
// previous crawl, the ended row and its event (batch.completed, batch.regressed, or
// batch.failed when no page was audited). A cancelled batch's end (endCancelled) is written the
// same way after its cancel. docs/sites.md, "The end of a batch".
//
// Idempotent: the batch is ended only while it is still `running`, and everything the end
// writes commits together; a run killed or failed midway leaves the batch `running` and is
// retried (a crash: the job's lease runs out), and a run after a committed end does nothing,
// so a batch sends one batch.completed and stores one diff whatever the retries.
import { updateBatch, findBatch } from '../../store/batches.repository.js';
import { withTransaction } from '../../store/database.js';
import type { BatchRow } from '../../store/batches.repository.js';
import type { BatchDeps } from './deps.js';
import { checkBatch } from './checks.js';
import { endWith } from './frontier.js';
import { analyseBatch, presentBatchRow, webhookBatch } from './results.js';

export async function endBatch(d: BatchDeps, batchId: number, signal?: AbortSignal): Promise<void> {
  const { db } = d.ctx;
  // first the URLs the crawl did not request (checks.ts): each answer stored as it comes, so a
  // retried end asks only those not stored yet; a batch cancelled meanwhile stops it
  await checkBatch(d, batchId, signal);
  const b = await findBatch(db, batchId, null);
  if (b?.endPending) return endCancelled(d, batchId);
  if (!b || b.status !== 'running') return;
  // the largest part — every page read (in chunks) and the findings computed — runs outside any
  // transaction: nothing writes the pages of a batch whose pages are all done, and a cancel
  // meanwhile ends the batch itself (found below)
  const analysed = await analysedForEnd(d, b);
  const cancelled = await withTransaction(db, async (trx) => {
    const current = await findBatch(trx, batchId, null, true);
    if (current?.endPending) return true;
    if (!current || current.status !== 'running') return false;
    await endWith(d, trx, current, analysed, 'done');
    return false;
  });
  // cancelled while its findings were computed: the cancel's end, from the pages as they now are
  if (cancelled) await endCancelled(d, batchId);
}

/**
 * The end of a cancelled batch (its findings and summary, batch.cancelled), written after the
 * cancel's own transaction, which committed the status at once and marked the end pending: the
 * cancelling request runs it, and the batch.end job the cancel enqueued runs it if that request
 * did not get to (its process stopped). Computed outside any transaction as a finished batch's
 * is (pages still in flight when it was cancelled close as skipped meanwhile), then written in
 * one that holds the batch's lock and ends it only while it is still pending: once, whoever runs it.
 */
export async function endCancelled(d: BatchDeps, batchId: number): Promise<void> {
  const { db } = d.ctx;
  const b = await findBatch(db, batchId, null);
  if (!b?.endPending) return;
  const analysed = await analysedForEnd(d, b);
  await withTransaction(db, async (trx) => {
    const current = await findBatch(trx, batchId, null, true);
    if (!current?.endPending) return;
    await endWith(d, trx, current, analysed, 'cancelled');
  });
}

/**
 * The batch's findings and summary, from its pages held compact (src/crawl/compact.ts); the pages
 * themselves are let go before the end's transaction — the issue states and the diff read them
 * again from the database in chunks — and kept only for a batch with no page audited (a few:
 * why it found nothing is read from them).
 */
async function analysedForEnd(d: BatchDeps, b: BatchRow): Promise<Parameters<typeof endWith>[3]> {
  const { pages, findings, summary } = await analyseBatch(d.ctx.db, b, d.ctx.now(), { compact: true });
  return { findings, summary, pages: b.audited === 0 ? pages : null };
}

/**
 * The batch's end failed on its last attempt (the database, a bug): the batch ends `failed`
 * with the reason (batch.failed), without findings, so that it never stays `running`.
 */
export async function endGaveUp(d: BatchDeps, batchId: number, reason: string): Promise<void> {
  await withTransaction(d.ctx.db, async (trx) => {
    const b = await findBatch(trx, batchId, null, true);
    const now = d.iso();
    if (b?.endPending) {
      // cancelled: it stays cancelled, without findings, and says so
      await updateBatch(trx, batchId, { endPending: false }, now);
      const ended = presentBatchRow((await findBatch(trx, batchId, null))!);
      await d.webhooks.emit(ended.userId, 'batch.cancelled', { batch: webhookBatch(ended) }, { trx });
      return;
    }
    if (!b || b.status !== 'running') return;
    await updateBatch(
      trx,
      batchId,
      { status: 'failed', error: `The batch's end could not be computed: ${reason}`, finishedAt: now },
      now,
    );
    const ended = presentBatchRow((await findBatch(trx, batchId, null))!);
    await d.webhooks.emit(
      ended.userId,
      'batch.failed',
      { batch: { ...webhookBatch(ended), error: ended.error ?? 'The batch failed.' } },
      { trx },
    );
  });
}
