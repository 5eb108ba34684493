// The audit log's one recording helper (docs/teams.md "Audit log"). A service that changes
// members, roles, keys, webhooks, branding, project settings or ignore rules, or deletes
// anything, calls `recordChange` with the transaction of the change (so the entry and the
// change commit together) and says what changed — never a secret's value: `secretChange`
// records only that one was set or cleared, and `scrub` replaces anything named like a secret.
//
// Who acts and from which address is the requester: the HTTP layers bind it once per request
// (the API's key: actor `key`; a dashboard session: actor `member`; with the request's ip), the
// CLI binds `cli`; work with no requester (a schedule's run, a job) is `system`. The binding is
// an AsyncLocalStorage scope (`actingAs`), so every service reached by a request sees it
// without each signature carrying it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../store/database.js';
import { insertAuditEntry, type AuditActorKind } from '../../store/audit-log.repository.js';
import { insertInstanceEntry } from '../../store/instance-log.repository.js';

/** Who makes the changes of a request, a command or a job. */
export interface Requester {
  actor: AuditActorKind;
  /** the member (person) acting, when known */
  userId: number | null;
  /** the API key used (a dashboard session's key too), when known */
  keyId: number | null;
  /** the request's address */
  ip: string | null;
}

const SYSTEM: Requester = { actor: 'system', userId: null, keyId: null, ip: null };
const scope = new AsyncLocalStorage<Requester>();

/** Runs `fn` with `who` as the requester of every change it makes. */
export const actingAs = <T>(who: Requester, fn: () => T): T => scope.run(who, fn);

/** The requester bound now (`system` when none). */
export const requester = (): Requester => scope.getStore() ?? SYSTEM;

export interface Change {
  /** `<target type>.<what happened>`, e.g. member.role_changed, report.deleted */
  action: string;
  target: { type: string; id: string | number | null };
  /** what changed (scrubbed of secrets) */
  changes?: Record<string, unknown>;
}

const SECRET_NAME = /(password|secret|token|authorization|_values$|^key$|api_key)/i;

/** `changes` with every value under a secret-like name replaced by "set" or "cleared". */
export function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    out[k] = SECRET_NAME.test(k) ? secretChange(v) : scrub(v);
  return out;
}

/** How a secret's change is recorded: only whether one is set now. */
export const secretChange = (value: unknown): 'set' | 'cleared' | 'unchanged' =>
  value === undefined ? 'unchanged' : value === null || value === '' || value === false ? 'cleared' : 'set';

/**
 * The fields of `after` that differ from `before` ({field: {from, to}}), `omit`ted ones aside;
 * an empty object when nothing changed.
 */
export function diffFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  omit: readonly string[] = [],
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (omit.includes(k)) continue;
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = { from: before[k], to: after[k] };
  }
  return out;
}

/** Records one change of organisation `orgId`, in `trx` (the transaction of the change). */
export async function recordChange(trx: Db, now: Date, orgId: number, change: Change): Promise<void> {
  const who = requester();
  await insertAuditEntry(trx, {
    orgId,
    at: now.toISOString(),
    actor: who.actor,
    actorUserId: who.userId,
    actorKeyId: who.keyId,
    ip: who.ip,
    action: change.action,
    targetType: change.target.type,
    targetId: change.target.id === null ? null : String(change.target.id),
    changes: JSON.stringify(scrub(change.changes ?? {})),
  });
}

/**
 * Records one change of the instance admin's (docs/teams.md "The instance admin"), in `trx`: in
 * the instance log, and in the audit log of each organisation in `orgIds` (those of the person
 * it concerns), so that an agency's owners see what was done to their members.
 */
export async function recordInstanceChange(
  trx: Db,
  now: Date,
  change: Change,
  orgIds: readonly number[] = [],
): Promise<void> {
  const who = requester();
  await insertInstanceEntry(trx, {
    at: now.toISOString(),
    actor: who.actor,
    actorUserId: who.userId,
    actorKeyId: who.keyId,
    ip: who.ip,
    action: change.action,
    targetType: change.target.type,
    targetId: change.target.id === null ? null : String(change.target.id),
    changes: JSON.stringify(scrub(change.changes ?? {})),
  });
  for (const orgId of orgIds) await recordChange(trx, now, orgId, change);
}
