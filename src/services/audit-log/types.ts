// The audit log feature's types (docs/teams.md "Audit log"): reading an organisation's log, and
// pruning it past its retention. Recording is src/services/shared/audit-log.ts (every feature's).
import type { AuditEntry } from '../../contract/audit-log.js';
import type { Actor } from '../accounts/types.js';
import type { ExpiredCounts } from '../../store/expired.repository.js';
export type { AuditEntry } from '../../contract/audit-log.js';

export interface AuditLogFilter {
  action?: string | undefined;
  actorUserId?: number | undefined;
  targetType?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  page: number;
  perPage: number;
}

export interface AuditLogServices {
  /** the actor's organisation's entries, newest first (who may: the access table's `audit_log.read`) */
  list(actor: Actor, filter: AuditLogFilter): Promise<{ items: AuditEntry[]; total: number }>;
  /** deletes the entries older than the retention (PAGEGRADE_AUDIT_LOG_RETENTION_DAYS); how many */
  prune(): Promise<number>;
  /**
   * deletes what only piles up (src/store/expired.repository.ts): sessions, reset links and SSO
   * sign-ins a day after they ended; invitations and share links after the retention
   */
  pruneExpired(): Promise<ExpiredCounts>;
}
