// The application's job kinds: one file each (payload schema + a handler that calls a
// service), one line here. The workers of `npm start` and `pagegrade worker` run these, and
// the recurring tasks below.
import type { Services } from '../../services/types.js';
import type { AnyJobKind } from '../kind-tools.js';
import type { JobDeps } from '../types.js';
import type { RecurringTask } from '../worker.js';
import { scheduleRun, schedulesDue } from './schedule-run.js';
import { webhookDeliver, webhookDeliverFor } from './webhook-deliver.js';
import { batchDiscover } from './batch-discover.js';
import { batchPage, batchPageKind } from './batch-page.js';
import { batchEnd } from './batch-end.js';
import { auditLogPrune } from './audit-log-prune.js';

/** What the application's handlers receive as `deps`. */
export type AppJobDeps = JobDeps<Services>;

export const jobKinds: readonly AnyJobKind[] = [
  webhookDeliver,
  scheduleRun as AnyJobKind,
  batchDiscover,
  batchPage,
  batchEnd,
];

/**
 * The kinds as a process's workers run them: `jobKinds` with the configured timing
 * (PAGEGRADE_WEBHOOK_RETRY_MS, PAGEGRADE_WEBHOOK_LEASE_MS, PAGEGRADE_BATCH_PAGE_LEASE_MS).
 */
export function jobKindsFor(config: {
  webhookRetryMs?: number;
  webhookLeaseMs?: number;
  batchPageLeaseMs?: number;
}): readonly AnyJobKind[] {
  const webhooks = webhookDeliverFor(config);
  const pageLease = config.batchPageLeaseMs ?? batchPage.leaseMs;
  const pages = pageLease === batchPage.leaseMs ? batchPage : batchPageKind({ leaseMs: pageLease });
  if (webhooks === webhookDeliver && pages === batchPage) return jobKinds;
  return jobKinds.map((k) => (k === webhookDeliver ? webhooks : k === batchPage ? (pages as AnyJobKind) : k));
}

/** Run by every worker process (each must be safe when several processes run it at once). */
export function recurringTasksFor(config: {
  schedulerTickMs?: number;
}): readonly RecurringTask<AppJobDeps>[] {
  return [schedulesDue(config.schedulerTickMs), auditLogPrune()];
}
