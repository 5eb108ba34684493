// The report's history on its page (docs/history.md): a score-over-time chart (server-rendered
// SVG: no script, no inline style, shapes as well as colours so it reads in grey print) and
// "changed since the last run" (the diff of src/analyzer/diff.ts in words); and the dashboard's
// trend arrow. The report view places these; they know nothing of its layout.
// (Like the other views, the templates are kept as written: whitespace in them is content.)
import { CATEGORIES } from '../analyzer/types.js';
import { CATEGORY_NAMES, PRIORITY_LABELS, RESULT_LABELS, SCORING } from '../analyzer/vocabulary.js';
import type { CheckChange } from '../analyzer/diff.js';
import { factLabel, formatCheckValue, formatFactChange, signed, STATE_WORDS } from '../analyzer/diff-text.js';
import type { ReportDiff, ReportHistory, ReportTrend, RunSummary } from '../services/history/types.js';
import { html, type SafeHtml } from './html.js';
import { formatDate } from './report.js';

// --- the chart ---------------------------------------------------------------------------

const W = 640;
const H = 210;
const PAD = { left: 34, right: 58, top: 14, bottom: 30 };
/** above this many runs, only the newest run's score is written beside its point */
const LABEL_ALL_UP_TO = 14;

const day = (iso: string) => formatDate(iso).slice(0, 10);
/** HH:MM (UTC) */
const time = (iso: string) => formatDate(iso).slice(11, 16);
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The score of each run kept, oldest to newest; failed runs as crosses on the baseline. */
function scoreChart(runsNewestFirst: RunSummary[]): SafeHtml {
  const runs = [...runsNewestFirst].reverse();
  const n = runs.length;
  const pw = W - PAD.left - PAD.right;
  const ph = H - PAD.top - PAD.bottom;
  const x = (i: number) => (n === 1 ? PAD.left + pw / 2 : PAD.left + (pw * i) / (n - 1));
  const y = (score: number) => PAD.top + ph * (1 - score / 100);
  const f = (v: number) => v.toFixed(1);
  const { good, decent } = SCORING.bands;
  const bands = [
    { band: 'good', top: 100, bottom: good },
    { band: 'decent', top: good, bottom: decent },
    { band: 'bad', top: decent, bottom: 0 },
  ] as const;
  const completed = runs.flatMap((r, i) =>
    r.status === 'completed' && r.score !== null ? [{ r, i, s: r.score }] : [],
  );
  const line = completed.map(({ i, s }) => `${f(x(i))},${f(y(s))}`).join(' ');
  const newest = completed.at(-1);
  const first = completed[0];
  const failed = runs.length - completed.length;
  const failedText = failed ? `${plural(failed, 'failed run')}.` : '';
  const oldest = runs[0];
  const latest = runs[n - 1];
  // runs of one day (an hour apart): the axis and the description say the times (issue 23 §5)
  const oneDay = oldest !== undefined && latest !== undefined && day(oldest.generatedAt) === day(latest.generatedAt);
  const on = (iso: string) => (oneDay ? `${day(iso)} ${time(iso)} UTC` : day(iso));
  const desc =
    first && newest
      ? `Score of ${plural(completed.length, 'completed run')}, from ${first.s} on ${on(first.r.generatedAt)} to ${newest.s} on ${on(newest.r.generatedAt)}${failed ? `; ${failedText}` : '.'}`
      : failedText;

  const points = runs.map((r, i) => {
    const when = formatDate(r.generatedAt);
    if (r.status === 'failed' || r.score === null || r.result === null) {
      const cx = x(i);
      const cy = y(0);
      return html`<g class="chart__run chart__run--failed"><title>Run ${r.number} · ${when} · failed: ${r.error ?? ''}</title><path class="chart__failed" d="M${f(cx - 5)} ${f(cy - 5)}l10 10m0 -10l-10 10"/></g>`;
    }
    const labelled = n <= LABEL_ALL_UP_TO || r === newest?.r;
    return html`<g class="chart__run"><title>Run ${r.number} · ${when} · ${r.score} (${RESULT_LABELS[r.result]})</title><circle class="chart__point band-${r.result}" cx="${f(x(i))}" cy="${f(y(r.score))}" r="4.5"/>${labelled ? html`<text class="chart__label" x="${f(x(i))}" y="${f(y(r.score) - 9)}" text-anchor="middle">${r.score}</text>` : ''}</g>`;
  });

  const bandRects = bands.map(
    (b) =>
      html`<rect class="chart__band chart__band--${b.band}" x="${PAD.left}" y="${f(y(b.top))}" width="${pw}" height="${f(y(b.bottom) - y(b.top))}"/><text class="chart__band-label" x="${W - PAD.right + 10}" y="${f((y(b.top) + y(b.bottom)) / 2 + 4)}">${RESULT_LABELS[b.band]}</text>`,
  );
  const grid = [0, decent, good, 100].map(
    (v) =>
      html`<line class="chart__grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(v))}" y2="${f(y(v))}"/><text class="chart__axis" x="${PAD.left - 6}" y="${f(y(v) + 4)}" text-anchor="end">${v}</text>`,
  );
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="history-chart-title history-chart-desc">
<title id="history-chart-title">Score over time</title>
<desc id="history-chart-desc">${desc}</desc>
${bandRects}
${grid}
${completed.length > 1 ? html`<polyline class="chart__line" points="${line}"/>` : ''}
${points}
${oldest ? html`<text class="chart__axis" x="${PAD.left}" y="${H - 8}" text-anchor="start">${oneDay && n > 1 ? `${day(oldest.generatedAt)} ${time(oldest.generatedAt)}` : day(oldest.generatedAt)}</text>` : ''}
${latest && n > 1 ? html`<text class="chart__axis" x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${oneDay ? `${time(latest.generatedAt)} UTC` : day(latest.generatedAt)}</text>` : ''}
</svg>`;
}

// --- changed since the last run ------------------------------------------------------------

const LISTS = [
  ['newly_failed', 'Newly failed', 'failed'],
  ['newly_passed', 'Newly passed', 'passed'],
  ['newly_inconclusive', 'No longer judged', 'inconclusive'],
  ['value_changed', 'Values changed', 'changed'],
] as const;

function valueChange(c: CheckChange): SafeHtml | '' {
  if (c.from_value === undefined && c.to_value === undefined) return '';
  return html` <span class="history__values">${formatCheckValue(c.from_value, 80, c.id)} → ${formatCheckValue(c.to_value, 80, c.id)}</span>`;
}

function checkItem(c: CheckChange, kind: string): SafeHtml {
  const title = c.to === 'absent' ? html`${c.title}` : html`<a href="#check-${c.id}">${c.title}</a>`;
  const states = kind === 'changed' ? '' : html` <span class="history__states">was ${STATE_WORDS[c.from]}</span>`;
  return html`<li class="history__item history__item--${kind}">${title} <span class="priority priority--${c.priority}">${PRIORITY_LABELS[c.priority]}</span>${states}${valueChange(c)}</li>`;
}

const runName = (r: RunSummary) =>
  html`run ${r.number} (<time datetime="${r.generatedAt}">${formatDate(r.generatedAt)}</time>)`;

/** "Changed since the last run" (or two chosen runs compared), in words. */
function changesPanel(changes: ReportDiff, chosen = false): SafeHtml {
  const d = changes.diff;
  const categories = CATEGORIES.filter((c) => d.categories[c].delta !== 0);
  const lists = LISTS.filter(([key]) => d.checks[key].length > 0);
  const scores = html`<dl class="facts history__scores">
  <div><dt>Score</dt><dd>${d.score.from} → <strong>${d.score.to}</strong> (${signed(d.score.delta)})</dd></div>
  <div><dt>Result</dt><dd>${d.result.change === 'same' ? RESULT_LABELS[d.result.to] : html`${RESULT_LABELS[d.result.from]} → <strong>${RESULT_LABELS[d.result.to]}</strong>`}</dd></div>
  ${categories.map((c) => html`<div><dt>${CATEGORY_NAMES[c]}</dt><dd>${d.categories[c].from} → ${d.categories[c].to} (${signed(d.categories[c].delta)})</dd></div>`)}
</dl>`;
  const checkLists = lists.map(
    ([key, label, kind]) =>
      html`<h4 class="history__heading">${label} (${d.checks[key].length})</h4><ul class="history__list">${d.checks[key].map((c) => checkItem(c, kind))}</ul>`,
  );
  const facts = d.page.length
    ? html`<h4 class="history__heading">Page</h4><ul class="history__list">${d.page.map((p) => html`<li class="history__item">${factLabel(p.fact)}: ${formatFactChange(p.fact, p.from, p.to).join(' → ')}</li>`)}</ul>`
    : '';
  const regression = changes.regression
    ? html`<p class="alert alert--error history__regression"><strong>Regression:</strong> ${d.result.change === 'worse' ? 'the result dropped' : 'a high-priority check newly failed'}.</p>`
    : '';
  return html`<div class="panel history__changes" id="history-changes">
  <h3 class="panel__title">${chosen ? `Run ${changes.from.number} compared with run ${changes.to.number}` : 'Changed since the last run'}</h3>
  <p class="muted">From ${runName(changes.from)} to ${runName(changes.to)}.</p>
  ${regression}
  ${d.changed ? html`${scores}${checkLists}${facts}` : html`<p class="history__none">Nothing changed ${chosen ? 'between these runs' : 'since the last run'}.</p>`}
</div>`;
}

/** What the page asked of the history: a run shown, two runs compared (or why they could not be). */
export interface HistoryView {
  reportId: number;
  /** the run whose results the page shows (default: the current one) */
  shown?: number | undefined;
  /** two chosen runs compared (the page's `from` and `to`) */
  compared?: ReportDiff | undefined;
  /** why the chosen runs could not be compared */
  compareError?: string | undefined;
}

/** The runs kept, each with a link to view it; and a form to compare two of them (GET). */
function runsPanel(h: ReportHistory, v: HistoryView): SafeHtml {
  const completed = h.runs.filter((r) => r.status === 'completed');
  const current = h.runs.find((r) => r.current);
  const from = v.compared?.from.number ?? h.changes?.from.number ?? completed[1]?.number;
  const to = v.compared?.to.number ?? current?.number;
  const option = (r: RunSummary, selected: number | undefined) =>
    html`<option value="${r.number}"${r.number === selected ? html` selected` : ''}>Run ${r.number} · ${formatDate(r.generatedAt)} · ${r.score ?? ''}</option>`;
  const shown = v.shown ?? current?.number;
  const rows = h.runs.map((r) => {
    const what =
      r.status === 'completed' && r.score !== null && r.result !== null
        ? html`${r.score} (${RESULT_LABELS[r.result]})`
        : html`<span class="muted">failed: ${r.error ?? ''}</span>`;
    const link =
      r.status !== 'completed'
        ? ''
        : r.number === shown
          ? html`<strong>Shown</strong>`
          : html`<a href="/reports/${v.reportId}${r.current ? '' : `?run=${r.number}`}">${r.current ? 'View (current)' : 'View'}</a>`;
    return html`<tr><td>Run ${r.number}${r.current ? ' (current)' : ''}</td><td><time datetime="${r.generatedAt}">${formatDate(r.generatedAt)}</time></td><td>${what}</td><td>${link}</td></tr>`;
  });
  const form =
    completed.length > 1
      ? html`<form class="history__compare" method="get" action="/reports/${v.reportId}#history-changes">
    <label>Compare run <select name="from">${completed.map((r) => option(r, from))}</select></label>
    <label>with run <select name="to">${completed.map((r) => option(r, to))}</select></label>
    <button type="submit" class="button button--small">Compare</button>
  </form>`
      : '';
  return html`<div class="panel history__runs no-print">
  <h3 class="panel__title">Runs</h3>
  ${v.compareError ? html`<p class="alert alert--error" role="alert">${v.compareError}</p>` : ''}
  ${form}
  <div class="table-wrap"><table class="history__table"><thead><tr><th scope="col">Run</th><th scope="col">Audited</th><th scope="col">Score</th><th scope="col"><span class="visually-hidden">Open</span></th></tr></thead><tbody>${rows}</tbody></table></div>
</div>`;
}

/** The report page's history section; nothing for a report audited once. */
export function historySection(h: ReportHistory, v?: HistoryView): SafeHtml | '' {
  if (h.runs.length < 2) return '';
  const current = h.runs.find((r) => r.current);
  const failedNotice =
    h.lastFailed && current
      ? html`<p class="alert alert--error" role="status">The last re-audit, ${runName(h.lastFailed)}, could not fetch the page: ${h.lastFailed.error ?? 'no reason was recorded.'} The results shown are from ${runName(current)}.</p>`
      : '';
  const shown = h.runs.length < h.total ? ` (the chart shows the newest ${h.runs.length})` : '';
  return html`<section class="history" aria-labelledby="history-title">
  <h2 id="history-title" class="history__title">History</h2>
  ${failedNotice}
  <div class="panel history__chart">
    <h3 class="panel__title">Score over time</h3>
    ${scoreChart(h.runs)}
    <p class="muted history__caption">${plural(h.total, 'run')} kept${shown}. A cross marks a re-audit that could not fetch the page.</p>
  </div>
  ${v?.compared ? changesPanel(v.compared, true) : h.changes ? changesPanel(h.changes) : ''}
  ${v ? runsPanel(h, v) : ''}
</section>`;
}

// --- the dashboard's trend ----------------------------------------------------------------

const ARROWS = {
  up: 'M10 3l6 7h-4v7H8v-7H4z',
  down: 'M10 17l6-7h-4V3H8v7H4z',
  same: 'M3 8h14v4H3z',
} as const;

/** An arrow (and the points) from the previous run's score to the current one; a failed re-run said. */
export function trendArrow(t: ReportTrend | undefined): SafeHtml | '' {
  if (!t) return '';
  let arrow: SafeHtml | '' = '';
  if (t.previousScore !== null) {
    const delta = t.score - t.previousScore;
    const dir = delta > 0 ? 'up' : delta < 0 ? 'down' : 'same';
    const words = delta === 0 ? 'No change' : `${delta > 0 ? 'Up' : 'Down'} ${plural(Math.abs(delta), 'point')}`;
    arrow = html`<span class="trend trend--${dir}" title="${words} since the last run"><svg class="trend__icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="${ARROWS[dir]}"/></svg><span class="trend__n">${signed(delta)}</span><span class="visually-hidden"> (${words.toLowerCase()} since the last run)</span></span>`;
  }
  const failed = t.lastRunFailed ? html`<span class="trend trend--failed">Last re-run failed</span>` : '';
  return html`${arrow}${failed}`;
}
