// The compare view of two crawls (docs/sites.md, "Comparing crawls"): a batch with the project's
// previous finished crawl (or `?from=` another ended crawl of the project), and a project's last
// two finished crawls. The diff is the service's (services.batches.diff / latestDiff: owner
// only, a missing or another user's batch is the not-found page), as the API answers it.
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { AppError } from '../../errors.js';
import { BatchParams } from '../../contract/batches/schemas.js';
import type { CrawlDiff } from '../../crawl/diff.js';
import { compareView } from '../../views/compare.js';
import type { PageContext } from '../context.js';
import { projectName } from '../../analyzer/url.js';
import { canOf } from '../../views/layout.js';

/** A 422 of the service: its first message (a `from` that does not compare, a batch still running). */
const why = (err: unknown): string | null =>
  err instanceof AppError && err.status === 422 ? err.message : null;

export function comparePageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  app.get('/dashboard/batches/:id/compare', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const raw = String((request.params as { id?: string }).id);
    const id = Number(raw);
    if (!/^\d+$/.test(raw) || !Value.Check(BatchParams, { id })) return ctx.notFoundPage(request, reply);
    const fromRaw = new URL(request.url, 'http://x').searchParams.get('from');
    const from = fromRaw !== null && /^\d{1,10}$/.test(fromRaw) ? Number(fromRaw) : undefined;
    let diff: CrawlDiff | null = null;
    let error: string | undefined;
    let status = 200;
    try {
      diff = await services.batches.diff(v.orgId, id, from);
    } catch (err) {
      const message = why(err);
      if (message === null) throw err;
      error = message;
      status = 422;
      // a `from` that does not compare: said, and the batch against its previous crawl instead
      if ((err as AppError).fields?.from) diff = await services.batches.diff(v.orgId, id);
    }
    if (fromRaw !== null && from === undefined)
      error = `“${fromRaw}” is no batch number: compared with the previous crawl.`;
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      status,
      `Compare crawls #${id}`,
      viewer,
      compareView({ diff, project: null, ...(error ? { error } : {}) }),
    );
  });

  app.get('/dashboard/projects/:project/compare', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const project = String((request.params as { project?: string }).project ?? '');
    // a viewer limited to projects: another project is the same 404 as a missing one
    if (v.projects !== null && !v.projects.includes(projectName(project)))
      return ctx.notFoundPage(request, reply);
    const diff = await services.batches.latestDiff(v.orgId, project);
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      200,
      `Compare crawls of ${project}`,
      viewer,
      compareView({
        diff,
        project,
        linkBatches: canOf(viewer)('batches.read'),
        ...(diff === null ? { error: `No finished crawl of ${project} yet: start one from Batches.` } : {}),
      }),
    );
  });
}
