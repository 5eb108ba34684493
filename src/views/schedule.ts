// The report page's schedule section (owner only): when the report is audited again on its own
// (hourly, daily, weekly or a cron expression, in a timezone), the next and last runs, and the
// forms to set or clear it (src/pages/routes/schedules.ts). The rules are the services'.
import type { Schedule } from '../services/schedules/types.js';
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

/** The section: shown to the owner only (the caller passes nothing otherwise). */
export function scheduleSection(d: {
  reportId: number;
  csrf: string;
  schedule: Schedule | null;
  form: ScheduleFormState;
}): SafeHtml {
  const f = d.form;
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
