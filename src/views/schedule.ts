// The report page's schedule section (owner only): when the report is audited again on its own
// (hourly, daily, weekly or a cron expression, in a timezone), the next and last runs, and the
// forms to set or clear it (src/pages/routes/schedules.ts). The rules are the services'.
// And the dashboard's schedules page (GET /dashboard/schedules): every schedule of the user,
// reports' re-audits and projects' crawls (docs/sites.md "Scheduled crawls"), with next runs.
import type { Page } from '../contract/lists.js';
import type { ListedSchedule, Schedule } from '../services/schedules/types.js';
import { html, type SafeHtml } from './html.js';
import { formatDate } from './report.js';

export const SCHEDULE_CHOICES = ['hourly', 'daily', 'weekly', 'custom'] as const;
type ScheduleChoice = (typeof SCHEDULE_CHOICES)[number];

const CHOICE_LABELS: Record<ScheduleChoice, string> = {
  hourly: 'Every hour (minute 0)',
  daily: 'Every day (00:00)',
  weekly: 'Every week (Monday 00:00)',
  custom: 'Custom (cron expression)',
};

/** What the form shows: the values sent (or the schedule's) and the errors by form field. */
export interface ScheduleFormState {
  choice: string;
  cron: string;
  timezone: string;
  /** each run renders the page in Chromium */
  render: boolean;
  /** by form field: `choice`, `cron`, `timezone`, `render` */
  errors: Record<string, string[]>;
}

export function scheduleFormOf(s: Schedule | null): ScheduleFormState {
  if (!s) return { choice: 'daily', cron: '', timezone: 'UTC', render: false, errors: {} };
  const preset = ['hourly', 'daily', 'weekly'].includes(s.every);
  return {
    choice: preset ? s.every : 'custom',
    cron: preset ? '' : s.every,
    timezone: s.timezone,
    render: s.render,
    errors: {},
  };
}

/** A schedule in a few words: "daily (Europe/Paris)", "cron 30 6 * * 1-5 (UTC)". */
export function describeSchedule(s: Pick<Schedule, 'every' | 'timezone'>): string {
  const every = ['hourly', 'daily', 'weekly'].includes(s.every) ? s.every : `cron ${s.every}`;
  return `${every} (${s.timezone})`;
}

function fieldError(errors: Record<string, string[]>, field: string): SafeHtml | '' {
  const list = errors[field];
  return list?.length ? html`<p class="field__error" id="schedule-${field}-error">${list.join(' ')}</p>` : '';
}

function invalid(errors: Record<string, string[]>, field: string): SafeHtml | '' {
  return errors[field]?.length ? html` aria-invalid="true" aria-describedby="schedule-${field}-error"` : '';
}

function status(s: Schedule | null): SafeHtml {
  if (!s) return html`<p class="schedule__status">Not scheduled: this report is audited only when you re-run it.</p>`;
  const last = s.lastRunAt
    ? html`<div><dt>Last run</dt><dd><time datetime="${s.lastRunAt}">${formatDate(s.lastRunAt)}</time> · ${s.lastStatus ?? ''}${s.lastError ? html` · <span class="muted">${s.lastError}</span>` : ''}</dd></div>`
    : '';
  return html`<dl class="facts schedule__status">
    <div><dt>Runs</dt><dd>${describeSchedule(s)}</dd></div>
    <div><dt>Next run</dt><dd><time datetime="${s.nextRunAt}" id="schedule-next-run">${formatDate(s.nextRunAt)}</time>${s.running ? ' · a run is under way' : ''}</dd></div>
    ${last}
  </dl>`;
}

/**
 * The section: shown to the organisation's members only (the caller passes nothing otherwise);
 * its forms only to those who may set schedules (`canWrite`; a viewer sees the status).
 */
export function scheduleSection(d: {
  reportId: number;
  csrf: string;
  schedule: Schedule | null;
  form: ScheduleFormState;
  canWrite: boolean;
}): SafeHtml {
  const f = d.form;
  if (!d.canWrite)
    return html`<section class="panel schedule no-print" id="schedule" aria-labelledby="schedule-title">
  <h2 class="panel__title" id="schedule-title">Schedule</h2>
  ${status(d.schedule)}
</section>`;
  const token = html`<input type="hidden" name="_csrf" value="${d.csrf}">`;
  const options = SCHEDULE_CHOICES.map(
    (c) => html`<option value="${c}"${f.choice === c ? ' selected' : ''}>${CHOICE_LABELS[c]}</option>`,
  );
  const clear = d.schedule
    ? html`<form method="post" action="/reports/${d.reportId}/schedule/delete" data-confirm="Stop the scheduled audits of this report?">
      ${token}
      <button type="submit" class="button button--small button--danger">Clear schedule</button>
    </form>`
    : '';
  return html`<section class="panel schedule no-print" id="schedule" aria-labelledby="schedule-title">
  <h2 class="panel__title" id="schedule-title">Schedule</h2>
  ${status(d.schedule)}
  <form method="post" action="/reports/${d.reportId}/schedule" class="stack">
    ${token}
    <div class="field">
      <label for="schedule-choice">Audit again</label>
      <select id="schedule-choice" name="choice"${invalid(f.errors, 'choice')}>${options}</select>
      ${fieldError(f.errors, 'choice')}
    </div>
    <div class="field">
      <label for="schedule-cron">Cron expression (for Custom)</label>
      <input id="schedule-cron" name="cron" type="text" maxlength="120" spellcheck="false" placeholder="30 6 * * 1-5" value="${f.cron}"${invalid(f.errors, 'cron')}>
      <p class="muted">5 fields: minute hour day-of-month month day-of-week.</p>
      ${fieldError(f.errors, 'cron')}
    </div>
    <div class="field">
      <label for="schedule-timezone">Timezone</label>
      <input id="schedule-timezone" name="timezone" type="text" maxlength="64" spellcheck="false" placeholder="Europe/Paris" value="${f.timezone}"${invalid(f.errors, 'timezone')}>
      ${fieldError(f.errors, 'timezone')}
    </div>
    <div class="field">
      <label class="choice" for="schedule-render"><input id="schedule-render" name="render" type="checkbox" value="1"${f.render ? ' checked' : ''}${invalid(f.errors, 'render')}> Render each run with a browser</label>
      ${fieldError(f.errors, 'render')}
    </div>
    <button type="submit" class="button button--small button--primary">${d.schedule ? 'Save schedule' : 'Set schedule'}</button>
  </form>
  ${clear}
</section>`;
}

const LAST_STATUS: Record<string, string> = {
  completed: 'completed',
  failed: 'failed',
  started: 'crawl started',
  skipped: 'skipped',
};

function listedRow(s: ListedSchedule): SafeHtml {
  const what =
    s.kind === 'project'
      ? html`<span class="badge">Crawl</span> <span class="report-row__url">${s.project ?? ''}</span> <span class="muted">from ${s.url}</span>`
      : html`<span class="badge">Re-audit</span> <a class="report-row__url" href="/reports/${s.reportId ?? 0}#schedule">${s.url}</a>`;
  const batch =
    s.kind === 'project' && s.lastBatchId !== null
      ? html` · <a href="/dashboard/batches/${s.lastBatchId}">batch #${s.lastBatchId}</a>`
      : '';
  const last = s.lastRunAt
    ? html`Last: <time datetime="${s.lastRunAt}">${formatDate(s.lastRunAt)}</time> · <span class="schedule__last-status">${LAST_STATUS[s.lastStatus ?? ''] ?? ''}</span>${batch}${s.lastError ? html` · <span class="muted schedule__reason">${s.lastError}</span>` : ''}`
    : html`Not run yet`;
  return html`<li class="report-row schedule-row" id="schedule-${s.id}" data-kind="${s.kind}">
  <div class="report-row__main">
    <p>${what}</p>
    <p class="report-row__meta">${describeSchedule(s)} · Next: <time datetime="${s.nextRunAt}">${formatDate(s.nextRunAt)}</time>${s.running ? ' · a run is under way' : ''}</p>
    <p class="report-row__meta">${last}</p>
  </div>
</li>`;
}

/** The schedules page: both kinds, newest first, paged. */
export function schedulesView(d: { list: Page<ListedSchedule>; page: number; perPage: number }): SafeHtml {
  const lastPage = Math.max(1, Math.ceil(d.list.total / d.perPage));
  const from = d.list.items.length ? (d.page - 1) * d.perPage + 1 : 0;
  const nav =
    lastPage <= 1 && d.page <= 1
      ? ''
      : html`<nav class="pager" aria-label="Schedule pages">
  ${d.page > 1 ? html`<a class="button" href="/dashboard/schedules?page=${d.page - 1}" rel="prev">Previous</a>` : ''}
  <span class="pager__info">Page ${d.page} of ${lastPage}</span>
  ${d.page < lastPage ? html`<a class="button" href="/dashboard/schedules?page=${d.page + 1}" rel="next">Next</a>` : ''}
</nav>`;
  return html`<div class="page-head">
  <h1>Schedules</h1>
  <p class="muted">Reports audited again and projects crawled on their own. A report's schedule is set on its page; a project's with its settings (<code>schedule</code>).</p>
</div>
<section class="card" aria-labelledby="schedules-title">
  <div class="card__head">
    <h2 id="schedules-title">Your schedules</h2>
    <p class="muted">${d.list.total === 0 ? 'None' : html`${from}–${from + d.list.items.length - 1} of ${d.list.total}`}</p>
  </div>
  ${
    d.list.items.length === 0
      ? html`<p class="empty">${d.page > 1 ? 'No schedules on this page.' : 'No schedules yet.'}</p>`
      : html`<ul class="report-list">${d.list.items.map(listedRow)}</ul>`
  }
  ${nav}
</section>`;
}
