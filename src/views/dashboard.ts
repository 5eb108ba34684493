// The signed-in user's dashboard: create a report, filter/sort/page their reports, and act on
// each (open, re-run, privacy and password, delete); and the projects page.
import type { Schedule } from '../services/schedules/types.js';
import type { ListProjectsQuery, ListReportsQuery, Page } from '../contract/lists.js';
import type { ProjectStats, ProjectSummary } from '../services/projects/types.js';
import type { ReportSummary } from '../services/reports/types.js';
import type { ReportTrend } from '../services/history/types.js';
import { html, type SafeHtml } from './html.js';
import type { Can } from './layout.js';
import { trendArrow } from './history.js';
import { formatDate, PRIVACY_LABELS, resultBadge } from './report.js';
import { describeSchedule } from './schedule.js';

export interface Flash {
  kind: 'success' | 'error' | 'notice';
  text: string;
}

export interface CreateFormState {
  url: string;
  privacy: string;
  /** "render with a browser" ticked (render=1) */
  render?: boolean;
  errors: Record<string, string[]>;
  /** the newest report of this URL, when one exists: re-run it, or create another */
  existing?: ReportSummary;
}

/** The create form's fields: their errors are shown next to them (the alert says the rest). */
export const CREATE_FORM_FIELDS = ['url', 'privacy', 'password', 'render'] as const;

/** A row's privacy panel after a refused change: open, with the choice made and the errors. */
export interface RowFormState {
  id: number;
  privacy: string;
  errors: Record<string, string[]>;
}

/** "You already have a report of this URL": re-run it, or create another. */
function existingOffer(csrf: string, state: CreateFormState): SafeHtml | '' {
  const r = state.existing;
  if (!r) return '';
  return html`<div class="alert alert--notice existing-offer" role="status">
  <p>You already have a report of <strong>${r.url}</strong>: <a href="/reports/${r.id}">#${r.id}</a>, ${r.score}/100, ${formatDate(r.generatedAt)}.</p>
  <div class="existing-offer__actions">
    <form method="post" action="/dashboard/reports/${r.id}/rerun" data-busy="Auditing again… this takes a few seconds">
      <input type="hidden" name="_csrf" value="${csrf}">
      <input type="hidden" name="back" value="/reports/${r.id}">
      <button type="submit" class="button button--primary">Re-run the existing report</button>
      <p class="busy" aria-live="polite" hidden></p>
    </form>
    <form method="post" action="/dashboard/reports" data-busy="Auditing… this takes a few seconds">
      <input type="hidden" name="_csrf" value="${csrf}">
      <input type="hidden" name="url" value="${state.url}">
      <input type="hidden" name="privacy" value="${state.privacy}">
      ${state.render ? html`<input type="hidden" name="render" value="1">` : ''}
      <input type="hidden" name="another" value="1">
      <button type="submit" class="button">Create another report</button>
      <p class="busy" aria-live="polite" hidden></p>
    </form>
  </div>
</div>`;
}

function flashView(f: Flash | null | undefined): SafeHtml | '' {
  if (!f) return '';
  return html`<p class="alert alert--${f.kind}" role="${f.kind === 'error' ? 'alert' : 'status'}">${f.text}</p>`;
}

function option(value: string, label: string, current: string | undefined): SafeHtml {
  return html`<option value="${value}"${current === value ? ' selected' : ''}>${label}</option>`;
}

function privacyOptions(current: string): SafeHtml[] {
  return PRIVACY_LABELS.map((label, i) => option(String(i), label, current));
}

function pager(
  path: string,
  raw: Record<string, string>,
  page: number,
  lastPage: number,
  label: string,
): SafeHtml | '' {
  if (lastPage <= 1 && page <= 1) return '';
  const link = (n: number) => {
    const q = new URLSearchParams({ ...raw, page: String(n) });
    return `${path}?${q.toString()}`;
  };
  return html`<nav class="pager" aria-label="${label}">
  ${page > 1 ? html`<a class="button" href="${link(page - 1)}" rel="prev">Previous</a>` : html`<span class="button is-disabled" aria-disabled="true">Previous</span>`}
  <span class="pager__info">Page ${page} of ${Math.max(lastPage, 1)}</span>
  ${page < lastPage ? html`<a class="button" href="${link(page + 1)}" rel="next">Next</a>` : html`<span class="button is-disabled" aria-disabled="true">Next</span>`}
</nav>`;
}

function fieldErrors(errors: Record<string, string[]>, field: string, id: string): SafeHtml | '' {
  const list = errors[field];
  if (!list || list.length === 0) return '';
  return html`<p class="field__error" id="${id}">${list.join(' ')}</p>`;
}

function createForm(csrf: string, state: CreateFormState): SafeHtml {
  const urlErr = state.errors.url?.length ? true : false;
  const pwErr = state.errors.password?.length ? true : false;
  return html`<section class="card" aria-labelledby="create-title">
  <h2 id="create-title">Audit a page</h2>
  ${existingOffer(csrf, state)}
  <form method="post" action="/dashboard/reports" class="create-form" data-busy="Auditing… this takes a few seconds">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div class="field field--grow">
      <label for="create-url">Page URL</label>
      <input id="create-url" name="url" type="text" inputmode="url" autocomplete="url" autocapitalize="none" spellcheck="false" required maxlength="2048" placeholder="https://example.com/" value="${state.url}"${urlErr ? html` aria-invalid="true" aria-describedby="create-url-error"` : ''}>
      ${fieldErrors(state.errors, 'url', 'create-url-error')}
    </div>
    <div class="field">
      <label for="create-privacy">Privacy</label>
      <select id="create-privacy" name="privacy"${state.errors.privacy?.length ? html` aria-invalid="true" aria-describedby="create-privacy-error"` : ''}>${privacyOptions(state.privacy || '0')}</select>
      ${fieldErrors(state.errors, 'privacy', 'create-privacy-error')}
    </div>
    <div class="field">
      <label for="create-password">Password</label>
      <input id="create-password" name="password" type="password" maxlength="128" autocomplete="new-password" placeholder="typing one selects Password"${pwErr ? html` aria-invalid="true" aria-describedby="create-password-error"` : ''}>
      ${fieldErrors(state.errors, 'password', 'create-password-error')}
    </div>
    <div class="field field--check">
      <label class="choice" for="create-render"><input id="create-render" name="render" type="checkbox" value="1"${state.render ? ' checked' : ''}${state.errors.render?.length ? html` aria-invalid="true" aria-describedby="create-render-error"` : ''}> Render with a browser</label>
      <p class="muted field__hint">Runs the page's JavaScript in headless Chromium and judges what visitors see; slower.</p>
      ${fieldErrors(state.errors, 'render', 'create-render-error')}
    </div>
    <div class="field field--submit">
      <button type="submit" class="button button--primary">Audit page</button>
    </div>
    <p class="busy" aria-live="polite" hidden></p>
  </form>
</section>`;
}

function filters(raw: Record<string, string>, projects: string[]): SafeHtml {
  return html`<form method="get" action="/dashboard" class="filters" role="search" aria-label="Filter reports">
  <div class="field field--grow">
    <label for="f-search">Search URLs</label>
    <input id="f-search" name="search" type="search" value="${raw.search ?? ''}">
  </div>
  <div class="field">
    <label for="f-project">Project</label>
    <select id="f-project" name="project">
      ${option('', 'All projects', raw.project ?? '')}
      ${projects.map((p) => option(p, p, raw.project))}
      ${raw.project && !projects.includes(raw.project) ? option(raw.project, raw.project, raw.project) : ''}
    </select>
  </div>
  <div class="field">
    <label for="f-result">Result</label>
    <select id="f-result" name="result">
      ${option('', 'Any result', raw.result ?? '')}${option('good', 'Good', raw.result)}${option('decent', 'Decent', raw.result)}${option('bad', 'Bad', raw.result)}
    </select>
  </div>
  <div class="field">
    <label for="f-sort-by">Sort by</label>
    <select id="f-sort-by" name="sort_by">
      ${option('id', 'Created', raw.sort_by ?? 'id')}${option('generated_at', 'Generated', raw.sort_by)}${option('url', 'URL', raw.sort_by)}${option('result', 'Result', raw.sort_by)}${option('score', 'Score', raw.sort_by)}
    </select>
  </div>
  <div class="field">
    <label for="f-sort">Order</label>
    <select id="f-sort" name="sort">${option('desc', 'Descending', raw.sort ?? 'desc')}${option('asc', 'Ascending', raw.sort)}</select>
  </div>
  <div class="field">
    <label for="f-per-page">Per page</label>
    <select id="f-per-page" name="per_page">${['10', '25', '50', '100'].map((n) => option(n, n, raw.per_page ?? '10'))}</select>
  </div>
  <div class="field field--submit"><button type="submit" class="button">Apply</button></div>
</form>`;
}

/** The row's schedule mark: how often, and the next run (the report page's section sets it). */
function scheduleMark(id: number, s: Schedule | undefined): SafeHtml | '' {
  if (!s) return '';
  return html` · <a class="schedule-mark" href="/reports/${id}#schedule">Scheduled: ${describeSchedule(s)}, next ${formatDate(s.nextRunAt)}</a>`;
}

function reportRow(
  r: ReportSummary,
  can: Can,
  csrf: string,
  back: string,
  trend?: ReportTrend,
  schedule?: Schedule,
  form?: RowFormState,
): SafeHtml {
  return html`<li class="report-row" id="report-${r.id}">
  <div class="report-row__score band-${r.result}"><span class="report-row__n">${r.score}</span>${resultBadge(r.result)}${trendArrow(trend)}</div>
  <div class="report-row__main">
    <a class="report-row__url" href="/reports/${r.id}">${r.url}</a>
    <p class="report-row__meta">#${r.id} · ${r.project} · ${formatDate(r.generatedAt)} · <span class="privacy privacy--${r.privacy}">${PRIVACY_LABELS[r.privacy]}</span>${scheduleMark(r.id, schedule)}</p>
  </div>
  <div class="report-row__actions">
    <a class="button button--small" href="/reports/${r.id}.pdf">PDF<span class="visually-hidden"> of report ${r.id}</span></a>
    ${can('reports.write') ? rowWriteActions(r, csrf, back, form) : ''}
  </div>
</li>`;
}

/** A row's re-run, privacy and delete forms (for those who may write reports). */
function rowWriteActions(r: ReportSummary, csrf: string, back: string, form?: RowFormState): SafeHtml {
  const pwId = `pw-${r.id}`;
  const errors = form?.errors ?? {};
  const invalid = (field: string, id: string) =>
    errors[field]?.length ? html` aria-invalid="true" aria-describedby="${id}" autofocus` : '';
  return html`<form method="post" action="/dashboard/reports/${r.id}/rerun" data-busy="Re-running…">
      <input type="hidden" name="_csrf" value="${csrf}">
      <input type="hidden" name="back" value="${back}">
      <button type="submit" class="button button--small">Re-run<span class="visually-hidden"> report ${r.id}</span></button>
      <p class="busy" aria-live="polite" hidden></p>
    </form>
    <details class="settings"${form ? ' open' : ''}>
      <summary class="button button--small">Privacy<span class="visually-hidden"> of report ${r.id}</span></summary>
      <form method="post" action="/dashboard/reports/${r.id}/privacy" class="settings__form">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="back" value="${back}">
        <div class="field">
          <label for="privacy-${r.id}">Who can see it</label>
          <select id="privacy-${r.id}" name="privacy"${invalid('privacy', `privacy-${r.id}-error`)}>${privacyOptions(form?.privacy ?? String(r.privacy))}</select>
          ${fieldErrors(errors, 'privacy', `privacy-${r.id}-error`)}
        </div>
        <div class="field">
          <label for="${pwId}">${r.hasPassword ? 'New password (leave empty to keep it)' : 'Password (for Password)'}</label>
          <input id="${pwId}" name="password" type="password" maxlength="128" autocomplete="new-password"${invalid('password', `${pwId}-error`)}>
          ${fieldErrors(errors, 'password', `${pwId}-error`)}
        </div>
        <button type="submit" class="button button--small button--primary">Save</button>
      </form>
    </details>
    <form method="post" action="/dashboard/reports/${r.id}/delete" data-confirm="Delete this report? This cannot be undone.">
      <input type="hidden" name="_csrf" value="${csrf}">
      <input type="hidden" name="back" value="${back}">
      <button type="submit" class="button button--small button--danger">Delete<span class="visually-hidden"> report ${r.id}</span></button>
    </form>`;
}

export interface DashboardData {
  userName: string;
  csrf: string;
  /** what the viewer may do (no write forms for a viewer) */
  can: Can;
  flash?: Flash | null;
  create: CreateFormState;
  /** the list parameters as sent (to refill the filters and build page links) */
  raw: Record<string, string>;
  /** the dashboard URL to come back to after an action on a report */
  back: string;
  /** null when the parameters were invalid (the flash says why) */
  query: ListReportsQuery | null;
  list: Page<ReportSummary> | null;
  projects: string[];
  /** each listed report's trend (services.reports.trends) */
  trends?: Map<number, ReportTrend>;
  /** the listed reports' schedules (services.schedules.ofReports), marked on their rows */
  schedules?: Map<number, Schedule>;
  /** a row whose privacy change was refused: its panel stays open with the errors */
  row?: RowFormState;
}

/** A refused privacy change whose row is not on the list shown: its errors go in an alert. */
function rowNotListed(d: DashboardData): SafeHtml | '' {
  const row = d.row;
  if (!row || d.list?.items.some((r) => r.id === row.id)) return '';
  return flashView({ kind: 'error', text: `Report #${row.id}: ${Object.values(row.errors).flat().join(' ')}` });
}

/** The CSV of every report the list's filters and order match (all pages: no page, no per_page). */
function csvHref(raw: Record<string, string>): string {
  const params = Object.entries(raw).filter(([k]) => k !== 'page' && k !== 'per_page');
  return `/dashboard/reports.csv${params.length ? `?${new URLSearchParams(params).toString()}` : ''}`;
}

export function dashboardView(d: DashboardData): SafeHtml {
  const perPage = d.query?.perPage ?? 10;
  const page = d.query?.page ?? 1;
  const lastPage = d.list ? Math.max(1, Math.ceil(d.list.total / perPage)) : 1;
  const filtered = ['search', 'project', 'result'].some((k) => (d.raw[k] ?? '') !== '');
  let listBody: SafeHtml;
  if (!d.list) {
    listBody = html`<p class="empty"><a href="/dashboard">Show all reports</a></p>`;
  } else if (d.list.items.length === 0) {
    listBody = html`<p class="empty">${filtered ? html`No reports match these filters. <a href="/dashboard">Show all reports</a>` : page > 1 ? 'No reports on this page.' : d.can('reports.write') ? 'No reports yet. Audit a page above to create your first report.' : 'No reports yet.'}</p>`;
  } else {
    listBody = html`<ul class="report-list">${d.list.items.map((r) => reportRow(r, d.can, d.csrf, d.back, d.trends?.get(r.id), d.schedules?.get(r.id), d.row?.id === r.id ? d.row : undefined))}</ul>`;
  }
  const from = d.list && d.list.items.length ? (page - 1) * perPage + 1 : 0;
  return html`<div class="page-head">
  <h1>Your reports</h1>
  <p class="muted">Signed in as <strong>${d.userName}</strong></p>
</div>
${flashView(d.flash)}
${rowNotListed(d)}
${d.can('reports.write') ? createForm(d.csrf, d.create) : ''}
<section class="card" aria-labelledby="reports-title">
  <div class="card__head">
    <h2 id="reports-title">Reports</h2>
    ${d.list ? html`<p class="muted">${d.list.total === 0 ? 'None' : html`${from}–${from + d.list.items.length - 1} of ${d.list.totalIsEstimate ? 'about ' : ''}${d.list.total}`}</p>` : ''}
    ${d.list && d.list.total > 0 ? html`<a class="button button--small" href="${csvHref(d.raw)}" download>Download CSV<span class="visually-hidden"> of every report${filtered ? ' matching these filters' : ''}</span></a>` : ''}
  </div>
  ${filters(d.raw, d.projects)}
  ${listBody}
  ${d.list ? pager('/dashboard', d.raw, page, lastPage, 'Report pages') : ''}
</section>`;
}

export interface ProjectsData {
  csrf: string;
  can: Can;
  flash?: Flash | null;
  raw: Record<string, string>;
  query: ListProjectsQuery | null;
  list: Page<ProjectSummary> | null;
  /** each listed project's statistics (services.projects.stats) */
  stats?: Map<string, ProjectStats>;
}

/** A project's statistics: average and worst score, results by band, last audit. */
function projectStatsView(p: ProjectSummary, s: ProjectStats | undefined): SafeHtml {
  if (!s) return html`<p class="report-row__meta">${p.reportsCount} report${p.reportsCount === 1 ? '' : 's'}</p>`;
  const bands = (['good', 'decent', 'bad'] as const).map(
    (b) => html`<li class="band-count">${resultBadge(b)}<span class="band-count__n">${s.bands[b]}</span></li>`,
  );
  return html`<dl class="project-stats">
  <div><dt>Reports</dt><dd>${s.reports}</dd></div>
  <div><dt>Average score</dt><dd>${s.averageScore}</dd></div>
  <div><dt>Worst score</dt><dd>${s.worstScore}</dd></div>
  <div><dt>Last audit</dt><dd><time datetime="${s.lastAuditAt}">${formatDate(s.lastAuditAt)}</time></dd></div>
</dl>
<ul class="band-counts" aria-label="Reports by result">${bands}</ul>`;
}

export function projectsView(d: ProjectsData): SafeHtml {
  const perPage = d.query?.perPage ?? 10;
  const page = d.query?.page ?? 1;
  const lastPage = d.list ? Math.max(1, Math.ceil(d.list.total / perPage)) : 1;
  const rows = d.list?.items ?? [];
  return html`<div class="page-head"><h1>Your projects</h1><p class="muted">A project holds the reports of one site.</p></div>
${flashView(d.flash)}
<section class="card" aria-labelledby="projects-title">
  <h2 id="projects-title" class="visually-hidden">Projects</h2>
  <form method="get" action="/dashboard/projects" class="filters" role="search" aria-label="Filter projects">
    <div class="field field--grow"><label for="p-search">Search projects</label><input id="p-search" name="search" type="search" value="${d.raw.search ?? ''}"></div>
    <div class="field"><label for="p-sort-by">Sort by</label><select id="p-sort-by" name="sort_by">${option('created_at', 'Created', d.raw.sort_by ?? 'created_at')}${option('project', 'Name', d.raw.sort_by)}</select></div>
    <div class="field"><label for="p-sort">Order</label><select id="p-sort" name="sort">${option('desc', 'Descending', d.raw.sort ?? 'desc')}${option('asc', 'Ascending', d.raw.sort)}</select></div>
    <div class="field"><label for="p-per-page">Per page</label><select id="p-per-page" name="per_page">${['10', '25', '50', '100'].map((n) => option(n, n, d.raw.per_page ?? '10'))}</select></div>
    <div class="field field--submit"><button type="submit" class="button">Apply</button></div>
  </form>
  ${
    rows.length === 0
      ? html`<p class="empty">${d.list ? 'No projects.' : ''}</p>`
      : html`<ul class="project-list">${rows.map(
          (p) => html`<li class="project-row">
  <div class="project-row__main">
    <a href="/dashboard/projects/${encodeURIComponent(p.project)}" class="project-row__name">${p.project}</a>
    ${projectStatsView(p, d.stats?.get(p.project))}
    <p class="report-row__meta"><a href="/dashboard?project=${encodeURIComponent(p.project)}">Open its reports</a> · since ${formatDate(p.createdAt)}</p>
  </div>
  ${d.can('projects.write') ? html`<form method="post" action="/dashboard/projects/${encodeURIComponent(p.project)}/delete" data-confirm="Delete the project ${p.project} and all its reports?">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    <button type="submit" class="button button--small button--danger">Delete<span class="visually-hidden"> project ${p.project}</span></button>
  </form>` : ''}
</li>`,
        )}</ul>`
  }
  ${d.list ? pager('/dashboard/projects', d.raw, page, lastPage, 'Project pages') : ''}
</section>`;
}
