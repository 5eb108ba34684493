// /api/v1/reports: list, show, store, update (PUT and PATCH), delete. Handlers are a few lines:
// schema-validated input → service (with the key's user) → presenter.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from '../deps.js';
import type { FastifyReply } from 'fastify';
import { forbidden } from '../../../errors.js';
import { reportsQueryFrom, resolveReportsQuery } from '../../../contract/lists.js';
import { passwordWarnings } from '../../../contract/reports/warnings.js';
import { requireAuth } from '../../plugins/auth.js';
import { etagOf, sendJsonBytes } from '../../plugins/etag.js';
import { paginate, paginateText } from '../../../contract/pagination.js';
import { presentReport, presentReportSummary, reportWriter } from '../../../contract/reports/present.js';
import { privacyOf } from '../../../contract/reports/requests.js';
import { pdfDisposition, prefersCsv, reportPdf, sendReportsCsv } from '../../../web/reports.js';
import { Type } from 'typebox';
import {
  ListReportsApiQuery,
  ReportDeleted,
  ReportEnvelope,
  ReportWriteEnvelope,
  ReportListResponse,
  StoreReportBody,
  UpdateReportBody,
} from '../../../contract/reports/schemas.js';
import { PdfQuery, ReportParams } from '../../../contract/reports/requests.js';
import { errorResponses, withExample } from '../../../contract/common.js';

/** Request body types, form first (SPEC §3). */
const BODY_TYPES = ['application/x-www-form-urlencoded', 'application/json'];

/** An answer already written as JSON text: sent as it is (no serialiser runs; onSend hooks do). */
const sendJsonText = (reply: FastifyReply, json: string) =>
  reply.type('application/json; charset=utf-8').send(json);

const rawQuery = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
};

export const reportRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['reports'];
  const security = [{ bearerAuth: [] }];
  const config404 = { notFoundMessage: 'No such report.' };
  const write = reportWriter(config.publicUrl);

  app.get(
    '/reports',
    {
      schema: {
        operationId: 'listReports',
        summary: 'List reports',
        tags,
        security,
        description:
          'A page of reports as JSON; with `format=csv` (or, without `format`, `Accept: text/csv` preferred to JSON) every matching report as CSV, streamed: the same filters and order, all pages (docs/api.md#csv).',
        querystring: ListReportsApiQuery,
        response: { 200: ReportListResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const { format, ...params } = request.query;
      const query = reportsQueryFrom(params);
      const { page, perPage } = resolveReportsQuery(query);
      const batch = request.query.batch;
      // a batch spans any project: listing by batch needs a key for every project
      if (batch !== undefined && actor.projects !== null)
        throw forbidden(
          `Forbidden: this API key is limited to projects (${actor.projects.join(', ')}); listing a batch's reports needs a key for every project.`,
        );
      void reply.header('vary', 'Accept');
      if (format === 'csv' || (format === undefined && prefersCsv(request.headers.accept))) {
        if (batch !== undefined) await services.batches.get(actor.orgId, batch); // 404: not the user's
        // a stream is sent as it is (the schema's text/csv), never serialised
        return sendReportsCsv(
          reply,
          services.reports.walk(actor, query, batch !== undefined ? { batch } : {}),
          query.project,
        );
      }
      const pages = {
        page,
        perPage,
        path: `${config.publicUrl}/api/v1/reports`,
        rawQuery: rawQuery(request.url),
      };
      if (batch !== undefined) {
        const result = await services.batches.reports(actor.orgId, batch, { page, perPage });
        return paginate({
          ...pages,
          items: result.items.map((r) => presentReportSummary(r, config.publicUrl)),
          total: result.total,
        });
      }
      // the rows' categories spliced in as stored (src/contract/reports/present.ts); the
      // answer's bytes and ETag kept while the reports' version is current (docs/api.md, "Kept
      // answers"), sent as they are
      const kept = await services.reports.listAnswer(actor, query, {
        key: `api ${pages.rawQuery}`,
        render: (result) => {
          const body = Buffer.from(
            paginateText({
              ...pages,
              items: result.items.map(write.summary),
              total: result.total,
              totalIsEstimate: result.totalIsEstimate,
            }),
          );
          return { body, etag: etagOf(body), bytes: body.byteLength };
        },
      });
      return sendJsonBytes(reply, kept.body, kept.etag);
    },
  );

  app.get(
    '/reports/:id',
    {
      schema: {
        operationId: 'showReport',
        summary: 'Show a report',
        tags,
        security,
        params: ReportParams,
        response: { 200: ReportEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: config404,
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const report = await services.reports.getOwnedText(actor, request.params.id);
      return sendJsonText(reply, `{"data":${write.report(report)}}`);
    },
  );

  app.get(
    '/reports/:id/pdf',
    {
      schema: {
        operationId: 'downloadReportPdf',
        summary: "Download a report's branded PDF",
        description:
          "The report printed by Chromium with your account's branding (GET/PUT /account/branding): a cover with the score and result, the category summaries, the failed checks by priority with how to fix them, the history chart when the report has several runs, every check, page numbers and a footer. Without Chromium on the server: 422 under `errors.render` saying why (the report page's print stylesheet stays the fallback). 503 when the browser failed; try again.",
        tags,
        security,
        params: ReportParams,
        querystring: PdfQuery,
        response: {
          200: {
            description:
              'The PDF: `Content-Disposition: inline; filename="pagegrade-<host>-<date>.pdf"`, or `attachment` with `download=1`. Its cover prints the online report\'s address (`PAGEGRADE_PUBLIC_URL/reports/{id}`) as a clickable link.',
            content: {
              'application/pdf': {
                schema: Type.String({ format: 'binary' }),
                example: '%PDF-1.4 …',
              },
            },
          },
          ...errorResponses(401, 404, 422, 429, 503),
          422: withExample(errorResponses(422)[422]!, {
            message:
              'PDF reports need Chromium, which was not found at /usr/bin/chromium. Install Chromium (Debian/Ubuntu: apt-get install -y chromium) or set PAGEGRADE_CHROMIUM_PATH to its executable.',
            errors: {
              render: [
                'PDF reports need Chromium, which was not found at /usr/bin/chromium. Install Chromium (Debian/Ubuntu: apt-get install -y chromium) or set PAGEGRADE_CHROMIUM_PATH to its executable.',
              ],
            },
          }),
          503: withExample(errorResponses(503)[503]!, {
            message: 'The PDF could not be printed (the PDF was not printed within 15000 ms). Try again.',
          }),
        },
      },
      config: config404,
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const report = await services.reports.getOwned(actor, request.params.id);
      const pdf = await reportPdf(services, report, config.publicUrl);
      return (
        reply
          .code(200)
          .header('content-type', 'application/pdf')
          .header('content-disposition', pdfDisposition(report, request.query.download === '1'))
          // bytes, not the JSON the route's types expect
          .send(pdf as unknown as string)
      );
    },
  );

  app.post(
    '/reports',
    {
      schema: {
        operationId: 'storeReport',
        summary: 'Audit a page and store the report',
        description:
          'Fetches and audits the page before answering. A page that cannot be fetched answers 422 under `errors.url`, and nothing is stored.',
        tags,
        security,
        consumes: BODY_TYPES,
        body: StoreReportBody,
        response: { 201: ReportWriteEnvelope, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const body = request.body;
      const report = await services.reports.create(actor, {
        url: body.url,
        privacy: body.privacy === undefined ? undefined : privacyOf(body.privacy),
        password: body.password ?? null,
        render: body.render === 1,
      });
      const data = presentReport(report, config.publicUrl);
      const warnings = passwordWarnings(body.password, report.privacy);
      return reply
        .code(201)
        .header('Location', data.links.self)
        .send({ data, ...(warnings.length ? { warnings } : {}) });
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/reports/:id',
      config: config404,
      schema: {
        operationId: method === 'PUT' ? 'updateReport' : 'patchReport',
        summary: method === 'PUT' ? 'Update a report' : 'Update a report (same as PUT)',
        description:
          '`privacy`, `password`, and `results=1` to audit the page again (a re-audit that cannot fetch the page answers 422 and leaves the report as it was).',
        tags,
        security,
        params: ReportParams,
        consumes: BODY_TYPES,
        body: UpdateReportBody,
        response: { 200: ReportWriteEnvelope, ...errorResponses(400, 401, 404, 413, 415, 422, 429) },
      },
      handler: async (request) => {
        const actor = requireAuth(request);
        const body = request.body;
        const report = await services.reports.update(actor, request.params.id, {
          ...(body.privacy !== undefined ? { privacy: privacyOf(body.privacy) } : {}),
          ...(body.password !== undefined ? { password: body.password } : {}),
          results: body.results === 1,
          render: body.render === 1,
        });
        const warnings = passwordWarnings(body.password, report.privacy);
        return { data: presentReport(report, config.publicUrl), ...(warnings.length ? { warnings } : {}) };
      },
    });
  }

  app.delete(
    '/reports/:id',
    {
      schema: {
        operationId: 'deleteReport',
        summary: 'Delete a report',
        tags,
        security,
        params: ReportParams,
        response: { 200: ReportDeleted, ...errorResponses(401, 404, 429) },
      },
      config: config404,
    },
    async (request) => {
      const actor = requireAuth(request);
      await services.reports.delete(actor, request.params.id);
      return { id: request.params.id, object: 'report' as const, deleted: true as const };
    },
  );
};
