// instance_log: the instance admin's changes (docs/teams.md "The instance admin"), written by the
// admin and sign-in services in the transaction of the change; the admin page lists the newest;
// pruned with the audit log past its retention (src/store/expired.repository.ts).
import type { AuditEntryInput } from './audit-log.repository.js';
import type { Db } from './database.js';
import { toIso } from './sql-helpers.js';

export type InstanceEntryInput = Omit<AuditEntryInput, 'orgId'>;

export interface InstanceEntryRow extends Omit<InstanceEntryInput, 'changes'> {
  id: number;
  /** the acting person's name (null: the CLI, the system, or a person since deleted) */
  actorName: string | null;
  changes: Record<string, unknown>;
}

export async function insertInstanceEntry(db: Db, e: InstanceEntryInput): Promise<void> {
  await db
    .insertInto('instance_log')
    .values({
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

/** The newest `limit` entries, newest first. */
export async function listInstanceEntries(db: Db, limit: number): Promise<InstanceEntryRow[]> {
  const rows = await db
    .selectFrom('instance_log as l')
    .leftJoin('users as u', 'u.id', 'l.actor_user_id')
    .selectAll('l')
    .select('u.name as actor_name')
    .orderBy('l.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    at: toIso(r.at),
    actor: r.actor,
    actorUserId: r.actor_user_id,
    actorKeyId: r.actor_key_id,
    actorName: r.actor_name,
    ip: r.ip,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    changes: JSON.parse(r.changes) as Record<string, unknown>,
  }));
}
