// A build's page: GET /dashboard/builds/:id (issue 23 §2; docs/ci.md "Builds") — the build and its
// comparison with the base build, as the API's GET /api/v1/builds/{id} answers it. Viewers and
// up (the access table's builds.read, checked before the handler); another organisation's build,
// or one of a project the viewer does not see, is the same 404 as a missing one.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { PageContext } from '../context.js';
import { buildView } from '../../views/builds.js';

export function buildPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  app.get<{ Params: { id: string } }>(
    '/dashboard/builds/:id',
    { config: { access: 'builds.read' } },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      const id = /^[1-9][0-9]{0,9}$/.test(request.params.id) ? Number(request.params.id) : NaN;
      if (!Number.isSafeInteger(id)) throw notFound('No such build.');
      const view = await ctx.services.builds.get(v, id);
      const viewer = await ctx.viewerFor(request, reply);
      return ctx.send(reply, 200, `Build #${view.build.id}`, viewer, buildView(view));
    },
  );
}
