// audit_log: one row per change in an organisation (docs/teams.md "Audit log"), written by the
// services in the transaction of the change; listed newest first; pruned past its retention.
import type { Db } from './database.js';
import { toIso, toNumber } from './sql-helpers.js';

export type AuditActorKind = 'member' | 'key' | 'cli' | 'system';

export interface AuditEntryInput {
  orgId: number;
  at: string;
  actor: AuditActorKind;
  actorUserId: number | null;
  actorKeyId: number | null;
  ip: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  /** JSON text */
  changes: string;
}

export interface AuditEntryRow extends Omit<AuditEntryInput, 'changes'> {
  id: number;
  changes: Record<string, unknown>;
}

export interface AuditFilter {
  action?: string | undefined;
  actorUserId?: number | undefined;
  targetType?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

export async function insertAuditEntry(db: Db, e: AuditEntryInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      org_id: e.orgId,
      at: e.at,
      actor: e.actor,
      actor_user_id: e.actorUserId,
      actor_key_id: e.actorKeyId,
      ip: e.ip,
      action: e.action,
      target_type: e.targetType,
      target_id: e.targetId,
      changes: e.changes,
    })
    .execute();
}

function filtered(db: Db, orgId: number, f: AuditFilter) {
  let q = db.selectFrom('audit_log').where('org_id', '=', orgId);
  if (f.action !== undefined) q = q.where('action', '=', f.action);
  if (f.actorUserId !== undefined) q = q.where('actor_user_id', '=', f.actorUserId);
  if (f.targetType !== undefined) q = q.where('target_type', '=', f.targetType);
  if (f.since !== undefined) q = q.where('at', '>=', f.since);
  if (f.until !== undefined) q = q.where('at', '<', f.until);
  return q;
}

/** One page of an organisation's entries, newest first, and how many match. */
export async function listAuditEntries(
  db: Db,
  orgId: number,
  f: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: AuditEntryRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, orgId, f).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    filtered(db, orgId, f)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst(),
  ]);
  return {
    total: toNumber(count?.n),
    rows: rows.map((r) => ({
      id: r.id,
      orgId: r.org_id,
      at: toIso(r.at),
      actor: r.actor,
      actorUserId: r.actor_user_id,
      actorKeyId: r.actor_key_id,
      ip: r.ip,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      changes: JSON.parse(r.changes) as Record<string, unknown>,
    })),
  };
}

/** Deletes every entry older than `before` (ISO); returns how many. */
export async function pruneAuditLog(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
