// The audit log page: GET /dashboard/audit-log (docs/teams.md "Audit log"), the organisation's
// changes for its admins and owners (the access table's audit-log.read, checked before the
// handler), filtered by action and target type, paged. A filter that is not one answers 422.
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../errors.js';
import { rawQuery, type PageContext } from '../context.js';
import { auditLogView } from '../../views/audit-log.js';

const PER_PAGE = 25;

export function auditLogPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  app.get('/dashboard/audit-log', { config: { access: 'audit-log.read' } }, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const q = rawQuery(request, ['action', 'target_type', 'page']);
    const action = (q.action ?? '').trim();
    const targetType = (q.target_type ?? '').trim();
    const errors: Record<string, string[]> = {};
    if (action !== '' && !/^[a-z_]{1,32}\.[a-z_]{1,32}$/.test(action))
      errors.action = ['The action must be a name such as member.role_changed.'];
    if (targetType !== '' && !/^[a-z_]{1,32}$/.test(targetType))
      errors.target_type = ['The target_type must be a name such as project, member or key.'];
    const page = q.page === undefined ? 1 : Number(q.page);
    if (!Number.isSafeInteger(page) || page < 1 || page > 1_000_000)
      errors.page = ['The page must be a whole number from 1.'];
    if (Object.keys(errors).length > 0) throw validationError(errors);
    const { items, total } = await ctx.services.auditLog.list(v, {
      action: action || undefined,
      targetType: targetType || undefined,
      page,
      perPage: PER_PAGE,
    });
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      200,
      'Audit log',
      viewer,
      auditLogView({
        entries: items,
        total,
        page,
        perPage: PER_PAGE,
        filters: { action, target_type: targetType },
      }),
    );
  });
}
