// /api/v1/batches: whole-site audits (docs/sites.md) — create, list, show, cancel, delete, the
// failures, the exports and a Server-Sent Events stream of progress. Handlers are a few lines:
// schema → service → presenter.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAuth } from '../../plugins/auth.js';
import { paginate } from '../../../contract/pagination.js';
import { presentBatch, presentFailure } from '../../../contract/batches/present.js';
import { batchInputOf, normalizeBatchBody, sendBatchExport, streamProgress } from '../../../web/batches.js';
import { errorResponses } from '../../../contract/common.js';
import { BatchDiffEnvelope, DiffQuery, presentDiff } from '../../../contract/batches/diff.js';
import {
  BatchDeleted,
  BatchEnvelope,
  BatchList,
  BatchParams,
  CreateBatchBody,
  DeleteBatchQuery,
  ExportBatchQuery,
  FailureList,
  ListBatchesQuery,
  BATCH_CSV_EXAMPLE,
  BATCH_EVENTS_EXAMPLE,
  BatchExport,
  batchExportExample,
  BatchPageList,
} from '../../../contract/batches/schemas.js';
import { ListBatchPagesQuery } from '../../../contract/batches/requests.js';
import { presentBatchPage } from '../../../contract/batches/export.js';
import type { RouteDeps } from '../deps.js';
import { batchLinkRoutes } from './links.js';

const BODY_TYPES = ['application/x-www-form-urlencoded', 'application/json'];
const TERMINAL = new Set(['done', 'cancelled', 'failed']);

const rawQuery = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
};

export const batchRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['batches'];
  const security = [{ bearerAuth: [] }];
  const config404 = { notFoundMessage: 'No such batch.' };
  // the link graph: /batches/:id/links (links.ts)
  await app.register(batchLinkRoutes, { services, config });
  const page = (q: { page?: number | undefined; per_page?: 10 | 25 | 50 | 100 | undefined }) => ({
    page: q.page ?? 1,
    perPage: q.per_page ?? 10,
  });

  app.post(
    '/batches',
    {
      schema: {
        operationId: 'createBatch',
        summary: 'Start a batch (a whole-site audit)',
        description:
          'Audits a site as one batch: the pages of its sitemap (`sitemap`), the pages reached by following links from a start page (`crawl`), or a list of URLs (`list`). Answers 202 at once with `Location`; follow the progress with GET (or the events stream). Every page becomes an ordinary report (project = host). With `render=1` every page is a rendered audit (headless Chromium; a crawl follows the links JavaScript made); without Chromium on the server that is a 422 under `errors.render` and nothing is queued.',
        tags,
        security,
        consumes: BODY_TYPES,
        body: CreateBatchBody,
        response: { 202: BatchEnvelope, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
      preValidation: (request, _reply, done) => {
        normalizeBatchBody(request.body);
        done();
      },
    },
    async (request, reply) => {
      const { orgId } = requireAuth(request);
      const b = request.body;
      const batch = await services.batches.create(orgId, batchInputOf(b));
      const data = presentBatch(batch, config.publicUrl);
      return reply.code(202).header('Location', data.links.self).send({ data });
    },
  );

  app.get(
    '/batches',
    {
      schema: {
        operationId: 'listBatches',
        summary: 'List batches',
        description: 'Newest first.',
        tags,
        security,
        querystring: ListBatchesQuery,
        response: { 200: BatchList, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      const p = page(request.query);
      const r = await services.batches.list(orgId, p);
      return paginate({
        items: r.items.map((b) => presentBatch(b, config.publicUrl)),
        total: r.total,
        ...p,
        path: `${config.publicUrl}/api/v1/batches`,
        rawQuery: rawQuery(request.url),
      });
    },
  );

  app.get(
    '/batches/:id',
    {
      schema: {
        operationId: 'showBatch',
        summary: 'Show a batch',
        description: 'Status, progress, times, and the summary once it has finished.',
        tags,
        security,
        params: BatchParams,
        response: { 200: BatchEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      return { data: presentBatch(await services.batches.get(orgId, request.params.id), config.publicUrl) };
    },
  );

  app.post(
    '/batches/:id/cancel',
    {
      schema: {
        operationId: 'cancelBatch',
        summary: 'Cancel a batch',
        description:
          'A queued or running batch stops: queued pages are skipped, pages in flight finish. A finished batch is answered as it is.',
        tags,
        security,
        params: BatchParams,
        response: { 200: BatchEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      return {
        data: presentBatch(await services.batches.cancel(orgId, request.params.id), config.publicUrl),
      };
    },
  );

  app.delete(
    '/batches/:id',
    {
      schema: {
        operationId: 'deleteBatch',
        summary: 'Delete a batch',
        description: 'Cancels and removes the batch. Its reports stay, unless `reports=1`.',
        tags,
        security,
        params: BatchParams,
        querystring: DeleteBatchQuery,
        response: { 200: BatchDeleted, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      const { reportsDeleted } = await services.batches.delete(orgId, request.params.id, {
        reports: request.query.reports === 1,
      });
      return {
        id: request.params.id,
        object: 'batch' as const,
        deleted: true as const,
        reports_deleted: reportsDeleted,
      };
    },
  );

  app.get(
    '/batches/:id/failures',
    {
      schema: {
        operationId: 'listBatchFailures',
        summary: "List a batch's failed and skipped pages",
        description: 'Every page that could not be audited, with its reason (never silently dropped).',
        tags,
        security,
        params: BatchParams,
        querystring: ListBatchesQuery,
        response: { 200: FailureList, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      const p = page(request.query);
      const r = await services.batches.failures(orgId, request.params.id, p);
      return paginate({
        items: r.items.map(presentFailure),
        total: r.total,
        ...p,
        path: `${config.publicUrl}/api/v1/batches/${request.params.id}/failures`,
        rawQuery: rawQuery(request.url),
      });
    },
  );

  app.get(
    '/batches/:id/pages',
    {
      schema: {
        operationId: 'listBatchPages',
        summary: "List a batch's pages",
        description:
          "The batch's pages as its page's table shows them — filtered by `state`, `result` or a URL substring (`search`), sorted, a page at a time — each as the JSON export has it, with its custom extraction values under `extracted` (docs/sites.md, \"Custom extraction\").",
        tags,
        security,
        params: BatchParams,
        querystring: ListBatchPagesQuery,
        response: { 200: BatchPageList, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      const q = request.query;
      const p = { page: q.page ?? 1, perPage: q.per_page ?? 25 };
      const v = await services.batches.view(orgId, request.params.id, {
        ...(q.search !== undefined ? { search: q.search } : {}),
        ...(q.state !== undefined ? { state: q.state } : {}),
        ...(q.result !== undefined ? { result: q.result } : {}),
        ...(q.sort_by !== undefined ? { sortBy: q.sort_by } : {}),
        ...(q.sort !== undefined ? { sort: q.sort } : {}),
        ...p,
      });
      const names = (v.batch.options.extractors ?? []).map((e) => e.name);
      return paginate({
        items: v.table.items.map((page) => presentBatchPage(page, names)),
        total: v.table.total,
        ...p,
        path: `${config.publicUrl}/api/v1/batches/${request.params.id}/pages`,
        rawQuery: rawQuery(request.url),
      });
    },
  );

  app.get(
    '/batches/:id/export',
    {
      schema: {
        operationId: 'exportBatch',
        summary: 'Export a batch',
        description:
          '`format=csv`: one row per page (url, state, result, score, status_code, final_url, high/medium/low issues, failed_checks, report_id, error). `format=json`: the batch, its summary, the site-level findings with the pages concerned, and every page.',
        tags,
        security,
        params: BatchParams,
        querystring: ExportBatchQuery,
        response: {
          200: {
            description: 'The export.',
            content: {
              'text/csv': { schema: Type.String(), example: BATCH_CSV_EXAMPLE },
              'application/json': { schema: BatchExport, example: batchExportExample },
            },
          },
          ...errorResponses(401, 404, 422, 429),
        },
      },
      config: config404,
    },
    async (request, reply) => {
      const { orgId } = requireAuth(request);
      const results = await services.batches.results(orgId, request.params.id);
      return sendBatchExport(reply, request.query.format ?? 'json', results, config.publicUrl);
    },
  );

  app.get(
    '/batches/:id/diff',
    {
      schema: {
        operationId: 'diffBatch',
        summary: 'Compare a crawl with another',
        description:
          'The batch compared with the previous finished (`done`) batch of the same project — as stored when it ended — or, with `from`, with another ended batch of the same project (422 under `errors.from` otherwise): pages added, removed and changed, site-level findings new, persisting and fixed with their pages, failed checks new and fixed per page, the site score and band before and after, and the regression verdict with its reasons (docs/sites.md, "Comparing crawls"). A batch still running answers 422 under `errors.id`; the project’s first crawl has `from: null` and lists nothing.',
        tags,
        security,
        params: BatchParams,
        querystring: DiffQuery,
        response: { 200: BatchDiffEnvelope, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      return { data: presentDiff(await services.batches.diff(orgId, request.params.id, request.query.from)) };
    },
  );

  app.get(
    '/batches/:id/events',
    {
      schema: {
        operationId: 'streamBatchEvents',
        summary: "Stream a batch's progress (Server-Sent Events)",
        description:
          '`event: progress` with the batch (the shape of GET /batches/{id}) whenever it changes, then `event: end` when it has finished, and the stream closes.',
        tags,
        security,
        params: BatchParams,
        response: {
          200: {
            description: 'text/event-stream',
            content: {
              'text/event-stream': {
                schema: Type.String(),
                example: BATCH_EVENTS_EXAMPLE,
              },
            },
          },
          ...errorResponses(401, 404, 429),
        },
      },
      config: config404,
    },
    async (request, reply) => {
      const { orgId } = requireAuth(request);
      const id = request.params.id;
      return streamProgress(
        request,
        reply,
        async () => {
          const batch = await services.batches.get(orgId, id);
          return {
            data: JSON.stringify(presentBatch(batch, config.publicUrl)),
            done: TERMINAL.has(batch.status),
          };
        },
        (onChange) => services.batches.watch(id, onChange),
      );
    },
  );
};
