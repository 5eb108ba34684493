// The audit log's retention (docs/teams.md "Audit log"): a recurring task of every worker
// process deletes the entries older than PAGEGRADE_AUDIT_LOG_RETENTION_DAYS (default 365). Safe
// when several processes run it at once: a DELETE of old rows, whoever runs it first. The same
// task deletes the expired sessions, reset links, SSO sign-ins, invitations and share links
// (src/store/expired.repository.ts).
import type { Services } from '../../services/types.js';
import type { JobLogger } from '../types.js';
import type { RecurringTask } from '../worker.js';

/** How often the log is pruned: hourly (a day's entries are pruned within the hour they expire). */
const PRUNE_EVERY_MS = 3_600_000;

export function auditLogPrune<D extends { services: Pick<Services, 'auditLog'>; log: JobLogger }>(
  everyMs: number = PRUNE_EVERY_MS,
): RecurringTask<D> {
  return {
    name: 'audit-log.prune',
    everyMs,
    async run({ services, log }) {
      const n = await services.auditLog.prune();
      if (n > 0) log.info({ deleted: n }, 'audit log entries past their retention deleted');
      // sessions, reset links, SSO sign-ins, invitations and share links that only pile up
      const expired = await services.auditLog.pruneExpired();
      if (Object.values(expired).some((c) => c > 0)) log.info({ deleted: expired }, 'expired rows deleted');
    },
  };
}
