// The project page (docs/sites.md, "The project page"): a site looked after over time — its
// site score, the charts of its finished crawls (src/views/project-charts.ts), the latest
// crawl with "Crawl now", and the settings form (every setting; the secrets only as set or not
// set, their inputs write-only). The rules are the services' (services.projects).
// (Like the other views, the templates are kept as written: whitespace in them is content.)
import type { ProjectDetail } from '../services/projects/types.js';
import { extractorLine } from '../crawl/extract.js';
import { statusBadge } from './batches.js';
import type { Flash } from './dashboard.js';
import { html, type SafeHtml } from './html.js';
import type { Can } from './layout.js';
import { bandsChart, findingsTable, siteScoreChart } from './project-charts.js';
import { formatDate, resultBadge } from './report.js';
import { emptyIgnoreRuleForm, ignoreRulesSection, type IgnoreRuleFormState } from './ignore-rules.js';

/** What the settings form shows: the values sent (or the saved ones), and the errors by field. */
export interface ProjectFormState {
  start_url: string;
  mode: string;
  urls: string;
  max_pages: string;
  max_depth: string;
  include: string;
  exclude: string;
  render: boolean;
  check_external: boolean;
  max_external_checks: string;
  max_site_checks: string;
  /** the findings' thresholds */
  thin_content_words: string;
  near_duplicate_threshold: string;
  deep_page_depth: string;
  default_privacy: string;
  /** none, hourly, daily, weekly or custom */
  schedule: string;
  cron: string;
  timezone: string;
  basic_auth_username: string;
  /** custom extraction: one extractor a line (src/crawl/extract.ts extractorLine) */
  extractors: string;
  /** by the form's fields (start_url, …, schedule, cron, timezone, headers, cookies, basic_auth) */
  errors: Record<string, string[]>;
}

/** The fields the form shows (an error of another field goes to the page's alert). */
export const PROJECT_FORM_FIELDS = [
  'start_url',
  'mode',
  'urls',
  'max_pages',
  'max_depth',
  'include',
  'exclude',
  'render',
  'check_external',
  'max_external_checks',
  'max_site_checks',
  'thin_content_words',
  'near_duplicate_threshold',
  'deep_page_depth',
  'default_privacy',
  'schedule',
  'cron',
  'timezone',
  'headers',
  'cookies',
  'basic_auth',
  'extractors',
] as const;

const PRESETS = ['hourly', 'daily', 'weekly'];

/** The form filled with the saved settings. */
export function projectFormOf(d: ProjectDetail): ProjectFormState {
  const s = d.settings;
  const preset = s.schedule !== null && PRESETS.includes(s.schedule.every);
  return {
    start_url: s.start_url ?? '',
    mode: s.mode,
    urls: s.urls.join('\n'),
    max_pages: String(s.max_pages),
    max_depth: String(s.max_depth),
    include: s.include.join('\n'),
    exclude: s.exclude.join('\n'),
    render: s.render === 1,
    check_external: s.check_external === 1,
    max_external_checks: String(s.max_external_checks),
    max_site_checks: String(s.max_site_checks),
    thin_content_words: String(s.thin_content_words),
    near_duplicate_threshold: String(s.near_duplicate_threshold),
    deep_page_depth: String(s.deep_page_depth),
    default_privacy: String(s.default_privacy),
    schedule: s.schedule === null ? 'none' : preset ? s.schedule.every : 'custom',
    cron: s.schedule !== null && !preset ? s.schedule.every : '',
    timezone: s.schedule?.timezone ?? 'UTC',
    basic_auth_username: s.basic_auth?.username ?? '',
    extractors: s.extractors.map(extractorLine).join('\n'),
    errors: {},
  };
}

const MODE_LABELS: Record<string, string> = {
  crawl: 'Crawl from the start page',
  sitemap: 'The pages of a sitemap',
  list: 'A list of URLs',
};
const SCHEDULE_LABELS: Record<string, string> = {
  none: 'Not scheduled',
  hourly: 'Every hour',
  daily: 'Every day',
  weekly: 'Every week',
  custom: 'Custom (cron expression)',
};

const option = (value: string, label: string, current: string) =>
  html`<option value="${value}"${value === current ? ' selected' : ''}>${label}</option>`;

const errorId = (field: string) => `project-${field.replaceAll('_', '-')}-error`;

function fieldError(errors: Record<string, string[]>, field: string): SafeHtml | '' {
  const list = errors[field];
  return list?.length ? html`<p class="field__error" id="${errorId(field)}">${list.join(' ')}</p>` : '';
}

const invalid = (errors: Record<string, string[]>, field: string) =>
  errors[field]?.length ? html` aria-invalid="true" aria-describedby="${errorId(field)}"` : '';

function flashView(f: Flash | null | undefined): SafeHtml | '' {
  if (!f) return '';
  return html`<p class="alert alert--${f.kind}" role="${f.kind === 'error' ? 'alert' : 'status'}">${f.text}</p>`;
}

/** "set: x-staging-token, x-env" or "none set" for the secrets' names. */
const setNames = (names: string[]) => (names.length ? `set: ${names.join(', ')}` : 'none set');

function latestCrawlSection(d: ProjectDetail, csrf: string, project: string, can: Can): SafeHtml {
  const canWrite = can('projects.write');
  const b = d.latestCrawl;
  const crawl = !canWrite ? '' : html`<form method="post" action="/dashboard/projects/${encodeURIComponent(project)}/crawl" class="inline-form" data-busy="Starting the crawl…">
    <input type="hidden" name="_csrf" value="${csrf}">
    <button type="submit" class="button button--primary">Crawl now</button>
  </form>`;
  const body = b
    ? html`<p>${can('batches.read') ? html`<a href="/dashboard/batches/${b.id}" class="break" id="latest-crawl-link">Batch #${b.id}</a>` : `Batch #${b.id}`} ${statusBadge(b)} · started ${formatDate(b.createdAt)}${b.finishedAt ? html`, ended ${formatDate(b.finishedAt)}` : ''}</p>
  <p class="batch-progress__counts">${b.progress.audited} audited, ${b.progress.failed + b.progress.skipped} failed or skipped, ${b.progress.remaining} remaining of ${b.progress.discovered} found.</p>
  ${b.status === 'failed' ? html`<p class="alert alert--error" role="alert"><strong>The crawl failed.</strong> ${b.error ?? 'No page could be audited.'}</p>` : ''}`
    : html`<p class="empty">No crawl yet.</p>`;
  const start = !canWrite
    ? ''
    : d.settings.start_url
    ? html`<p class="muted">Crawl now starts a batch from ${d.settings.start_url} with the settings below.</p>`
    : html`<p class="muted">Set a start address below to crawl the site.</p>`;
  // two finished crawls: the last two compared (the batch page compares any two)
  const compare =
    d.trend.length >= 2
      ? html`<p><a href="/dashboard/projects/${encodeURIComponent(project)}/compare" id="compare-link">Compare the last two crawls</a> (pages added, removed and changed; findings new, fixed and persisting).</p>`
      : '';
  return html`<section class="card" aria-labelledby="latest-crawl-title">
  <div class="card__head"><h2 id="latest-crawl-title">Latest crawl</h2>${crawl}</div>
  ${body}
  ${compare}
  ${start}
</section>`;
}

function trendSection(d: ProjectDetail, linkBatches: boolean): SafeHtml {
  const t = d.trend;
  if (t.length === 0)
    return html`<section class="card" aria-labelledby="trend-title">
  <h2 id="trend-title">Over time</h2>
  <p class="empty">The charts start with the first finished crawl.</p>
</section>`;
  return html`<section class="card project-trend" aria-labelledby="trend-title">
  <h2 id="trend-title">Over time</h2>
  <p class="muted">The project's finished crawls${t.length > 1 ? `, the last ${t.length}` : ''}, oldest to newest, as each was audited.</p>
  <div class="batch-charts">
    <div class="panel"><h3 class="panel__title">Site score</h3>${siteScoreChart(t)}</div>
    <div class="panel"><h3 class="panel__title">Pages by result</h3>${bandsChart(t)}</div>
    <div class="panel"><h3 class="panel__title">Findings</h3>${findingsTable(t, linkBatches)}</div>
  </div>
</section>`;
}

function settingsSection(d: ProjectDetail, f: ProjectFormState, csrf: string, project: string): SafeHtml {
  const e = f.errors;
  const s = d.settings;
  const lines = (field: 'urls' | 'include' | 'exclude' | 'extractors', label: string, hint: string) =>
    html`<div class="field field--wide">
      <label for="project-${field}">${label}</label>
      <textarea id="project-${field}" name="${field}" rows="3" spellcheck="false"${invalid(e, field)}>${f[field]}</textarea>
      <p class="field__hint">${hint}</p>
      ${fieldError(e, field)}
    </div>`;
  const secret = (field: 'headers' | 'cookies', label: string, names: string[], example: string) =>
    html`<div class="field field--wide">
      <label for="project-${field}">${label} <span class="muted">(${setNames(names)})</span></label>
      <textarea id="project-${field}" name="${field}" rows="2" spellcheck="false" autocomplete="off" placeholder="${example}"${invalid(e, field)}></textarea>
      <p class="field__hint">Write-only: the values are stored encrypted and never shown. One <code>name: value</code> a line replaces them all; left empty, they stay as they are.</p>
      <label class="choice" for="project-${field}-clear"><input id="project-${field}-clear" name="${field}_clear" type="checkbox" value="1"> Remove them all</label>
      ${fieldError(e, field)}
    </div>`;
  return html`<section class="card" aria-labelledby="settings-title" id="settings">
  <h2 id="settings-title">Settings</h2>
  <form method="post" action="/dashboard/projects/${encodeURIComponent(project)}/settings" class="batch-form" data-busy="Saving…">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div class="field field--grow">
      <label for="project-start-url">Start address</label>
      <input id="project-start-url" name="start_url" type="text" inputmode="url" spellcheck="false" autocapitalize="off" maxlength="2048" placeholder="https://${project}/" value="${f.start_url}"${invalid(e, 'start_url')}>
      <p class="field__hint">On ${project}. Empty: no start address (Crawl now asks for one).</p>
      ${fieldError(e, 'start_url')}
    </div>
    <div class="field">
      <label for="project-mode">What to audit</label>
      <select id="project-mode" name="mode"${invalid(e, 'mode')}>${Object.entries(MODE_LABELS).map(([v, l]) => option(v, l, f.mode))}</select>
      ${fieldError(e, 'mode')}
    </div>
    ${lines('urls', 'URLs (a list: one a line)', 'Only for "A list of URLs".')}
    <div class="field">
      <label for="project-max-pages">At most this many pages</label>
      <input id="project-max-pages" name="max_pages" type="text" inputmode="numeric" value="${f.max_pages}"${invalid(e, 'max_pages')}>
      ${fieldError(e, 'max_pages')}
    </div>
    <div class="field">
      <label for="project-max-depth">Links followed from the start</label>
      <input id="project-max-depth" name="max_depth" type="text" inputmode="numeric" value="${f.max_depth}"${invalid(e, 'max_depth')}>
      ${fieldError(e, 'max_depth')}
    </div>
    ${lines('include', 'Only URLs matching (one pattern a line)', 'Empty: every URL of the site.')}
    ${lines('exclude', 'No URL matching (one pattern a line)', 'Such as /tag/*.')}
    ${lines(
      'extractors',
      'Custom extraction (one a line, at most 10)',
      "NAME=css:, xpath: or regex: then the expression, such as price=css:.price or gtm=regex:GTM-([A-Z0-9]+); NAME@ATTRIBUTE takes an attribute's value, NAME* every match. Each becomes a column of the crawls' pages table and exports.",
    )}
    <div class="field">
      <label for="project-default-privacy">New pages' reports</label>
      <select id="project-default-privacy" name="default_privacy"${invalid(e, 'default_privacy')}>${option('0', 'Public', f.default_privacy)}${option('1', 'Private', f.default_privacy)}</select>
      ${fieldError(e, 'default_privacy')}
    </div>
    <div class="field">
      <label class="choice" for="project-render"><input id="project-render" name="render" type="checkbox" value="1"${f.render ? ' checked' : ''}${invalid(e, 'render')}> Render JavaScript (every page in a browser)</label>
      ${fieldError(e, 'render')}
    </div>
    <div class="field">
      <label class="choice" for="project-check-external"><input id="project-check-external" name="check_external" type="checkbox" value="1"${f.check_external ? ' checked' : ''}${invalid(e, 'check_external')}> Check links to other sites (one request at a time per site)</label>
      ${fieldError(e, 'check_external')}
    </div>
    <div class="field">
      <label for="project-max-external-checks">At most this many links to other sites checked</label>
      <input id="project-max-external-checks" name="max_external_checks" type="text" inputmode="numeric" value="${f.max_external_checks}"${invalid(e, 'max_external_checks')}>
      ${fieldError(e, 'max_external_checks')}
    </div>
    <div class="field">
      <label for="project-max-site-checks">At most this many of the site's own links and files checked</label>
      <input id="project-max-site-checks" name="max_site_checks" type="text" inputmode="numeric" value="${f.max_site_checks}"${invalid(e, 'max_site_checks')}>
      ${fieldError(e, 'max_site_checks')}
    </div>
    <div class="field">
      <label for="project-thin-content-words">Thin content: main text under this many words</label>
      <input id="project-thin-content-words" name="thin_content_words" type="text" inputmode="numeric" value="${f.thin_content_words}"${invalid(e, 'thin_content_words')}>
      ${fieldError(e, 'thin_content_words')}
    </div>
    <div class="field">
      <label for="project-near-duplicate-threshold">Near duplicates: at least this similar (%)</label>
      <input id="project-near-duplicate-threshold" name="near_duplicate_threshold" type="text" inputmode="numeric" value="${f.near_duplicate_threshold}"${invalid(e, 'near_duplicate_threshold')}>
      ${fieldError(e, 'near_duplicate_threshold')}
    </div>
    <div class="field">
      <label for="project-deep-page-depth">Deep pages: more links than this from the start page</label>
      <input id="project-deep-page-depth" name="deep_page_depth" type="text" inputmode="numeric" value="${f.deep_page_depth}"${invalid(e, 'deep_page_depth')}>
      ${fieldError(e, 'deep_page_depth')}
    </div>
    <fieldset class="field field--wide">
      <legend>Schedule</legend>
      <div class="batch-form">
        <div class="field">
          <label for="project-schedule">Crawl</label>
          <select id="project-schedule" name="schedule"${invalid(e, 'schedule')}>${Object.entries(SCHEDULE_LABELS).map(([v, l]) => option(v, l, f.schedule))}</select>
          ${fieldError(e, 'schedule')}
        </div>
        <div class="field">
          <label for="project-cron">Cron expression (for Custom)</label>
          <input id="project-cron" name="cron" type="text" maxlength="120" spellcheck="false" placeholder="30 6 * * 1-5" value="${f.cron}"${invalid(e, 'cron')}>
          ${fieldError(e, 'cron')}
        </div>
        <div class="field">
          <label for="project-timezone">Timezone</label>
          <input id="project-timezone" name="timezone" type="text" maxlength="64" spellcheck="false" placeholder="Europe/Paris" value="${f.timezone}"${invalid(e, 'timezone')}>
          ${fieldError(e, 'timezone')}
        </div>
      </div>
    </fieldset>
    <fieldset class="field field--wide">
      <legend>Sites behind a login or a staging wall</legend>
      ${secret(
        'headers',
        'Request headers',
        s.headers.map((h) => h.name),
        'X-Staging-Token: …',
      )}
      ${secret(
        'cookies',
        'Cookies',
        s.cookies.map((c) => c.name),
        'session: …',
      )}
      <div class="batch-form">
        <input type="hidden" name="basic_auth_had" value="${s.basic_auth?.username ?? ''}">
        <div class="field">
          <label for="project-basic-user">Basic auth user name</label>
          <input id="project-basic-user" name="basic_auth_username" type="text" maxlength="255" autocomplete="off" value="${f.basic_auth_username}"${invalid(e, 'basic_auth')}>
        </div>
        <div class="field">
          <label for="project-basic-password">Basic auth password <span class="muted">(${s.basic_auth ? 'set' : 'not set'})</span></label>
          <input id="project-basic-password" name="basic_auth_password" type="password" maxlength="1024" autocomplete="new-password"${invalid(e, 'basic_auth')}>
          <p class="field__hint">Write-only. Empty: the password stays as it is.</p>
        </div>
      </div>
      <label class="choice" for="project-basic-clear"><input id="project-basic-clear" name="basic_auth_clear" type="checkbox" value="1"> Remove basic auth</label>
      ${fieldError(e, 'basic_auth')}
    </fieldset>
    <div class="field field--submit field--wide"><button type="submit" class="button button--primary">Save settings</button></div>
  </form>
</section>`;
}

export interface ProjectPageData {
  csrf: string;
  /** what the viewer may do: a viewer sees no Crawl now, settings or ignore rule forms */
  can: Can;
  /** the project's own PDF branding section (admins and owners), or '' */
  branding: SafeHtml | '';
  /** the project's newest CI builds (views/builds.ts buildsSection), or '' */
  builds?: SafeHtml | '';
  flash?: Flash | null;
  detail: ProjectDetail;
  form: ProjectFormState;
  /** the ignore rule form as sent, after a 422 */
  ignoreForm?: IgnoreRuleFormState | null;
}

export function projectView(d: ProjectPageData): SafeHtml {
  const p = d.detail;
  const name = p.project.project;
  const score =
    p.siteScore !== null && p.band !== null
      ? html`<p class="project-score">Site score <strong id="site-score">${p.siteScore}</strong> ${resultBadge(p.band)}</p>`
      : html`<p class="muted project-score">No site score until a crawl has finished.</p>`;
  return html`<div class="page-head">
  <div>
    <p class="eyebrow"><a href="/dashboard/projects">Projects</a></p>
    <h1 class="break">${name}</h1>
    <p class="muted"><a href="/dashboard?project=${encodeURIComponent(name)}">${p.project.reportsCount} report${p.project.reportsCount === 1 ? '' : 's'}</a> · since ${formatDate(p.project.createdAt)}</p>
  </div>
  ${score}
</div>
${flashView(d.flash)}
${latestCrawlSection(p, d.csrf, name, d.can)}
${trendSection(p, d.can('batches.read'))}
${d.builds ?? ''}
${ignoreRulesSection(p.settings.ignore, d.ignoreForm ?? emptyIgnoreRuleForm(), d.csrf, name, d.can('projects.write'))}
${d.can('projects.write') ? settingsSection(p, d.form, d.csrf, name) : ''}
${d.branding}`;
}
