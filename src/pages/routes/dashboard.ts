// The dashboard: GET /dashboard (the signed-in user's reports: filter, sort, page) and its
// forms — create a report, and re-run, privacy or delete one (Post/Redirect/Get).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { reportsQueryFrom, resolveReportsQuery, type ListReportsParams, type ListReportsQuery } from '../../contract/lists.js';
import { fieldErrors } from '../../web/field-errors.js';
import { canOf } from '../../views/layout.js';
import { sendReportsCsv } from '../../web/reports.js';
import { formErrors, REPORT_FORM, unplacedErrors } from '../form-words.js';
import { readFilters, type FilterLabels } from '../list-filters.js';
import {
  ListReportsQuery as ListReportsSchema,
  ReportParams,
  StoreReportBody,
  UpdateReportBody,
  privacyOf,
} from '../../contract/reports/requests.js';
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
import {
  CREATE_FORM_FIELDS,
  dashboardView,
  type CreateFormState,
  type Flash,
  type RowFormState,
} from '../../views/dashboard.js';

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

/** A privacy as the select's value ('0', '1' or '2'), from a number or a word; '0' otherwise. */
function privacyChoice(value: string): string {
  const i = ['public', 'private', 'password'].indexOf(value.toLowerCase());
  return i >= 0 ? String(i) : /^[012]$/.test(value) ? value : '0';
}

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
    row?: RowFormState,
  ) => {
    const [list, projects] = await Promise.all([
      query ? services.reports.list(v, query) : Promise.resolve(null),
      services.projects.list(v, { sortBy: 'project', sort: 'asc', perPage: 100, page: 1 }),
    ]);
    const ids = list?.items.map((r) => r.id) ?? [];
    const [trends, schedules] = list
      ? await Promise.all([services.reports.trends(v, ids), services.schedules.ofReports(v.orgId, ids)])
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
        can: canOf(viewer),
        flash,
        create,
        raw: rawList,
        back: `/dashboard${Object.keys(rawList).length ? `?${new URLSearchParams(rawList).toString()}` : ''}`,
        query: query && resolveReportsQuery(query),
        list,
        projects: projects.items.map((p) => p.project),
        trends,
        schedules,
        ...(row ? { row } : {}),
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
    return sendReportsCsv(reply, services.reports.walk(v, query), query.project);
  });

  /** The dashboard list a form was sent from (its `back`): filters, sort and page as they were. */
  const listOf = (request: FastifyRequest) => {
    const back = safePath(str(bodyOf(request).back), '/dashboard', '/dashboard');
    const read = readFilters<ListReportsParams>(
      ListReportsSchema,
      new URL(back, 'http://x').searchParams,
      REPORT_LIST_KEYS,
      REPORT_FILTER_LABELS,
    );
    return { raw: read.raw, query: reportsQueryFrom(read.params) };
  };

  /**
   * Re-renders the dashboard with the create form's errors, in the form's words, each next to
   * its field; the alert says only what has no field on the form.
   */
  const createWithErrors = (
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    errors: Record<string, string[]>,
    create: CreateFormState,
  ) => {
    create.errors = formErrors(REPORT_FORM, errors);
    const rest = unplacedErrors(create.errors, CREATE_FORM_FIELDS);
    const { raw, query } = listOf(request);
    return renderDashboard(
      request,
      reply,
      v,
      422,
      raw,
      query,
      rest ? { kind: 'error', text: rest } : null,
      create,
    );
  };

  app.post<{ Body: StoreReportBody }>(
    '/dashboard/reports',
    { schema: { body: StoreReportBody }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      const body = bodyOf(request);
      const form: CreateFormState = {
        url: str(body.url),
        privacy: String(body.privacy ?? '0'),
        render: String(body.render ?? '') === '1',
        errors: {},
      };
      if (request.validationError) {
        return createWithErrors(request, reply, v, fieldErrors(request.validationError.validation), form);
      }
      try {
        // The service (like the API) ignores a password unless privacy is 2; on the dashboard a
        // typed password means Password (the script also selects it as the person types).
        const password = str(body.password);
        // a URL that already has a report: offer to re-run it, or to create another (the API
        // always creates; a person most often meant the report they have)
        // (not with a typed password: the offer's forms would have to carry it)
        if (str(body.another) !== '1' && password === '') {
          const existing = await services.reports.sameUrl(v.orgId, form.url);
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
          render: form.render === true,
        });
        return reply.redirect(`/reports/${report.id}`, 303);
      } catch (err) {
        if (err instanceof AppError && err.status === 422 && err.fields) {
          return createWithErrors(request, reply, v, err.fields, form);
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

  /**
   * A POST acting on one of the viewer's reports, then back to where it was sent from with a
   * notice. When the action is refused (422), the dashboard list it came from is shown again as
   * it was (filters, sort, page: no row moves); with `panel`, the row's panel stays open with the
   * choices made and each error next to its field, else the alert says what went wrong.
   */
  const reportAction = <B>(
    path: string,
    schema: object | null,
    act: (v: SignedIn, id: number, body: Partial<B>) => Promise<keyof typeof NOTICES>,
    panel?: {
      fields: readonly string[];
      state: (body: Record<string, unknown>) => Omit<RowFormState, 'id' | 'errors'>;
    },
  ) =>
    app.post<{ Params: { id: number }; Body: Partial<B> }>(
      path,
      { schema: { params: ReportParams, ...(schema ? { body: schema } : {}) }, attachValidation: true },
      async (request, reply) => {
        const v = await ctx.requireViewer(request, reply);
        if (!v) return reply;
        if (request.validationError && request.validationError.validationContext === 'params')
          return ctx.notFoundPage(request, reply);
        const id = request.params.id;
        const refused = (fields: Record<string, string[]>) => {
          const errors = formErrors(REPORT_FORM, fields);
          const { raw, query } = listOf(request);
          const empty = { url: '', privacy: '0', errors: {} };
          const rest = unplacedErrors(errors, panel?.fields ?? []);
          const flash: Flash | null = rest ? { kind: 'error', text: `Report #${id}: ${rest}` } : null;
          const row = panel ? { id, errors, ...panel.state(bodyOf(request)) } : undefined;
          return renderDashboard(request, reply, v, 422, raw, query, flash, empty, row);
        };
        if (request.validationError) return refused(fieldErrors(request.validationError.validation));
        try {
          const done = await act(v, id, bodyOf(request) as Partial<B>);
          return reply.redirect(withParams(backTo(request, id), { done }), 303);
        } catch (err) {
          if (err instanceof AppError && err.status === 422 && err.fields) return refused(err.fields);
          throw err;
        }
      },
    );

  reportAction('/dashboard/reports/:id/rerun', null, async (v, id) => {
    await services.reports.update(v, id, { results: true, source: 'dashboard' });
    return 'rerun';
  });

  reportAction<UpdateReportBody>(
    '/dashboard/reports/:id/privacy',
    UpdateReportBody,
    async (v, id, body) => {
      const password = str(body.password);
      // as in the create form: a typed password means Password
      const privacy = password !== '' ? 2 : body.privacy === undefined ? undefined : privacyOf(body.privacy);
      await services.reports.update(v, id, {
        ...(privacy !== undefined ? { privacy } : {}),
        ...(password !== '' ? { password } : {}),
      });
      return 'privacy';
    },
    {
      fields: ['privacy', 'password'],
      // the choice as made: a typed password means Password (the password itself is not sent back)
      state: (body) => ({ privacy: str(body.password) !== '' ? '2' : privacyChoice(String(body.privacy ?? '')) }),
    },
  );

  reportAction('/dashboard/reports/:id/delete', null, async (v, id) => {
    await services.reports.delete(v, id);
    return 'deleted';
  });
}
