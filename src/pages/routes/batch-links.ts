// The dashboard's link graph of a batch (docs/sites.md "The link graph"): GET
// /dashboard/batches/:id/links, filtered as the API's GET /api/v1/batches/{id}/links is, and,
// with a target, that URL's inlinks and top anchors. The service decides (a missing or another
// organisation's batch is the not-found page); a bad filter is said, and the links shown unfiltered.
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { BatchParams } from '../../contract/batches/schemas.js';
import { ListLinksQuery } from '../../contract/batches/links.js';
import type { LinksQuery, PageLinkSummary } from '../../services/batches/types.js';
import { batchLinksView } from '../../views/batch-links.js';
import { AppError } from '../../errors.js';
import { rawQuery, type PageContext } from '../context.js';

const PER_PAGE = 50;

export function batchLinkPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  app.get('/dashboard/batches/:id/links', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const raw = String((request.params as { id?: string }).id);
    const id = Number(raw);
    if (!/^\d+$/.test(raw) || !Value.Check(BatchParams, { id })) return ctx.notFoundPage(request, reply);
    const q = rawQuery(request, ['source', 'target', 'status', 'internal', 'page']);
    const filters = {
      ...(q.source ? { source: q.source } : {}),
      ...(q.target ? { target: q.target } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.internal ? { internal: q.internal } : {}),
    };
    const valid = Value.Check(ListLinksQuery, filters);
    const query: LinksQuery = valid
      ? {
          ...(filters.source ? { source: filters.source } : {}),
          ...(filters.target ? { target: filters.target } : {}),
          ...(filters.status ? { status: filters.status } : {}),
          ...(filters.internal ? { internal: filters.internal === 'true' } : {}),
        }
      : {};
    const page = q.page && /^\d{1,6}$/.test(q.page) && Number(q.page) >= 1 ? Number(q.page) : 1;
    const list = await services.batches.links(v.orgId, id, query, { page, perPage: PER_PAGE });
    let summary: PageLinkSummary | null = null;
    if (valid && filters.target)
      summary = await services.batches.pageLinks(v.orgId, id, filters.target).catch((err: unknown) => {
        if (err instanceof AppError && err.status === 404) return null;
        throw err;
      });
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      valid ? 200 : 422,
      `Links of batch #${id}`,
      viewer,
      batchLinksView({
        batchId: id,
        filters,
        list,
        page,
        perPage: PER_PAGE,
        summary,
        ...(valid
          ? {}
          : {
              error:
                'The filters were not applied: the target status is an HTTP status (404), a class (4xx) or none, and “where” is within the site or elsewhere.',
            }),
      }),
    );
  });
}
