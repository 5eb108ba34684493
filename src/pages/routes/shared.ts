// A share link's page, GET /s/:token (docs/teams.md "Share links"): anyone with the link sees the
// shared report's page — a private or password-protected one too: the link is the access — or
// the shared project's latest crawl, read-only and without navigation (no link to the
// dashboard, to other reports or to anything else of the owner's). An unknown, expired or
// revoked link is the same not-found page as any missing page.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { PageContext } from '../context.js';
import { reportView } from '../../views/report.js';
import { sharedProjectView } from '../../views/shared.js';

export function sharedPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;
  const nobody = { name: null, csrf: null };

  app.get<{ Params: { token: string } }>('/s/:token', async (request, reply) => {
    const share = await services.shares.open(request.params.token);
    if (!share) throw notFound('No such page.');
    void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow');
    if (share.reportId !== null) {
      // the organisation's own view of its report (the link is the access), rendered without the owner's bar
      const report = await services.reports.get(share.orgId, share.reportId);
      return ctx.send(reply, 200, report.url, nobody, reportView(report, { owner: false, shared: true }), {
        shared: true,
      });
    }
    const project = await services.projects.get(share.orgId, share.project!);
    return ctx.send(reply, 200, project.project.project, nobody, sharedProjectView(project), {
      shared: true,
    });
  });
}
