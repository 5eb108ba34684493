// /api/v1/batches/{id}/links: a batch's link graph (docs/sites.md "The link graph") — its links
// paged and filtered (or all of them as CSV), and one URL's inlinks, outlinks, depth and top
// anchors. The batches read operation (GET), like the batch itself.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAuth } from '../../plugins/auth.js';
import { paginate } from '../../../contract/pagination.js';
import { errorResponses } from '../../../contract/common.js';
import { BatchParams } from '../../../contract/batches/schemas.js';
import {
  LINKS_CSV_EXAMPLE,
  LINK_LIST_EXAMPLE,
  LinkList,
  ListLinksQuery,
  PageLinksEnvelope,
  PageLinksQuery,
  linksCsv,
  presentLink,
  presentPageLinks,
} from '../../../contract/batches/links.js';
import type { LinksQuery } from '../../../services/batches/types.js';
import { sendCsv } from '../../../web/csv.js';
import type { RouteDeps } from '../deps.js';

const rawQuery = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
};

/** The filters of the query as the service takes them. */
export function linksQueryOf(q: ListLinksQuery): LinksQuery {
  return {
    ...(q.source !== undefined ? { source: q.source } : {}),
    ...(q.target !== undefined ? { target: q.target } : {}),
    ...(q.status !== undefined ? { status: q.status } : {}),
    ...(q.internal !== undefined ? { internal: q.internal === 'true' } : {}),
  };
}

export const batchLinkRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['batches'];
  const security = [{ bearerAuth: [] }];
  const config404 = { notFoundMessage: 'No such batch.' };

  app.get(
    '/batches/:id/links',
    {
      schema: {
        operationId: 'listBatchLinks',
        summary: "List a batch's links (the link graph)",
        description:
          "Every link of the batch's audited pages — on the site or elsewhere — with its source page, target, anchor text, rel, and the target's HTTP status in this batch (`null`: not fetched). In source page order, then page order; filtered by `source`, `target`, `status` (`404`, `4xx`, `none`) and `internal`. `format=csv`: every link that matches, as an attachment (no paging).",
        tags,
        security,
        params: BatchParams,
        querystring: ListLinksQuery,
        response: {
          200: {
            description: 'One page of the links, or the CSV.',
            content: {
              'application/json': { schema: LinkList, example: LINK_LIST_EXAMPLE },
              'text/csv': { schema: Type.String(), example: LINKS_CSV_EXAMPLE },
            },
          },
          ...errorResponses(401, 404, 422, 429),
        },
      },
      config: config404,
    },
    async (request, reply) => {
      const { orgId } = requireAuth(request);
      const id = request.params.id;
      const q = request.query;
      if (q.format === 'csv') {
        const chunks = await services.batches.linkChunks(orgId, id, linksQueryOf(q));
        return sendCsv(reply, `batch-${id}-links.csv`, linksCsv(chunks));
      }
      const p = { page: q.page ?? 1, perPage: q.per_page ?? 25 };
      const r = await services.batches.links(orgId, id, linksQueryOf(q), p);
      return paginate({
        items: r.items.map(presentLink),
        total: r.total,
        ...p,
        path: `${config.publicUrl}/api/v1/batches/${id}/links`,
        rawQuery: rawQuery(request.url),
      });
    },
  );

  app.get(
    '/batches/:id/links/page',
    {
      schema: {
        operationId: 'showBatchPageLinks',
        summary: "One URL's place in a batch's link graph",
        description:
          'For a page of the batch (or a URL its pages link to): its depth, state and status, how many links point to it from other pages (and from how many pages), its own links (on the site, elsewhere), and the anchor texts of its inlinks, most used first. 404 when the batch has neither.',
        tags,
        security,
        params: BatchParams,
        querystring: PageLinksQuery,
        response: { 200: PageLinksEnvelope, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      return {
        data: presentPageLinks(await services.batches.pageLinks(orgId, request.params.id, request.query.url)),
      };
    },
  );
};
