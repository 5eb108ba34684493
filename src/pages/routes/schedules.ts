// The report page's schedule forms (owner only): POST /reports/:id/schedule sets or replaces the
// schedule (hourly, daily, weekly, or a custom cron expression, in a timezone), POST
// /reports/:id/schedule/delete clears it; both then go back to the report (Post/Redirect/Get).
// A refused value re-renders the report page (422) with the message next to its field, in the
// form's words. The rules are the services' (services.schedules), as for the API; another
// user's report is a 404. CSRF is checked for every page POST (plugins/csrf.ts).
// GET /dashboard/schedules lists the user's schedules of both kinds (docs/sites.md "Scheduled crawls").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { ReportParams } from '../../contract/reports/requests.js';
import { bodyOf, str, withParams, type PageContext } from '../context.js';
import { SCHEDULE_CHOICES, schedulesView, type ScheduleFormState } from '../../views/schedule.js';
import { sendReportPage } from './report.js';

/** The service's field messages (API words) in the form's words, by form field. */
function formErrors(fields: Record<string, string[]>, choice: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const every = fields.every ?? [];
  if (every.length) {
    if (choice === 'custom')
      errors.cron = every.map((m) =>
        m.replace(
          /^The every field must be .*?; /,
          'The cron expression must have 5 fields (minute hour day-of-month month day-of-week), e.g. "30 6 * * 1-5"; ',
        ),
      );
    else errors.choice = every;
  }
  if (fields.timezone?.length) errors.timezone = fields.timezone;
  if (fields.render?.length) errors.render = fields.render;
  for (const [k, v] of Object.entries(fields))
    if (k !== 'every' && k !== 'timezone' && k !== 'render') errors.choice = v;
  return errors;
}

/** Schedules per page of the dashboard's list. */
const SCHEDULES_PER_PAGE = 25;

export function schedulePageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  app.get('/dashboard/schedules', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    // forgiving, as the other lists: a page that is no whole number is the first
    const asked = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? '1');
    const page = Number.isSafeInteger(asked) && asked >= 1 ? asked : 1;
    const list = await services.schedules.list(v.orgId, { page, perPage: SCHEDULES_PER_PAGE });
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(reply, 200, 'Schedules', viewer, schedulesView({ list, page, perPage: SCHEDULES_PER_PAGE }));
  });

  /** The viewer's own report (a 404 page otherwise: missing, another user's, or signed out). */
  const ownReport = async (request: FastifyRequest, reply: FastifyReply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return null;
    if (request.validationError) {
      await ctx.notFoundPage(request, reply);
      return null;
    }
    const found = await services.reports.forViewer((request.params as { id: number }).id, v);
    if (!found || found.access !== 'owner') {
      await ctx.notFoundPage(request, reply);
      return null;
    }
    return { v, found };
  };

  app.post<{ Params: { id: number } }>(
    '/reports/:id/schedule',
    { schema: { params: ReportParams }, attachValidation: true },
    async (request, reply) => {
      const own = await ownReport(request, reply);
      if (!own) return reply;
      const body = bodyOf(request);
      const form: ScheduleFormState = {
        choice: str(body.choice),
        cron: str(body.cron).trim(),
        timezone: str(body.timezone).trim(),
        render: str(body.render) === '1',
        errors: {},
      };
      if (!(SCHEDULE_CHOICES as readonly string[]).includes(form.choice)) {
        form.errors.choice = [`Audit again must be one of: ${SCHEDULE_CHOICES.join(', ')}.`];
      } else if (form.choice === 'custom' && form.cron === '') {
        form.errors.cron = ['Write a cron expression for Custom, e.g. "30 6 * * 1-5" (6:30 on weekdays).'];
      }
      if (Object.keys(form.errors).length) return sendReportPage(ctx, request, reply, own.found, 422, form);
      const every = form.choice === 'custom' ? form.cron : form.choice;
      try {
        await services.schedules.put(own.v.orgId, request.params.id, {
          every,
          timezone: form.timezone === '' ? 'UTC' : form.timezone,
          render: form.render,
        });
      } catch (err) {
        if (err instanceof AppError && err.status === 422 && err.fields) {
          form.errors = formErrors(err.fields, form.choice);
          return sendReportPage(ctx, request, reply, own.found, 422, form);
        }
        throw err;
      }
      return reply.redirect(withParams(`/reports/${request.params.id}#schedule`, { done: 'scheduled' }), 303);
    },
  );

  app.post<{ Params: { id: number } }>(
    '/reports/:id/schedule/delete',
    { schema: { params: ReportParams }, attachValidation: true },
    async (request, reply) => {
      const own = await ownReport(request, reply);
      if (!own) return reply;
      try {
        await services.schedules.delete(own.v.orgId, request.params.id);
      } catch (err) {
        // no schedule: already cleared (a second click) — the same answer
        if (!(err instanceof AppError && err.status === 404)) throw err;
      }
      return reply.redirect(withParams(`/reports/${request.params.id}`, { done: 'unscheduled' }), 303);
    },
  );
}
