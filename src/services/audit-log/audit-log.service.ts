// The audit log (docs/teams.md "Audit log"): an organisation's entries, newest first, filtered
// and paged; and the pruning of entries past their retention (a recurring task of every worker,
// src/jobs/kinds/audit-log-prune.ts). The entries are written by the services themselves, in
// the transaction of each change (src/services/shared/audit-log.ts recordChange).
import { listAuditEntries, pruneAuditLog } from '../../store/audit-log.repository.js';
import { pruneExpiredRows } from '../../store/expired.repository.js';
import type { ServiceContext } from '../shared/context.js';
import type { AuditLogServices } from './types.js';

/** PAGEGRADE_AUDIT_LOG_RETENTION_DAYS's default: a year. */
const DEFAULT_RETENTION_DAYS = 365;
const DAY_MS = 86_400_000;

export function createAuditLogServices(ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>): AuditLogServices {
  const { db } = ctx;
  return {
    async list(actor, f) {
      const { rows, total } = await listAuditEntries(
        db,
        actor.orgId,
        {
          action: f.action,
          actorUserId: f.actorUserId,
          targetType: f.targetType,
          since: f.since === undefined ? undefined : new Date(f.since).toISOString(),
          until: f.until === undefined ? undefined : new Date(f.until).toISOString(),
        },
        { limit: f.perPage, offset: (f.page - 1) * f.perPage },
      );
      return { items: rows, total };
    },
    prune() {
      const days = ctx.config.auditLogRetentionDays ?? DEFAULT_RETENTION_DAYS;
      return pruneAuditLog(db, new Date(ctx.now().getTime() - days * DAY_MS).toISOString());
    },
    pruneExpired() {
      const days = ctx.config.auditLogRetentionDays ?? DEFAULT_RETENTION_DAYS;
      const now = ctx.now().getTime();
      return pruneExpiredRows(db, {
        endedBefore: new Date(now - DAY_MS).toISOString(),
        listedBefore: new Date(now - days * DAY_MS).toISOString(),
      });
    },
  };
}
