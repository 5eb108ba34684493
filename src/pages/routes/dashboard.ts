// The dashboard: GET /dashboard (the signed-in user's reports: filter, sort, page) and its
// forms — create a report, and re-run, privacy or delete one (Post/Redirect/Get).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import {
  reportsQueryFrom,
  resolveReportsQuery,
  type ListReportsParams,
  type ListReportsQuery,
} from '../../services/list-query.js';
import { fieldErrors } from '../../web/field-errors.js';
import { reportsCsv, reportsCsvFilename } from '../../web/reports-csv.js';
import { readFilters, type FilterLabels } from '../list-filters.js';
import {
  ListReportsQuery as ListReportsSchema,
  ReportParams,
  StoreReportBody,
  UpdateReportBody,
  privacyOf,
} from '../../web/requests.js';
import {
  bodyOf,
  NOTICES,
  rawQuery,
  safePath,
  str,
  withParams,
  type PageContext,
  type SignedIn,
} from '../context.js';
import { dashboardView, type CreateFormState, type Flash } from '../views/dashboard.js';

const REPORT_LIST_KEYS = [
  'search',
  'search_by',
  'project',
  'result',
  'sort_by',
  'sort',
  'per_page',
  'page',
] as const;

/** How the dashboard's filter form names each list parameter (for the fallback notices). */
export const REPORT_FILTER_LABELS: Record<string, FilterLabels> = {
  search_by: { label: 'Search by', choices: { url: 'URL' } },
  project: { label: 'The project', unset: 'every project' },
  result: { label: 'The result', unset: 'any result' },
  sort_by: {
    label: 'Sort by',
    choices: { id: 'Created', generated_at: 'Generated', url: 'URL', result: 'Result', score: 'Score' },
  },
  sort: { label: 'The order', choices: { desc: 'Descending', asc: 'Ascending' } },
  per_page: { label: 'Per page', choices: { '10': '10 per page' } },
  page: { label: 'The page', choices: { '1': 'the first page' } },
  search: { label: 'The search', unset: 'every URL' },
};

export function dashboardRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  const renderDashboard = async (
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    rawList: Record<string, string>,
    query: ListReportsQuery | null,
    flash: Flash | null,
    create: CreateFormState,
  ) => {
    const [list, projects] = await Promise.all([
      query ? services.reports.list(v, query) : Promise.resolve(null),
      services.projects.list(v, { sortBy: 'project', sort: 'asc', perPage: 100, page: 1 }),
    ]);
    const ids = list?.items.map((r) => r.id) ?? [];
    const [trends, schedules] = list
      ? await Promise.all([
          services.reports.trends(v, ids),
          services.schedules.ofReports(v.userId, ids),
        ])
      : [undefined, undefined];
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      status,
      'Dashboard',
      viewer,
      dashboardView({
        userName: v.name,
        csrf: viewer.csrf ?? '',
        flash,
        create,
        raw: rawList,
        back: `/dashboard${Object.keys(rawList).length ? `?${new URLSearchParams(rawList).toString()}` : ''}`,
        query: query && resolveReportsQuery(query),
        list,
        projects: projects.items.map((p) => p.project),
        trends,
        schedules,
      }),
    );
  };

  // No schema on this route: a person's filter form must never produce an error page. The
  // query is read field by field against the API's schema (empty = any, invalid = default with
  // a notice, src/pages/list-filters.ts); the API keeps its strict 422s.
  app.get('/dashboard', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const read = readFilters<ListReportsParams>(
      ListReportsSchema,
      new URL(request.url, 'http://x').searchParams,
      REPORT_LIST_KEYS,
      REPORT_FILTER_LABELS,
    );
    const extra = rawQuery(request, ['done', 'error']);
    const flash: Flash | null = read.notices.length
      ? { kind: 'notice', text: read.notices.join(' ') }
      : extra.done && NOTICES[extra.done]
        ? { kind: 'success', text: NOTICES[extra.done]! }
        : null;
    return renderDashboard(request, reply, v, 200, read.raw, reportsQueryFrom(read.params), flash, {
      url: '',
      privacy: '0',
      errors: {},
    });
  });

  // "Download CSV": every report the dashboard's filters and order match, all pages, as the
  // API's CSV (docs/api.md#csv) — the same service walk, read with the page's forgiving filters.
  app.get('/dashboard/reports.csv', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const read = readFilters<ListReportsParams>(
      ListReportsSchema,
      new URL(request.url, 'http://x').searchParams,
      REPORT_LIST_KEYS,
      REPORT_FILTER_LABELS,
    );
    const query = reportsQueryFrom(read.params);
    const csv = await reportsCsv(services.reports.walk(v, query));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${reportsCsvFilename(query.project, new Date())}"`,
      )
      .header('cache-control', 'private, no-store')
      .send(csv);
  });

  /** Re-renders the dashboard (its first page) with a form's errors. */
  const dashboardWithErrors = (
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    errors: Record<string, string[]>,
    create: CreateFormState,
    prefix = '',
  ) => {
    const text = `${prefix}${Object.values(errors).flat().join(' ')}`;
    return renderDashboard(request, reply, v, 422, {}, {}, { kind: 'error', text }, create);
  };

  app.post<{ Body: StoreReportBody }>(
    '/dashboard/reports',
    { schema: { body: StoreReportBody }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      const body = bodyOf(request);
      const form: CreateFormState = { url: str(body.url), privacy: String(body.privacy ?? '0'), errors: {} };
      if (request.validationError) {
        form.errors = fieldErrors(request.validationError.validation);
        return dashboardWithErrors(request, reply, v, form.errors, form);
      }
      try {
        // The service (like the API) ignores a password unless privacy is 2; on the dashboard a
        // typed password means Password (the script also selects it as the person types).
        const password = str(body.password);
        // a URL that already has a report: offer to re-run it, or to create another (the API
        // always creates; a person most often meant the report they have)
        // (not with a typed password: the offer's forms would have to carry it)
        if (str(body.another) !== '1' && password === '') {
          const existing = await services.reports.sameUrl(v.userId, form.url);
          if (existing.length > 0) {
            form.existing = existing[0]!;
            return renderDashboard(request, reply, v, 200, {}, {}, null, form);
          }
        }
        const report = await services.reports.create(v, {
          url: form.url,
          privacy:
            password !== ''
              ? 2
              : request.body.privacy === undefined
                ? undefined
                : privacyOf(request.body.privacy),
          password: password || null,
        });
        return reply.redirect(`/reports/${report.id}`, 303);
      } catch (err) {
        if (err instanceof AppError && err.status === 422 && err.fields) {
          form.errors = err.fields;
          return dashboardWithErrors(request, reply, v, err.fields, form);
        }
        throw err;
      }
    },
  );

  /** Where an action returns: a dashboard list, or the report page it was sent from. */
  const backTo = (request: FastifyRequest, id?: number) => {
    const back = str(bodyOf(request).back);
    if (id !== undefined && safePath(back, '', `/reports/${id}`) === `/reports/${id}`) return back;
    return safePath(back, '/dashboard', '/dashboard');
  };

  /** A POST acting on one of the viewer's reports, then back to the dashboard with a notice. */
  const reportAction = <B>(
    path: string,
    schema: object | null,
    act: (v: SignedIn, id: number, body: Partial<B>) => Promise<keyof typeof NOTICES>,
  ) =>
    app.post<{ Params: { id: number }; Body: Partial<B> }>(
      path,
      { schema: { params: ReportParams, ...(schema ? { body: schema } : {}) }, attachValidation: true },
      async (request, reply) => {
        const v = await ctx.requireViewer(request, reply);
        if (!v) return reply;
        const validation = request.validationError?.validation;
        if (request.validationError && request.validationError.validationContext === 'params')
          return ctx.notFoundPage(request, reply);
        const id = request.params.id;
        const empty = { url: '', privacy: '0', errors: {} };
        if (validation)
          return dashboardWithErrors(request, reply, v, fieldErrors(validation), empty, `Report #${id}: `);
        try {
          const done = await act(v, id, bodyOf(request) as Partial<B>);
          return reply.redirect(withParams(backTo(request, id), { done }), 303);
        } catch (err) {
          if (err instanceof AppError && err.status === 404) return ctx.notFoundPage(request, reply);
          if (err instanceof AppError && err.status === 422 && err.fields) {
            return dashboardWithErrors(request, reply, v, err.fields, empty, `Report #${id}: `);
          }
          throw err;
        }
      },
    );

  reportAction('/dashboard/reports/:id/rerun', null, async (v, id) => {
    await services.reports.update(v, id, { results: true, source: 'dashboard' });
    return 'rerun';
  });

  reportAction<UpdateReportBody>('/dashboard/reports/:id/privacy', UpdateReportBody, async (v, id, body) => {
    const password = str(body.password);
    // as in the create form: a typed password means Password
    const privacy = password !== '' ? 2 : body.privacy === undefined ? undefined : privacyOf(body.privacy);
    await services.reports.update(v, id, {
      ...(privacy !== undefined ? { privacy } : {}),
      ...(password !== '' ? { password } : {}),
    });
    return 'privacy';
  });

  reportAction('/dashboard/reports/:id/delete', null, async (v, id) => {
    await services.reports.delete(v, id);
    return 'deleted';
  });
}
