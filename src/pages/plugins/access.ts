// The access table for the dashboard (src/services/access/table.ts): every page under
// /dashboard, and a report page's schedule forms, name an operation — the route's own
// (`config.access`) or its room's (`/dashboard/batches…` is batches, `/dashboard` and
// `/dashboard/reports…` reports; GET reads, POST writes). The signed-in viewer (their
// member's role, the session key's scopes) is checked before the handler runs: a page they
// may not use is a 403 saying which role it needs. A dashboard page with no operation is
// refused to everyone. Signed-out visitors go on to the handler (which sends them to sign in).
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { denial, isOperation, type Operation } from '../../services/access/table.js';
import { actingAs } from '../../services/shared/audit-log.js';
import type { PageContext, SignedIn } from '../context.js';

/** The operations whose pages show a project-limited viewer only their projects. */
const PROJECT_SCOPED = ['reports', 'projects', 'account', 'security'] as const;

/** The rooms of the dashboard whose pages take their room's operation. */
const ROOMS = ['batches', 'projects', 'schedules', 'branding', 'webhooks', 'reports', 'members'] as const;

/** A page's operation: null for a page the table does not cover (refused), undefined for a public page. */
export function pageOperation(method: string, url: string, named?: string): Operation | null | undefined {
  if (named !== undefined) return isOperation(named) ? named : null;
  const rw = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  // a report page's schedule forms (the report page itself is public: its privacy decides)
  if (/^\/reports\/:id\/schedule(\/|$)/.test(url)) return `schedules.${rw}`;
  if (url !== '/dashboard' && !url.startsWith('/dashboard/')) return undefined;
  const room = url.split('/')[2] ?? '';
  if (url === '/dashboard' || room.startsWith('reports')) return `reports.${rw}`;
  const known = ROOMS.find((r) => r === room);
  return known ? `${known}.${rw}` : null;
}

/** Why the signed-in viewer may not use a page of `op` (its role, its key's scope, its project limit), or null. */
export function pageDenial(
  viewer: Pick<SignedIn, 'role' | 'scopes' | 'projects'>,
  op: Operation | null,
): string | null {
  const refused = denial(viewer, op);
  if (refused !== null) return refused;
  // as the API's: only the reports' and projects' pages show a project-limited viewer their projects
  if (viewer.projects !== null && op !== null && !PROJECT_SCOPED.some((room) => op.startsWith(`${room}.`)))
    return `Forbidden: you are limited to projects (${viewer.projects.join(', ')}); this page needs access to every project.`;
  return null;
}

export function registerPageAccess(
  app: FastifyInstance,
  ctx: PageContext,
  recorded: { method: string; url: string; operation: Operation | null }[] = [],
): void {
  app.addHook('onRoute', (route) => {
    const method = (Array.isArray(route.method) ? route.method[0] : route.method) ?? 'GET';
    const op = pageOperation(method, route.url, route.config?.access);
    if (op === undefined) return;
    route.config = { ...route.config, operation: op };
    recorded.push({ method, url: route.url, operation: op });
  });
  app.addHook('preHandler', async (request) => {
    const op = request.routeOptions.config.operation;
    if (op === undefined) return;
    const viewer = await ctx.viewerOf(request);
    if (!viewer) return;
    const refused = pageDenial(viewer, op);
    if (refused !== null) throw new AppError(403, 'forbidden', refused);
  });
  // the audit log's requester for what a signed-in page changes: the member, the session's key, the address
  app.addHook('preHandler', (request, _reply, done) => {
    ctx
      .viewerOf(request)
      .then(
        (v) =>
          v
            ? actingAs({ actor: 'member', userId: v.memberId, keyId: v.keyId, ip: request.ip }, done)
            : done(),
        done,
      );
  });
}
