// /api/v1/reports/{id}/runs, /runs/{run} and /diff: a report's history (docs/history.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../../errors.js';
import { resolveRunsQuery, runsQueryFrom } from '../../../contract/lists.js';
import { requireAuth } from '../../plugins/auth.js';
import { paginate } from '../../../contract/pagination.js';
import { presentDiff, presentRun, presentRunSummary } from '../../../contract/history/present.js';
import { DiffQuery, ListRunsQuery, RunParams } from '../../../contract/history/requests.js';
import { MAX_ID, errorResponses } from '../../../contract/common.js';
import { ReportDiffEnvelope, RunEnvelope, RunList } from '../../../contract/history/schemas.js';
import { ReportParams } from '../../../contract/reports/requests.js';
import type { RouteDeps } from '../deps.js';

const DIGITS = /^[0-9]+$/;

export const runRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['reports'];
  const security = [{ bearerAuth: [] }];
  const config404 = { notFoundMessage: 'No such report.' };

  app.get(
    '/reports/:id/runs',
    {
      schema: {
        operationId: 'listReportRuns',
        summary: "List a report's runs",
        description:
          'Newest first; the current results are the newest completed run. A re-audit that could not fetch the page is a `failed` run with its `error`.',
        tags,
        security,
        params: ReportParams,
        querystring: ListRunsQuery,
        response: { 200: RunList, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request) => {
      const actor = requireAuth(request);
      const query = runsQueryFrom(request.query);
      const { page, perPage } = resolveRunsQuery(query);
      const result = await services.reports.runs(actor, request.params.id, query);
      const i = request.url.indexOf('?');
      return paginate({
        items: result.items.map((r) => presentRunSummary(r, config.publicUrl)),
        total: result.total,
        page,
        perPage,
        path: `${config.publicUrl}/api/v1/reports/${request.params.id}/runs`,
        rawQuery: i === -1 ? '' : request.url.slice(i + 1),
      });
    },
  );

  app.get(
    '/reports/:id/runs/:run',
    {
      schema: {
        operationId: 'showReportRun',
        summary: 'Show one run of a report',
        description: 'Every check and the page facts of that run (null for a failed run).',
        tags,
        security,
        params: RunParams,
        response: { 200: RunEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: config404,
      // a run number is decimal digits (as a report id is: src/app.ts)
      preValidation: (request, _reply, done) => {
        const run = (request.params as { run?: unknown }).run;
        if (typeof run === 'string' && (!DIGITS.test(run) || Number(run) < 1 || Number(run) > MAX_ID))
          return done(notFound('No such run.'));
        done();
      },
    },
    async (request) => {
      const actor = requireAuth(request);
      const run = await services.reports.run(actor, request.params.id, request.params.run);
      return { data: presentRun(run, config.publicUrl) };
    },
  );

  app.get(
    '/reports/:id/diff',
    {
      schema: {
        operationId: 'diffReport',
        summary: 'Compare two runs of a report',
        description:
          'What changed from run `from` to run `to` (default: from the completed run before `to`, to the current run): score, result band, categories, checks newly failed, passed or inconclusive, check values, page facts. A run that is not kept or failed answers 422 under its parameter.',
        tags,
        security,
        params: ReportParams,
        querystring: DiffQuery,
        response: { 200: ReportDiffEnvelope, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request) => {
      const actor = requireAuth(request);
      const { from, to } = request.query;
      const diff = await services.reports.diff(actor, request.params.id, { from, to });
      return { data: presentDiff(diff, config.publicUrl) };
    },
  );
};
