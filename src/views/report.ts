// The report page: the summary (URL, dates, score gauge, categories, failures by priority,
// page facts), then every check grouped by category — failed first — with its state (icon +
// text), the value found, its details rendered by their type, and how to fix it. Everything
// that came from the audited page is escaped by the `html` tag.
import {
  CATEGORIES,
  PRIORITIES,
  type Category,
  type CheckResult,
  type CheckValue,
  type Details,
  type Priority,
  type ResultBand,
} from '../analyzer/types.js';
import {
  bandOf,
  CATEGORY_BLURBS,
  CATEGORY_NAMES,
  PRIORITY_LABELS,
  PRIVACY_LABELS,
  RESULT_LABELS,
  SCORING,
} from '../analyzer/vocabulary.js';
import { displayCheckValue, formatBytes } from '../analyzer/format.js';
import type { StoredReport } from '../services/reports/types.js';
import { scoreResults } from '../analyzer/scoring.js';
import { html, join, raw, type SafeHtml } from './html.js';
import { renderSection } from './render-section.js';

export { CATEGORY_NAMES, RESULT_LABELS, PRIVACY_LABELS };

const MAX_ROWS = 50;

/** Icons are shapes as well as colours, so that they read in grey print. */
export const ICONS = {
  passed: raw(
    '<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><circle cx="10" cy="10" r="9"/><path d="M5.5 10.5l3 3 6-7" fill="none"/></svg>',
  ),
  failed: raw(
    '<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><rect x="1" y="1" width="18" height="18" rx="3"/><path d="M6 6l8 8M14 6l-8 8" fill="none"/></svg>',
  ),
  inconclusive: raw(
    '<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M10 1l9 9-9 9-9-9z"/><path d="M10 5.5v5.5M10 13.5v1" fill="none"/></svg>',
  ),
};

export type CheckState = keyof typeof ICONS;

export const STATE_LABELS: Record<CheckState, string> = {
  passed: 'Passed',
  failed: 'Failed',
  inconclusive: 'Not judged',
};

const INCONCLUSIVE_REASONS: Record<NonNullable<CheckResult['inconclusive_reason']>, string> = {
  blocked: 'The resource it needs was blocked or could not be fetched.',
  not_applicable: 'Not applicable to this page.',
  no_data: 'There was not enough data to judge it.',
  error: 'The check could not run.',
  ignored: "An ignore rule of the project covers it on this page: it does not count in the score.",
};

export function stateOf(c: CheckResult): CheckState {
  return c.passed === true ? 'passed' : c.passed === false ? 'failed' : 'inconclusive';
}

const STATE_ORDER: Record<CheckState, number> = { failed: 0, inconclusive: 1, passed: 2 };
const PRIORITY_ORDER: Record<Priority, number> = { high: 0, medium: 1, low: 2 };

/** Failed first, then not judged, then passed; within each, high priority first; then by title. */
export function sortChecks(checks: CheckResult[]): CheckResult[] {
  return [...checks].sort(
    (a, b) =>
      STATE_ORDER[stateOf(a)] - STATE_ORDER[stateOf(b)] ||
      PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] ||
      a.title.localeCompare(b.title) ||
      a.id.localeCompare(b.id),
  );
}

// --- formatting --------------------------------------------------------------------------

export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

function formatMs(n: number | null): string {
  return n === null ? '–' : n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`;
}

function cell(v: string | number | boolean | null): string {
  if (v === null) return '–';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  return String(v);
}

// --- pieces ------------------------------------------------------------------------------

/** The score gauge: an inline SVG ring, the score and the result as text. */
export function gauge(score: number, result: ResultBand, size: 'large' | 'small' = 'large'): SafeHtml {
  const r = 52;
  const circumference = 2 * Math.PI * r;
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  const dash = (circumference * clamped) / 100;
  return html`<svg class="gauge gauge--${size} band-${result}" viewBox="0 0 120 120" role="img" aria-label="Score ${clamped} out of 100: ${RESULT_LABELS[result]}">
  <circle class="gauge__track" cx="60" cy="60" r="${r}"/>
  <circle class="gauge__value" cx="60" cy="60" r="${r}" stroke-dasharray="${dash.toFixed(2)} ${circumference.toFixed(2)}" transform="rotate(-90 60 60)"/>
  <text class="gauge__score" x="60" y="${size === 'large' ? 66 : 70}" text-anchor="middle">${clamped}</text>
  ${size === 'large' ? html`<text class="gauge__max" x="60" y="86" text-anchor="middle">/ 100</text>` : ''}
</svg>`;
}

export function resultBadge(result: ResultBand): SafeHtml {
  const icon = result === 'good' ? ICONS.passed : result === 'bad' ? ICONS.failed : ICONS.inconclusive;
  return html`<span class="badge band-${result}">${icon}${RESULT_LABELS[result]}</span>`;
}

function renderValue(c: CheckResult): SafeHtml | '' {
  const value = displayCheckValue(c.id, c.value, c.passed);
  if (value === undefined) return '';
  let shown: SafeHtml;
  if (Array.isArray(value)) {
    shown =
      value.length === 0
        ? html`<em>none</em>`
        : join(
            value.map((v) => html`<code>${v}</code>`),
            ', ',
          );
  } else if (value === null || value === '') {
    shown = html`<em>none</em>`;
  } else if (typeof c.value === 'boolean') {
    shown = html`${value}`;
  } else {
    shown = html`<code>${value}</code>`;
  }
  return html`<p class="check__value"><span class="check__label">Found:</span> ${shown}</p>`;
}

/** Rows of a check's details that print (the rest are online: the report stays short). */
const PRINT_ROWS = 5;

function more(shown: number, total: number, truncated: number | undefined): SafeHtml | '' {
  const n = total - shown + (truncated ?? 0);
  const inPrint = total + (truncated ?? 0) - Math.min(shown, PRINT_ROWS);
  return html`${n > 0 ? html`<p class="details__more">… and ${n} more</p>` : ''}${shown > PRINT_ROWS ? html`<p class="details__print-more print-only">… and ${inPrint} more in the online report</p>` : ''}`;
}

/** Renders a check's details by their type only (never by check id). */
export function renderDetails(details: Details | undefined, label: string): SafeHtml | '' {
  if (!details) return '';
  switch (details.type) {
    case 'text':
      return html`<div class="details details--text"><p>${details.text}</p></div>`;
    case 'list': {
      const items = details.items.slice(0, MAX_ROWS);
      return html`<div class="details details--list"><ul>${items.map((i) => html`<li>${i}</li>`)}</ul>${more(items.length, details.items.length, details.truncated)}</div>`;
    }
    case 'table': {
      const rows = details.rows.slice(0, MAX_ROWS);
      return html`<div class="details details--table"><div class="table-wrap" role="region" aria-label="${label}" tabindex="0"><table>
<thead><tr>${details.headings.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((c) => html`<td>${cell(c)}</td>`)}</tr>`)}</tbody>
</table></div>${more(rows.length, details.rows.length, details.truncated)}</div>`;
    }
  }
}

/** One check in full: state, title, priority, message, value, details and how to fix it. */
export function renderCheck(c: CheckResult): SafeHtml {
  const state = stateOf(c);
  const reasonText =
    state === 'inconclusive' && c.inconclusive_reason ? INCONCLUSIVE_REASONS[c.inconclusive_reason] : '';
  // the reason only when the message does not already say it
  const reason =
    reasonText && reasonText !== c.message ? html`<p class="check__reason">${reasonText}</p>` : '';
  // nothing to fix on a page a check does not apply to
  const fix =
    state !== 'passed' && c.inconclusive_reason !== 'not_applicable' && c.how_to_fix
      ? html`<div class="check__fix"><h4>How to fix</h4><p>${c.how_to_fix}</p></div>`
      : '';
  return html`<li class="check check--${state}" id="check-${c.id}">
  <div class="check__head">
    <span class="state state--${state}">${ICONS[state]}<span class="state__text">${STATE_LABELS[state]}</span></span>
    <h3 class="check__title">${c.title}</h3>
    <span class="priority priority--${c.priority}">${PRIORITY_LABELS[c.priority]} priority</span>
  </div>
  <div class="check__body">
    ${c.message && c.message !== c.title ? html`<p class="check__message">${c.message}</p>` : ''}
    ${reason}
    ${renderValue(c)}
    ${renderDetails(c.details, `Details: ${c.title}`)}
    ${fix}
  </div>
</li>`;
}

function failedByPriority(checks: CheckResult[]): Record<Priority, number> {
  const out: Record<Priority, number> = { high: 0, medium: 0, low: 0 };
  for (const c of checks) if (c.passed === false) out[c.priority]++;
  return out;
}

/** A failed check worth fixing first, with what fixing it is worth. */
export interface FixFirst {
  check: CheckResult;
  /** overall score points gained if this check alone passed */
  points: number;
  /** its category's score points gained */
  categoryPoints: number;
}

/** At most `limit` failed checks: high priority first, then by impact (score points gained, overall then in its category), then by title. */
export function fixFirst(checks: CheckResult[], limit = 10): FixFirst[] {
  const base = scoreResults(checks);
  const gains = checks
    .filter((c) => c.passed === false)
    .map((c) => {
      const fixed = scoreResults(checks.map((x) => (x === c ? { ...x, passed: true } : x)));
      return {
        check: c,
        points: fixed.score - base.score,
        categoryPoints: fixed.categories[c.category].score - base.categories[c.category].score,
      };
    });
  return gains
    .sort(
      (a, b) =>
        PRIORITY_ORDER[a.check.priority] - PRIORITY_ORDER[b.check.priority] ||
        b.points - a.points ||
        b.categoryPoints - a.categoryPoints ||
        a.check.title.localeCompare(b.check.title) ||
        a.check.id.localeCompare(b.check.id),
    )
    .slice(0, limit);
}

/** The audited page's title (the title check's value), or null. */
export function pageTitle(report: StoredReport): string | null {
  const v = report.results.title?.value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

export interface ReportViewOptions {
  /** the signed-in owner is looking: show privacy and a link to the dashboard */
  owner: boolean;
  /** the history section (views/history.ts), placed after the overview */
  history?: SafeHtml | '';
  /** the owner's CSRF token, for the Re-run form (owner only) */
  csrf?: string;
  /** the schedule section (views/schedule.ts, owner only), placed after the score and the fixes */
  schedule?: SafeHtml | '';
  /** a notice above the report (an older run shown) */
  notice?: SafeHtml | '';
  /** shown through a share link: no link to the report's own addresses (its PDF) */
  shared?: boolean;
}

// --- sections (each a function, in page order) ----------------------------------------------

/** The owner's bar (screen only): privacy, Re-run, the project's reports. */
export function ownerBarSection(report: StoredReport, opts: ReportViewOptions): SafeHtml | '' {
  if (!opts.owner) return '';
  const project = `/dashboard?project=${encodeURIComponent(report.project)}`;
  const rerun = opts.csrf
    ? html`<form method="post" action="/dashboard/reports/${report.id}/rerun" data-busy="Auditing again… this takes a few seconds">
      <input type="hidden" name="_csrf" value="${opts.csrf}">
      <input type="hidden" name="back" value="/reports/${report.id}">
      <button type="submit" class="button button--small button--primary">Re-run</button>
      <p class="busy" aria-live="polite" hidden></p>
    </form>`
    : '';
  return html`<div class="owner-bar no-print">
  <p class="owner-bar__text">You own this report · <strong>${PRIVACY_LABELS[report.privacy]}</strong> · Project <a href="${project}">${report.project}</a></p>
  <div class="owner-bar__actions">
    ${rerun}
    <a class="button button--small" href="${project}">All reports of ${report.project}</a>
  </div>
</div>`;
}

/** Page one's head: the page's title and URL, the date, the score and its band. */
/** `shared`: a share link's page (no link to the report's own addresses). */
export function summarySection(report: StoredReport, shared = false): SafeHtml {
  const title = pageTitle(report);
  return html`<header class="summary band-${report.result}">
  <div class="summary__gauge">
    ${gauge(report.score, report.result)}
    ${resultBadge(report.result)}
  </div>
  <div class="summary__text">
    <p class="eyebrow">Audit report · ${report.project}</p>
    <h1 class="summary__title${title ? '' : ' summary__url'}">${title ?? report.url}</h1>
    ${title ? html`<p class="summary__url">${report.url}</p>` : ''}
    <dl class="facts facts--summary">
      ${report.finalUrl !== report.url ? html`<div><dt>Final URL</dt><dd class="break">${report.finalUrl}</dd></div>` : ''}
      <div><dt>Audited</dt><dd><time datetime="${report.generatedAt}">${formatDate(report.generatedAt)}</time></dd></div>
      <div><dt>Result</dt><dd>${RESULT_LABELS[report.result]}, ${report.score} out of 100</dd></div>
    </dl>
    <p class="summary__actions no-print">${shared ? '' : html`<a class="button button--small" href="/reports/${report.id}.pdf">PDF</a> <a class="button button--small" href="/reports/${report.id}.pdf?download=1">Download PDF</a> `}<button type="button" class="button button--small" data-print hidden>Print or save as PDF</button></p>
  </div>
</header>`;
}

const outsideOverall = (cat: Category): boolean => (SCORING.outsideOverall as readonly Category[]).includes(cat);

/** The category scores (page one). */
export function categoriesSection(report: StoredReport): SafeHtml {
  const cards = CATEGORIES.map((cat) => {
    const s = report.categories[cat];
    if (!s) return '';
    if (s.not_judged !== undefined)
      return html`<li class="category-card category-card--not-judged">
  <span class="category-card__text">
    <span class="category-card__name">${CATEGORY_NAMES[cat]}</span>
    <span class="category-card__counts">Not judged: ${s.not_judged}</span>
  </span>
</li>`;
    const band = bandOf(s.score);
    return html`<li class="category-card">
  <a href="#category-${cat}" class="category-card__link">
    ${gauge(s.score, band, 'small')}
    <span class="category-card__text">
      <span class="category-card__name">${CATEGORY_NAMES[cat]}</span>
      <span class="category-card__counts">${s.passed} passed · ${s.failed} failed${outsideOverall(cat) ? ' · not in the overall score' : ''}</span>
    </span>
  </a>
</li>`;
  });
  return html`<section class="panel categories-panel" aria-labelledby="categories-title">
  <h2 class="panel__title" id="categories-title">Categories</h2>
  <ul class="category-cards">${cards}</ul>
</section>`;
}

/** "Fix these first": the failed checks by priority and impact, at most 10 (page one). */
export function fixFirstSection(report: StoredReport): SafeHtml {
  const list = fixFirst(Object.values(report.results));
  const item = ({ check: c, points }: FixFirst) => html`<li class="fix-first__item">
  <a class="fix-first__title" href="#check-${c.id}">${c.title}</a>
  <span class="fix-first__meta"><span class="priority priority--${c.priority}">${PRIORITY_LABELS[c.priority]} priority</span> · ${CATEGORY_NAMES[c.category]}${points > 0 ? html` · <span class="fix-first__gain">+${points} point${points === 1 ? '' : 's'}</span>` : ''}</span>
  ${c.message && c.message !== c.title ? html`<span class="fix-first__message">${c.message}</span>` : ''}
</li>`;
  const body =
    list.length === 0
      ? html`<p class="fix-first__none">Nothing failed: every check that could be judged passed.</p>`
      : html`<ol class="fix-first__list">${list.map(item)}</ol>`;
  return html`<section class="panel fix-first" aria-labelledby="fix-first-title">
  <h2 class="panel__title" id="fix-first-title">Fix these first</h2>
  ${body}
</section>`;
}

/** Failed checks by priority, and the page's facts. */
export function factsSection(report: StoredReport): SafeHtml {
  const checks = Object.values(report.results);
  const failed = failedByPriority(checks);
  const totalFailed = failed.high + failed.medium + failed.low;
  const totalPassed = checks.filter((c) => c.passed === true).length;
  const totalInconclusive = checks.length - totalFailed - totalPassed;
  const p = report.page;
  const requests = Object.entries(p.requests ?? {}).filter(([, n]) => n > 0);
  return html`<section class="panel panel--split facts-panel" aria-label="Failed checks and page facts">
    <div>
      <h3 class="panel__title">Failed checks by priority</h3>
      <ul class="priority-counts">
        ${PRIORITIES.map(
          (pr) =>
            html`<li class="priority-count priority-count--${pr}${failed[pr] === 0 ? ' is-zero' : ''}"><span class="priority-count__n">${failed[pr]}</span><span class="priority-count__label">${PRIORITY_LABELS[pr]}</span></li>`,
        )}
      </ul>
      <p class="muted">${checks.length} checks: ${totalPassed} passed, ${totalFailed} failed${totalInconclusive ? html`, ${totalInconclusive} not judged` : ''}.</p>
    </div>
    <div>
      <h3 class="panel__title">Page</h3>
      <dl class="facts facts--page">
        <div><dt>Status</dt><dd>${p.status} · HTTP/${p.http_version}</dd></div>
        <div><dt>Redirects</dt><dd>${p.redirects.length}</dd></div>
        <div><dt>First byte</dt><dd>${formatMs(p.timings.ttfb_ms)}</dd></div>
        <div><dt>Load time</dt><dd>${formatMs(p.timings.total_ms)}</dd></div>
        <div><dt>HTML size</dt><dd>${formatBytes(p.sizes.html_bytes)}</dd></div>
        <div><dt>Transferred</dt><dd>${formatBytes(p.sizes.transfer_bytes)}</dd></div>
        ${requests.length ? html`<div class="facts__wide"><dt>Resources</dt><dd>${requests.map(([k, n], i) => html`${i ? ' · ' : ''}${k} ${n}`)}</dd></div>` : ''}
      </dl>
    </div>
</section>`;
}

/** A value in one short line (the passed checks' table). */
export function shortValue(value: CheckValue | undefined): string {
  if (value === undefined || value === null || value === '') return '';
  const text = Array.isArray(value)
    ? value.join(', ')
    : typeof value === 'boolean'
      ? value
        ? 'Yes'
        : 'No'
      : String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Passed checks: one line each, collapsed on screen (details), listed in print. */
function passedTable(cat: string, list: CheckResult[]): SafeHtml | '' {
  if (list.length === 0) return '';
  const row = (c: CheckResult) =>
    html`<tr id="check-${c.id}" class="passed-table__row"><td class="passed-table__title">${c.title}</td><td class="passed-table__priority">${PRIORITY_LABELS[c.priority]}</td><td class="passed-table__value">${shortValue(c.value)}</td></tr>`;
  return html`<details class="passed-checks" id="passed-${cat}">
  <summary class="passed-checks__summary">${ICONS.passed}<span>${list.length} passed check${list.length === 1 ? '' : 's'}</span></summary>
  <table class="passed-table">
    <thead><tr><th scope="col">Passed check</th><th scope="col">Priority</th><th scope="col">Found</th></tr></thead>
    <tbody>${list.map(row)}</tbody>
  </table>
</details>`;
}

/** One category: its failed and not-judged checks in full, then its passed ones compact. */
export function categorySection(report: StoredReport, cat: (typeof CATEGORIES)[number]): SafeHtml | '' {
  const list = sortChecks(Object.values(report.results).filter((c) => c.category === cat));
  if (list.length === 0) return '';
  const s = report.categories[cat];
  const open = list.filter((c) => c.passed !== true);
  const passed = list.filter((c) => c.passed === true);
  return html`<section class="category" id="category-${cat}" aria-labelledby="category-${cat}-title">
  <div class="category__head">
    <h2 id="category-${cat}-title">${CATEGORY_NAMES[cat]}</h2>
    ${s ? html`<p class="category__score"><strong>${s.score}</strong>/100 · ${s.passed} passed · ${s.failed} failed</p>` : ''}
  </div>
  <p class="category__blurb">${CATEGORY_BLURBS[cat]}</p>
  ${open.length ? html`<ol class="checks">${open.map(renderCheck)}</ol>` : ''}
  ${passedTable(cat, passed)}
</section>`;
}

export function reportView(report: StoredReport, opts: ReportViewOptions): SafeHtml {
  // the score first, then the owner's schedule form (on a phone it would fill the first screen)
  return html`${ownerBarSection(report, opts)}
${opts.notice ?? ''}
<article class="report">
<div class="first-page">
${summarySection(report, opts.shared === true)}
${categoriesSection(report)}
${fixFirstSection(report)}
</div>
${opts.schedule ?? ''}
${factsSection(report)}
${opts.history ?? ''}
${renderSection(report)}
${CATEGORIES.map((cat) => categorySection(report, cat))}
</article>`;
}

/** A CSS string literal (quotes, backslashes, line breaks and angle brackets escaped). */
function cssString(text: string): string {
  return `"${text.replace(/[\\"\n\r\f<>]/g, (ch) => `\\${ch.codePointAt(0)!.toString(16)} `)}"`;
}

/**
 * The report's print stylesheet: a running header with its URL and date and "Page n of N" in
 * @page margin boxes (Chromium ≥ 131 prints them; other browsers print without them).
 */
export function printStylesheet(url: string, date: string): string {
  const shownUrl = url.length > 90 ? `${url.slice(0, 89)}…` : url;
  return `@page {
  @top-left { content: ${cssString(shownUrl)}; font: 8pt system-ui, sans-serif; color: #555; }
  @top-right { content: ${cssString(`Audited ${date}`)}; font: 8pt system-ui, sans-serif; color: #555; }
  @bottom-left { content: "Pagegrade audit report"; font: 8pt system-ui, sans-serif; color: #555; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 8pt system-ui, sans-serif; color: #555; }
}
`;
}
