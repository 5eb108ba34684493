// /api/v1/reports/{id}/schedule (PUT, GET, DELETE) and /api/v1/schedules: scheduled re-audits
// (docs/schedules.md). Handlers are a few lines: schema → service → presenter.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAuth } from '../../plugins/auth.js';
import { paginate } from '../../../contract/pagination.js';
import {
  ListSchedulesQuery,
  presentListedSchedule,
  presentSchedule,
  PutScheduleBody,
  ScheduleDeleted,
  ScheduleEnvelope,
  ScheduleList,
} from '../../../contract/schedules.js';
import { ReportParams } from '../../../contract/reports/requests.js';
import { errorResponses } from '../../../contract/common.js';
import type { RouteDeps } from '../deps.js';

const BODY_TYPES = ['application/x-www-form-urlencoded', 'application/json'];

export const scheduleRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['schedules'];
  const security = [{ bearerAuth: [] }];
  const config404 = { notFoundMessage: 'No such report.' };

  app.put(
    '/reports/:id/schedule',
    {
      schema: {
        operationId: 'putReportSchedule',
        summary: "Set a report's schedule",
        description:
          "Re-audits the report on a schedule: `every` is `hourly` (minute 0), `daily` (00:00), `weekly` (Monday 00:00) or a 5-field cron expression, read in `timezone` (IANA, default UTC). A scheduled run is an ordinary re-audit (a new run in the history; the report webhooks fire). Answers 201 when the schedule is new, 200 when it replaced the report's schedule. The next run is computed from now, plus the schedule's jitter.",
        tags,
        security,
        consumes: BODY_TYPES,
        params: ReportParams,
        body: PutScheduleBody,
        response: {
          200: ScheduleEnvelope,
          201: ScheduleEnvelope,
          ...errorResponses(400, 401, 404, 413, 415, 422, 429),
        },
      },
      config: config404,
    },
    async (request, reply) => {
      const { orgId } = requireAuth(request);
      const { schedule, created } = await services.schedules.put(orgId, request.params.id, {
        every: request.body.every,
        timezone: request.body.timezone,
        render: request.body.render === 1,
      });
      return reply.code(created ? 201 : 200).send({ data: presentSchedule(schedule, config.publicUrl) });
    },
  );

  app.get(
    '/reports/:id/schedule',
    {
      schema: {
        operationId: 'showReportSchedule',
        summary: "Show a report's schedule",
        description:
          'With its next run and how the last scheduled run went. 404 when the report has no schedule.',
        tags,
        security,
        params: ReportParams,
        response: { 200: ScheduleEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      return {
        data: presentSchedule(await services.schedules.get(orgId, request.params.id), config.publicUrl),
      };
    },
  );

  app.delete(
    '/reports/:id/schedule',
    {
      schema: {
        operationId: 'deleteReportSchedule',
        summary: "Delete a report's schedule",
        description: 'The report stays, with its history. 404 when the report has no schedule.',
        tags,
        security,
        params: ReportParams,
        response: { 200: ScheduleDeleted, ...errorResponses(401, 404, 429) },
      },
      config: config404,
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      await services.schedules.delete(orgId, request.params.id);
      return { report_id: request.params.id, object: 'schedule' as const, deleted: true as const };
    },
  );

  app.get(
    '/schedules',
    {
      schema: {
        operationId: 'listSchedules',
        summary: 'List schedules',
        description:
          "The key's user's schedules of both kinds, newest first, each with its next run: a report's re-audits (`kind: \"report\"`, its `report_id` and URL) and a project's crawls (`kind: \"project\"`, its `project` and start URL, `report_id` null; set with the project's `schedule` setting). A project's slot either starts a crawl (`last_status: \"started\"`, `last_batch_id`) or is skipped while a crawl of the project is still queued or running (`skipped`, the reason in `last_error`).",
        tags,
        security,
        querystring: ListSchedulesQuery,
        response: { 200: ScheduleList, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { orgId } = requireAuth(request);
      const page = request.query.page ?? 1;
      const perPage = request.query.per_page ?? 10;
      const result = await services.schedules.list(orgId, { page, perPage });
      const i = request.url.indexOf('?');
      return paginate({
        items: result.items.map((s) => presentListedSchedule(s, config.publicUrl)),
        total: result.total,
        page,
        perPage,
        path: `${config.publicUrl}/api/v1/schedules`,
        rawQuery: i === -1 ? '' : request.url.slice(i + 1),
      });
    },
  );
};
