// The report page, GET /reports/:id, and its password form, POST /reports/:id. Who may see
// what is the services' decision (services.reports.forViewer); this file only renders it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ReportParams } from '../../contract/reports/requests.js';
import type { StoredReport } from '../../services/reports/types.js';
import { html, type SafeHtml } from '../../views/html.js';
import { canOf } from '../../views/layout.js';
import { bodyOf, NOTICES, rawQuery, str, type PageContext } from '../context.js';
import { blockedFor, PASSWORD_RULE } from '../throttle.js';
import { passwordView } from '../../views/forms.js';
import { AppError, notFound } from '../../errors.js';
import { pdfDisposition, reportPdf } from '../../web/reports.js';
import { pdfUnavailableView } from '../../views/pdf.js';
import { historySection, type HistoryView } from '../../views/history.js';
import { formatDate, printStylesheet, reportView } from '../../views/report.js';
import { scheduleFormOf, scheduleSection, type ScheduleFormState } from '../../views/schedule.js';

/**
 * Renders a report the viewer may see (not locked): the page, with the owner's schedule
 * section; `scheduleForm` refills that form with the values sent and their errors.
 */
export async function sendReportPage(
  ctx: PageContext,
  request: FastifyRequest,
  reply: FastifyReply,
  found: { report: StoredReport; access: 'owner' | 'public' | 'unlocked' },
  status: number,
  scheduleForm?: ScheduleFormState,
) {
  const { services } = ctx;
  const { report, access } = found;
  const viewer = await ctx.viewerFor(request, reply);
  const past = await pastRuns(ctx, request, report);
  const history = historySection(await services.reports.pageHistory(report), past.view);
  if (access === 'public') reply.header('cache-control', 'private, no-cache');
  const owner = access === 'owner';
  const done = owner && status === 200 ? rawQuery(request, ['done']).done : undefined;
  const notice =
    done && NOTICES[done]
      ? html`<p class="alert alert--success no-print" role="status">${NOTICES[done]!}</p>`
      : '';
  const can = canOf(viewer);
  let schedule: SafeHtml | '' = '';
  const signedIn = owner ? await ctx.viewerOf(request) : null;
  if (signedIn && viewer.csrf && can('schedules.read')) {
    const current = (await services.schedules.ofReports(signedIn.orgId, [report.id])).get(report.id) ?? null;
    schedule = scheduleSection({
      reportId: report.id,
      csrf: viewer.csrf,
      schedule: current,
      form: scheduleForm ?? scheduleFormOf(current),
      canWrite: can('schedules.write'),
    });
  }
  return ctx.send(
    reply,
    status,
    `Report for ${report.url}`,
    viewer,
    html`${notice}${reportView(past.report, { owner, history, schedule, notice: past.notice, ...(owner && viewer.csrf && can('reports.write') ? { csrf: viewer.csrf } : {}) })}`,
    { loginNext: `/reports/${report.id}`, printCss: `/reports/${report.id}/print.css` },
  );
}

const RUN_NUMBER = /^[1-9][0-9]{0,9}$/;
const runParam = (v: string | undefined) => (v !== undefined && RUN_NUMBER.test(v) ? Number(v) : undefined);

/**
 * An older run shown in place of the current results (`?run=N`), and two runs compared
 * (`?from=A&to=B`): what the API's /runs/{run} and /diff give, on the page, for whoever may see
 * the report (the history is part of it). A run not kept is the not-found page; runs that cannot
 * be compared (failed, not kept) say why above the runs.
 */
async function pastRuns(
  ctx: PageContext,
  request: FastifyRequest,
  report: StoredReport,
): Promise<{ report: StoredReport; view: HistoryView; notice: SafeHtml | '' }> {
  const q = rawQuery(request, ['run', 'from', 'to']);
  const owner = report.userId;
  const view: HistoryView = { reportId: report.id };
  let shown = report;
  let notice: SafeHtml | '' = '';
  const n = runParam(q.run);
  if (q.run !== undefined) {
    if (n === undefined) throw notFound('No such run.');
    const run = await ctx.services.reports.run(owner, report.id, n);
    if (!run.current) {
      view.shown = n;
      if (
        run.status === 'completed' &&
        run.results &&
        run.page &&
        run.score !== null &&
        run.result !== null
      ) {
        shown = {
          ...report,
          results: run.results,
          page: run.page,
          score: run.score,
          result: run.result,
          categories: run.categories ?? report.categories,
          generatedAt: run.generatedAt,
          finalUrl: run.finalUrl ?? report.finalUrl,
          // a run keeps no rendered facts: only the current results have them
          render: null,
        };
        // prettier-ignore
        notice = html`<p class="alert alert--info no-print" role="status">You are looking at run ${n} of this report, audited <time datetime="${run.generatedAt}">${formatDate(run.generatedAt)}</time>. <a href="/reports/${report.id}">See the current results</a>.</p>`;
      } else {
        // prettier-ignore
        notice = html`<p class="alert alert--error no-print" role="status">Run ${n} could not fetch the page: ${run.error ?? 'no reason was recorded.'} The current results are shown.</p>`;
      }
    }
  }
  const [from, to] = [runParam(q.from), runParam(q.to)];
  if ((q.from !== undefined && from === undefined) || (q.to !== undefined && to === undefined)) {
    view.compareError = 'Choose two runs to compare.';
  } else if (from !== undefined || to !== undefined) {
    try {
      view.compared = await ctx.services.reports.diff(owner, report.id, { from, to });
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 422) throw err;
      view.compareError = Object.values(err.fields ?? {}).flat()[0] ?? err.message;
    }
  }
  return { report: shown, view, notice };
}

export function reportPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services, kit } = ctx;

  const showPasswordForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    status: number,
    error: string | null,
  ) => {
    const viewer = await ctx.viewerFor(request, reply);
    const v = await ctx.viewerOf(request);
    const csrf = kit.csrfToken(request, reply, v?.memberId ?? null);
    return ctx.send(reply, status, 'Protected report', viewer, passwordView({ id, csrf, error }), {
      mainClass: 'narrow',
      loginNext: `/reports/${id}`,
    });
  };

  /**
   * What the request's viewer may see of report `:id` (the page's access rules, with the
   * password passes the browser holds). A bad id, a missing report and one the viewer may not
   * see are the same 404: the error plugin's not-found page.
   */
  const viewed = async (request: FastifyRequest<{ Params: { id: number } }>) => {
    if (request.validationError) throw notFound();
    const found = await services.reports.forViewer(
      request.params.id,
      await ctx.viewerOf(request),
      (rid, updatedAt) => kit.hasAccess(request, rid, updatedAt),
    );
    if (!found) throw notFound();
    return found;
  };

  app.get<{ Params: { id: number } }>(
    '/reports/:id',
    { schema: { params: ReportParams }, attachValidation: true },
    async (request, reply) => {
      const found = await viewed(request);
      const id = request.params.id;
      if (found.access === 'locked') return showPasswordForm(request, reply, id, 200, null);
      return sendReportPage(ctx, request, reply, found, 200);
    },
  );

  // The print stylesheet of one report: the running header (its URL and date) and page
  // numbers in @page margin boxes, which need the report's own text; same access as the page.
  app.get<{ Params: { id: number } }>(
    '/reports/:id/print.css',
    { schema: { params: ReportParams }, attachValidation: true },
    async (request, reply) => {
      const found = await viewed(request);
      if (found.access === 'locked') throw notFound();
      return reply
        .code(200)
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'private, no-cache')
        .send(printStylesheet(found.report.url, formatDate(found.report.generatedAt)));
    },
  );

  // The report's branded PDF (docs/rendering.md): the page's access rules — public to anyone,
  // private to the owner (others 404), a password report to the owner or a browser that entered
  // the password (others are sent to the page's password form). Without Chromium: 422 saying
  // why, and the page's print stylesheet stays the way to print it.
  app.get<{ Params: { id: number } }>(
    '/reports/:id.pdf',
    { schema: { params: ReportParams }, attachValidation: true },
    async (request, reply) => {
      const found = await viewed(request);
      const id = request.params.id;
      if (found.access === 'locked') return reply.redirect(`/reports/${id}`, 303);
      let pdf: Buffer;
      try {
        pdf = await reportPdf(services, found.report, ctx.publicUrl);
      } catch (err) {
        if (err instanceof AppError && (err.status === 422 || err.status === 503))
          return ctx.send(
            reply,
            err.status,
            'PDF not available',
            await ctx.viewerFor(request, reply),
            pdfUnavailableView(found.report.id, err.fields?.render?.[0] ?? err.message),
            { mainClass: 'narrow' },
          );
        throw err;
      }
      return (
        reply
          .code(200)
          .header('content-type', 'application/pdf')
          // ?download=1: saved as pagegrade-<host>-<date>.pdf; otherwise shown (same name)
          .header(
            'content-disposition',
            pdfDisposition(found.report, rawQuery(request, ['download']).download === '1'),
          )
          .header('cache-control', 'private, no-cache')
          .send(pdf)
      );
    },
  );

  app.post<{ Params: { id: number } }>(
    '/reports/:id',
    { schema: { params: ReportParams }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return ctx.notFoundPage(request, reply);
      const id = request.params.id;
      // without the browser's passes: a password form is checked even when one is held
      const found = await services.reports.forViewer(id, await ctx.viewerOf(request));
      if (!found) return ctx.notFoundPage(request, reply);
      if (found.access !== 'locked') return reply.redirect(`/reports/${id}`, 303);

      const key = `report-password:${id}:${request.ip}`;
      const wait = await blockedFor(ctx.attempts, key, PASSWORD_RULE);
      if (wait !== null) return ctx.sendError(request, reply, 429, wait);
      const password = str(bodyOf(request).password);
      const ok =
        password.length > 0 &&
        password.length <= 128 &&
        (await services.reports.verifyPassword(id, password));
      if (!ok) {
        await ctx.attempts.hit(key, PASSWORD_RULE.windowMs);
        return showPasswordForm(request, reply, id, 401, 'That password is not right.');
      }
      kit.grantAccess(reply, id, found.report.updatedAt);
      return reply.redirect(`/reports/${id}`, 303);
    },
  );
}
