// /api/v1/organization/audit-log: the organisation's audit log (docs/teams.md "Audit log"),
// newest first, paged and filtered. Admins and owners (the access table's audit-log.read).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAuth } from '../../plugins/auth.js';
import { paginate, paginated } from '../../../contract/pagination.js';
import { errorResponses, withExample } from '../../../contract/common.js';
import {
  AuditEntrySchema,
  AuditLogQuery,
  auditLogExample,
  presentAuditEntry,
} from '../../../contract/audit-log.js';
import type { RouteDeps } from '../deps.js';

const rawQuery = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
};

export const auditLogRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  app.get(
    '/organization/audit-log',
    {
      config: { access: 'audit-log.read' },
      schema: {
        operationId: 'listAuditLog',
        summary: "List the organization's audit log",
        description:
          'Every change to members, roles, keys, webhooks, branding, project settings and ignore rules, and every deletion, newest first: who (member, key, `cli` or `system`), when, from which address, the action, its target and what changed (never a secret). Filter by `action`, `actor_user_id`, `target_type`, `since` and `until`. Admins and owners; kept for PAGEGRADE_AUDIT_LOG_RETENTION_DAYS (default 365).',
        tags: ['organization'],
        security: [{ bearerAuth: [] }],
        querystring: AuditLogQuery,
        response: {
          200: withExample(paginated(AuditEntrySchema), auditLogExample),
          ...errorResponses(401, 403, 422, 429),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const p = { page: q.page ?? 1, perPage: q.per_page ?? 10 };
      const result = await services.auditLog.list(requireAuth(request), {
        action: q.action,
        actorUserId: q.actor_user_id,
        targetType: q.target_type,
        since: q.since,
        until: q.until,
        ...p,
      });
      return paginate({
        items: result.items.map(presentAuditEntry),
        total: result.total,
        ...p,
        path: `${config.publicUrl}/api/v1/organization/audit-log`,
        rawQuery: rawQuery(request.url),
      });
    },
  );
};
