// The audit log's contract (docs/teams.md "Audit log"): GET /organization/audit-log, its query
// (paged, filtered), an entry as the API shows it, and its presenter.
import { Type, type Static } from 'typebox';
import { dateTime, enumOf, nullable } from './common.js';
import { pageParam, PER_PAGE } from './lists.js';
import { listExample } from './pagination.js';

export const AUDIT_ACTORS = ['member', 'key', 'cli', 'system'] as const;

/** An entry as the service gives it (the store's row). */
export interface AuditEntry {
  id: number;
  at: string;
  actor: (typeof AUDIT_ACTORS)[number];
  actorUserId: number | null;
  actorKeyId: number | null;
  ip: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  changes: Record<string, unknown>;
}

export const AuditLogQuery = Type.Object({
  action: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z_]+\\.[a-z_]+$',
      description: 'Only entries of this action, e.g. `member.role_changed`.',
    }),
  ),
  actor_user_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Only changes made by this member.' }),
  ),
  target_type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 32,
      pattern: '^[a-z_]+$',
      description: 'Only changes of this kind of target, e.g. `project`, `member`, `key`.',
    }),
  ),
  since: Type.Optional(dateTime('Only entries at or after this time.')),
  until: Type.Optional(dateTime('Only entries before this time.')),
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 10, description: 'Items per page.' })),
  page: Type.Optional(pageParam()),
});
export type AuditLogQuery = Static<typeof AuditLogQuery>;

export const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    at: dateTime('When the change was made.'),
    actor: enumOf('string', AUDIT_ACTORS, {
      description:
        'Who made it: `member` (signed in to the dashboard), `key` (an API key), `cli` (the pagegrade command), `system` (a job).',
    }),
    actor_user_id: nullable(Type.Integer({ minimum: 1, description: 'The member who made it.' })),
    actor_key_id: nullable(Type.Integer({ minimum: 1, description: 'The API key used.' })),
    ip: nullable(Type.String({ description: 'The address the request came from.' })),
    action: Type.String({ description: 'What happened, e.g. `member.role_changed`, `report.deleted`.' }),
    target: Type.Object(
      { type: Type.String(), id: nullable(Type.String()) },
      { additionalProperties: false, description: 'What was changed.' },
    ),
    changes: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What changed (`{field: {from, to}}` and the like); secrets only as `set` or `cleared`.',
    }),
  },
  { additionalProperties: false },
);

export const presentAuditEntry = (e: AuditEntry): Static<typeof AuditEntrySchema> => ({
  id: e.id,
  at: e.at,
  actor: e.actor,
  actor_user_id: e.actorUserId,
  actor_key_id: e.actorKeyId,
  ip: e.ip,
  action: e.action,
  target: { type: e.targetType, id: e.targetId },
  changes: e.changes,
});

export const auditEntryExample = {
  id: 12,
  at: '2026-11-30T10:15:00.000Z',
  actor: 'key',
  actor_user_id: 3,
  actor_key_id: 7,
  ip: '203.0.113.9',
  action: 'member.role_changed',
  target: { type: 'member', id: '4' },
  changes: { name: 'client-anna', role: { from: 'member', to: 'viewer' } },
};

export const auditLogExample = {
  data: [auditEntryExample],
  ...listExample('https://pagegrade.example.com/api/v1/organization/audit-log'),
};
