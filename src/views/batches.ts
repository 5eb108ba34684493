// The dashboard's batches (docs/sites.md): the "Batches" page (start a batch: a crawl, a
// sitemap or a pasted list of URLs; the user's batches) and a batch's page (live progress,
// then the summary: results by band, a score histogram and a top-issues chart — server-rendered
// SVG in the style of the report history chart: classes only, numbers written on the bars so
// they read in grey print —, the site-level findings with their pages, and the pages table).
// (Like the other views, the templates are kept as written: whitespace in them is content.)
import { RESULT_LABELS, SCORING } from '../analyzer/vocabulary.js';
import type { Batch, BatchPageResult, BatchSummary, Finding } from '../services/batches/types.js';
import type { Page } from '../contract/lists.js';
import { html, type SafeHtml } from './html.js';
import { createBatchForm, MODE_LABELS, type BatchFormState } from './batch-form.js';
import { option } from './forms.js';
import type { Can } from './layout.js';
import type { Flash } from './dashboard.js';
import { formatDate, resultBadge } from './report.js';
import { findingApart, pageState } from './finding-states.js';


const STATUS_LABELS: Record<Batch['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

const STATE_LABELS: Record<BatchPageResult['state'], string> = {
  queued: 'Queued',
  fetching: 'In progress',
  done: 'Audited',
  failed: 'Failed',
  skipped: 'Skipped',
};

export const isRunning = (b: Batch) => b.status === 'queued' || b.status === 'running';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function flashView(f: Flash | null | undefined): SafeHtml | '' {
  if (!f) return '';
  return html`<p class="alert alert--${f.kind}" role="${f.kind === 'error' ? 'alert' : 'status'}">${f.text}</p>`;
}

export function pager(
  path: string,
  raw: Record<string, string>,
  page: number,
  lastPage: number,
  label: string,
  fragment = '',
): SafeHtml | '' {
  if (lastPage <= 1 && page <= 1) return '';
  const link = (n: number) =>
    `${path}?${new URLSearchParams({ ...raw, page: String(n) }).toString()}${fragment}`;
  return html`<nav class="pager" aria-label="${label}">
  ${page > 1 ? html`<a class="button" href="${link(page - 1)}" rel="prev">Previous</a>` : html`<span class="button is-disabled" aria-disabled="true">Previous</span>`}
  <span class="pager__info">Page ${page} of ${Math.max(lastPage, 1)}</span>
  ${page < lastPage ? html`<a class="button" href="${link(page + 1)}" rel="next">Next</a>` : html`<span class="button is-disabled" aria-disabled="true">Next</span>`}
</nav>`;
}

export function statusBadge(b: Batch): SafeHtml {
  return html`<span class="batch-status batch-status--${b.status}">${STATUS_LABELS[b.status]}</span>`;
}

// --- the batches page -----------------------------------------------------------------------

function progressCounts(b: Batch): SafeHtml {
  const p = b.progress;
  return html`<span data-count="audited">${p.audited}</span> audited, <span data-count="failed">${p.failed + p.skipped}</span> failed or skipped, <span data-count="remaining">${p.remaining}</span> remaining of <span data-count="discovered">${p.discovered}</span> found`;
}

function batchRow(b: Batch): SafeHtml {
  return html`<li class="report-row batch-row" id="batch-${b.id}">
  <div class="report-row__main">
    <a class="report-row__url" href="/dashboard/batches/${b.id}">${b.url}</a>
    <p class="report-row__meta">#${b.id} · ${MODE_LABELS[b.mode] ?? b.mode} · ${statusBadge(b)} · ${progressCounts(b)} · ${formatDate(b.createdAt)}</p>
  </div>
</li>`;
}

export interface BatchesData {
  csrf: string;
  /** what the viewer may do: a viewer sees no form to start a batch */
  can: Can;
  flash?: Flash | null;
  form: BatchFormState;
  list: Page<Batch>;
  page: number;
  perPage: number;
}

export function batchesView(d: BatchesData): SafeHtml {
  const lastPage = Math.max(1, Math.ceil(d.list.total / d.perPage));
  const from = d.list.items.length ? (d.page - 1) * d.perPage + 1 : 0;
  return html`<div class="page-head">
  <h1>Batches</h1>
  <p class="muted">Whole sites: sitemaps, crawls and lists of pages.</p>
</div>
${flashView(d.flash)}
${d.can('batches.write') ? createBatchForm(d.csrf, d.form) : ''}
<section class="card" aria-labelledby="batches-title">
  <div class="card__head">
    <h2 id="batches-title">Your batches</h2>
    <p class="muted">${d.list.total === 0 ? 'None' : html`${from}–${from + d.list.items.length - 1} of ${d.list.total}`}</p>
  </div>
  ${
    d.list.items.length === 0
      ? html`<p class="empty">${d.page > 1 ? 'No batches on this page.' : d.can('batches.write') ? 'No batches yet. Start one above.' : 'No batches yet.'}</p>`
      : html`<ul class="report-list">${d.list.items.map(batchRow)}</ul>`
  }
  ${pager('/dashboard/batches', d.perPage === 10 ? {} : { per_page: String(d.perPage) }, d.page, lastPage, 'Batch pages')}
</section>`;
}

// --- the charts -----------------------------------------------------------------------------

const f1 = (v: number) => v.toFixed(1);

/** Pages per score decile, over the result bands (as the history chart shades them). */
export function histogramChart(histogram: readonly number[]): SafeHtml {
  const W = 640;
  const H = 220;
  const PAD = { left: 40, right: 16, top: 22, bottom: 44 };
  const pw = W - PAD.left - PAD.right;
  const ph = H - PAD.top - PAD.bottom;
  const max = Math.max(1, ...histogram);
  const x = (score: number) => PAD.left + (pw * score) / 100;
  const y = (n: number) => PAD.top + ph * (1 - n / max);
  const { good, decent } = SCORING.bands;
  const bands = [
    { band: 'bad', from: 0, to: decent },
    { band: 'decent', from: decent, to: good },
    { band: 'good', from: good, to: 100 },
  ] as const;
  const total = histogram.reduce((a, b) => a + b, 0);
  const range = (i: number) => `${i * 10}–${i === 9 ? 100 : i * 10 + 9}`;
  const desc = histogram
    .map((n, i) => (n > 0 ? `${range(i)}: ${n}` : ''))
    .filter(Boolean)
    .join('; ');
  const barW = pw / 10;
  const bars = histogram.map((n, i) => {
    const top = y(n);
    return html`<g class="chart__run"><title>Score ${range(i)}: ${plural(n, 'page')}</title>${n > 0 ? html`<rect class="chart__bar" x="${f1(x(i * 10) + 3)}" y="${f1(top)}" width="${f1(barW - 6)}" height="${f1(PAD.top + ph - top)}"/>` : ''}<text class="chart__label" x="${f1(x(i * 10) + barW / 2)}" y="${f1(top - 5)}" text-anchor="middle">${n}</text><text class="chart__axis" x="${f1(x(i * 10) + barW / 2)}" y="${H - PAD.bottom + 14}" text-anchor="middle">${i * 10}</text></g>`;
  });
  return html`<svg class="chart chart--histogram" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="histogram-title histogram-desc">
<title id="histogram-title">Score distribution</title>
<desc id="histogram-desc">${total === 0 ? 'No audited pages yet.' : `Audited pages by score: ${desc}.`}</desc>
${bands.map((b) => html`<rect class="chart__band chart__band--${b.band}" x="${f1(x(b.from))}" y="${PAD.top}" width="${f1(x(b.to) - x(b.from))}" height="${ph}"/><text class="chart__band-label" x="${f1((x(b.from) + x(b.to)) / 2)}" y="${H - 8}" text-anchor="middle">${RESULT_LABELS[b.band]}</text>`)}
<line class="chart__grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${PAD.top + ph}" y2="${PAD.top + ph}"/>
${bars}
<text class="chart__axis" x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end">${max}</text>
<text class="chart__axis" x="${PAD.left - 6}" y="${PAD.top + ph + 4}" text-anchor="end">0</text>
</svg>`;
}

const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The checks that fail on the most pages, as horizontal bars with their page counts. */
export function topIssuesChart(top: BatchSummary['topChecks'], audited: number): SafeHtml {
  const W = 640;
  const ROW = 26;
  const LABEL = 290;
  const PAD = { top: 6, right: 56, bottom: 6 };
  const H = PAD.top + PAD.bottom + ROW * Math.max(1, top.length);
  const max = Math.max(1, audited, ...top.map((t) => t.pages));
  const bw = W - LABEL - PAD.right;
  const rows = top.map((t, i) => {
    const y = PAD.top + i * ROW;
    const w = Math.max(2, (bw * t.pages) / max);
    return html`<g class="chart__run"><title>${t.title} (${t.id}): fails on ${plural(t.pages, 'page')}</title><text class="chart__axis chart__axis--label" x="${LABEL - 8}" y="${y + ROW / 2 + 4}" text-anchor="end">${short(t.title, 44)}</text><rect class="chart__bar chart__bar--issue" x="${LABEL}" y="${y + 4}" width="${f1(w)}" height="${ROW - 8}"/><text class="chart__label" x="${f1(LABEL + w + 6)}" y="${y + ROW / 2 + 4}">${t.pages}</text></g>`;
  });
  return html`<svg class="chart chart--issues" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="issues-title issues-desc">
<title id="issues-title">Checks failing on the most pages</title>
<desc id="issues-desc">${top.length === 0 ? 'No check failed.' : top.map((t) => `${t.title}: ${plural(t.pages, 'page')}`).join('; ')}</desc>
${rows}
</svg>`;
}

// --- the batch page -------------------------------------------------------------------------

export interface BatchPageData {
  csrf: string;
  /** what the viewer may do: a viewer sees no cancel or delete form */
  can: Can;
  flash?: Flash | null;
  batch: Batch;
  findings: Finding[];
  /** the pages table (filtered, sorted, paged) */
  table: Page<BatchPageResult>;
  /** the table's parameters as sent */
  raw: Record<string, string>;
  page: number;
  perPage: number;
  /** the batch's reports (to offer deleting them with it) */
  reportsCount: number;
}

function progressSection(b: Batch): SafeHtml {
  const p = b.progress;
  const finished = p.audited + p.failed + p.skipped;
  const running = isRunning(b);
  return html`<section class="card batch-progress" aria-labelledby="progress-title"${running ? html` data-batch-events="/dashboard/batches/${b.id}/events"` : ''}>
  <h2 id="progress-title">Progress</h2>
  <progress class="batch-progress__bar" max="${Math.max(1, p.discovered)}" value="${running ? finished : Math.max(1, p.discovered)}" aria-labelledby="progress-title">${finished} of ${p.discovered}</progress>
  <p class="batch-progress__counts" aria-live="polite">${progressCounts(b)}.</p>
  <p class="muted batch-progress__reports">Reports: <span data-count="reports_created">${b.reports.created}</span> new, <span data-count="reports_updated">${b.reports.updated}</span> updated (a run added to the page's report).</p>
  ${
    running
      ? html`<p class="muted batch-progress__live" data-live-note>This page follows the batch as it runs. <a href="/dashboard/batches/${b.id}">Refresh</a></p>`
      : html`<p class="muted">Started ${b.startedAt ? formatDate(b.startedAt) : '–'}, ended ${b.finishedAt ? formatDate(b.finishedAt) : '–'}.${b.error && b.status !== 'failed' ? ` ${b.error}` : ''}</p>`
  }
</section>`;
}

function actions(d: BatchPageData): SafeHtml {
  const b = d.batch;
  const id = b.id;
  return html`<div class="batch-actions">
  <a class="button" href="/dashboard/batches/${id}/export?format=csv" download>Download CSV</a>
  <a class="button" href="/dashboard/batches/${id}/export?format=json" download>Download JSON</a>
  <a class="button" href="/dashboard/batches/${id}/links">Links</a>
  ${b.status === 'done' ? html`<a class="button" href="/dashboard/batches/${id}/compare">Compare with previous crawl</a>` : ''}
  ${
    isRunning(b) && d.can('batches.write')
      ? html`<form method="post" action="/dashboard/batches/${id}/cancel" class="inline-form" data-confirm="Cancel this batch? Pages in progress finish; the rest are skipped.">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    <button type="submit" class="button">Cancel batch</button>
  </form>`
      : ''
  }
  ${
    d.can('batches.write')
      ? html`<form method="post" action="/dashboard/batches/${id}/delete" class="inline-form batch-delete" data-confirm="Delete this batch?">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    ${d.reportsCount > 0 ? html`<label class="checkbox"><input type="checkbox" name="reports" value="1"> with its ${plural(d.reportsCount, 'report')}</label>` : ''}
    <button type="submit" class="button button--danger">Delete batch</button>
  </form>`
      : ''
  }
</div>`;
}

const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;
const formatMs = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`);

function urlTable(caption: string, column: string, rows: { url: string; value: string }[]): SafeHtml | '' {
  if (rows.length === 0) return '';
  return html`<div class="table-wrap"><table><caption>${caption}</caption><thead><tr><th scope="col">Page</th><th scope="col">${column}</th></tr></thead><tbody>${rows.map((r) => html`<tr><td>${r.url}</td><td>${r.value}</td></tr>`)}</tbody></table></div>`;
}

export function summarySection(s: BatchSummary): SafeHtml {
  const audited = s.bands.good + s.bands.decent + s.bands.bad;
  const bands = (['good', 'decent', 'bad'] as const).map(
    (b) => html`<li class="band-count">${resultBadge(b)}<span class="band-count__n">${s.bands[b]}</span></li>`,
  );
  return html`<section class="card batch-summary" aria-labelledby="summary-title">
  <h2 id="summary-title">Summary</h2>
  <dl class="project-stats">
    <div><dt>Audited</dt><dd>${audited}</dd></div>
    <div><dt>Average score</dt><dd>${s.averageScore ?? '–'}</dd></div>
    <div><dt>Failed</dt><dd>${s.pages.failed}</dd></div>
    <div><dt>Skipped</dt><dd>${s.pages.skipped}</dd></div>
  </dl>
  <ul class="band-counts" aria-label="Pages by result">${bands}</ul>
  <div class="batch-charts">
    <div class="panel">
      <h3 class="panel__title">Score distribution</h3>
      ${histogramChart(s.histogram)}
    </div>
    <div class="panel">
      <h3 class="panel__title">Top issues</h3>
      ${s.topChecks.length ? topIssuesChart(s.topChecks, audited) : html`<p class="empty">No check failed on any page.</p>`}
    </div>
  </div>
  <div class="batch-extremes">
    ${urlTable('Slowest pages', 'Time', s.slowest.slice(0, 5).map((p) => ({ url: p.url, value: formatMs(p.ms) })))}
    ${urlTable('Largest pages', 'HTML size', s.largest.slice(0, 5).map((p) => ({ url: p.url, value: formatBytes(p.bytes) })))}
  </div>
</section>`;
}

/** Pages of a finding shown before "… and N more" (the exports have them all). */
const FINDING_PAGES = 50;

function findingsSection(findings: Finding[]): SafeHtml {
  const found = findings.filter((f) => f.count > 0 || f.ignored?.length || f.fixed?.length);
  const clean = findings.filter((f) => !found.includes(f));
  return html`<section class="card batch-findings" aria-labelledby="findings-title">
  <h2 id="findings-title">Site-level findings</h2>
  ${
    found.length === 0
      ? html`<p class="empty">Nothing found across the pages.</p>`
      : html`<ul class="finding-list">${found.map(
          (f) => html`<li class="finding" id="finding-${f.id}"><details>
  <summary><span class="finding__title">${f.title}</span> <span class="finding__count">${plural(f.count, 'page')}</span>${f.priority === 'high' ? html` <span class="priority priority--high">High priority</span>` : ''}</summary>
  <ul class="finding__pages">${f.pages.slice(0, FINDING_PAGES).map((p) => html`<li><span class="break">${p.url}</span>${p.detail ? html` <span class="muted">— ${p.detail}</span>` : ''}${pageState(p)}</li>`)}</ul>
  ${f.pages.length > FINDING_PAGES ? html`<p class="details__more">… and ${f.pages.length - FINDING_PAGES} more (in the downloads).</p>` : ''}${findingApart(f)}
</details></li>`,
        )}</ul>`
  }
  ${clean.length ? html`<p class="muted">No problems: ${clean.map((f) => f.title.toLowerCase()).join('; ')}.</p>` : ''}
</section>`;
}

function pagesFilters(id: number, raw: Record<string, string>): SafeHtml {
  return html`<form method="get" action="/dashboard/batches/${id}#pages-title" class="filters" role="search" aria-label="Filter the pages">
  <div class="field field--grow"><label for="bp-search">Search URLs</label><input id="bp-search" name="search" type="search" value="${raw.search ?? ''}"></div>
  <div class="field"><label for="bp-state">State</label><select id="bp-state" name="state">${option('', 'Any state', raw.state ?? '')}${(['done', 'failed', 'skipped', 'queued', 'fetching'] as const).map((s) => option(s, STATE_LABELS[s], raw.state))}</select></div>
  <div class="field"><label for="bp-result">Result</label><select id="bp-result" name="result">${option('', 'Any result', raw.result ?? '')}${option('good', 'Good', raw.result)}${option('decent', 'Decent', raw.result)}${option('bad', 'Bad', raw.result)}</select></div>
  <div class="field"><label for="bp-sort-by">Sort by</label><select id="bp-sort-by" name="sort_by">${option('found', 'Found', raw.sort_by ?? 'found')}${option('url', 'URL', raw.sort_by)}${option('score', 'Score', raw.sort_by)}${option('result', 'Result', raw.sort_by)}${option('status', 'HTTP status', raw.sort_by)}</select></div>
  <div class="field"><label for="bp-sort">Order</label><select id="bp-sort" name="sort">${option('asc', 'Ascending', raw.sort ?? 'asc')}${option('desc', 'Descending', raw.sort)}</select></div>
  <div class="field"><label for="bp-per-page">Per page</label><select id="bp-per-page" name="per_page">${['10', '25', '50', '100'].map((n) => option(n, n, raw.per_page ?? '25'))}</select></div>
  <div class="field field--submit"><button type="submit" class="button">Apply</button></div>
</form>`;
}

/**
 * A custom extraction value as a cell: every match of an `all` extractor joined with " | "; an
 * extractor stopped on the page (it ran out of time) says so, its error in the cell's title.
 */
const extractedCellView = (p: BatchPageResult, name: string) => {
  const error = p.extractErrors?.[name];
  if (error !== undefined)
    return html`<span class="muted" title="${error}">${error.startsWith('Timed out') ? 'timed out' : 'stopped'}</span>`;
  const v = p.extracted?.[name];
  return v === null || v === undefined ? '–' : Array.isArray(v) ? v.join(' | ') : v;
};

function pageRow(p: BatchPageResult, batchId: number, names: readonly string[]): SafeHtml {
  const f = p.facts;
  const audited = p.state === 'done' && f !== null;
  return html`<tr class="batch-page batch-page--${p.state}">
  <td>${p.reportId !== null ? html`<a href="/reports/${p.reportId}" class="break">${p.url}</a>` : html`<span class="break">${p.url}</span>`}${p.canonical ? html`<br><span class="muted break">canonicalised to ${p.canonical}</span>` : ''}${p.error ? html`<br><span class="muted">${p.error}</span>` : ''}<br><a class="muted" href="/dashboard/batches/${batchId}/links?target=${encodeURIComponent(p.url)}">Inlinks and anchors</a></td>
  <td>${STATE_LABELS[p.state]}</td>
  <td>${p.statusCode ?? '–'}</td>
  <td>${audited ? resultBadge(f.result) : '–'}</td>
  <td class="num">${audited ? f.score : '–'}</td>
  <td class="num">${f ? f.failed.length : '–'}</td>${names.map((n) => html`
  <td class="break">${extractedCellView(p, n)}</td>`)}
</tr>`;
}

function pagesSection(d: BatchPageData): SafeHtml {
  // custom extraction: a column per extractor (docs/sites.md)
  const names = (d.batch.options.extractors ?? []).map((e) => e.name);
  const id = d.batch.id;
  const lastPage = Math.max(1, Math.ceil(d.table.total / d.perPage));
  const from = d.table.items.length ? (d.page - 1) * d.perPage + 1 : 0;
  const filtered = ['search', 'state', 'result'].some((k) => (d.raw[k] ?? '') !== '');
  return html`<section class="card" aria-labelledby="pages-title">
  <div class="card__head">
    <h2 id="pages-title">Pages</h2>
    <p class="muted">${d.table.total === 0 ? 'None' : html`${from}–${from + d.table.items.length - 1} of ${d.table.total}`}</p>
  </div>
  ${pagesFilters(id, d.raw)}
  ${
    d.table.items.length === 0
      ? html`<p class="empty">${filtered ? html`No pages match these filters. <a href="/dashboard/batches/${id}">Show all pages</a>` : d.page > 1 ? 'No pages on this page.' : 'No pages yet.'}</p>`
      : html`<div class="table-wrap"><table class="batch-pages">
  <thead><tr><th scope="col">URL</th><th scope="col">State</th><th scope="col">HTTP</th><th scope="col">Result</th><th scope="col">Score</th><th scope="col">Failed checks</th>${names.map((n) => html`<th scope="col">${n}</th>`)}</tr></thead>
  <tbody>${d.table.items.map((p) => pageRow(p, d.batch.id, names))}</tbody>
</table></div>`
  }
  ${pager(`/dashboard/batches/${id}`, d.raw, d.page, lastPage, 'Pages of the table', '#pages-title')}
</section>`;
}

export function batchView(d: BatchPageData): SafeHtml {
  const b = d.batch;
  return html`<div class="page-head">
  <div>
    <p class="eyebrow"><a href="/dashboard/batches">Batches</a> · #${b.id} · ${MODE_LABELS[b.mode] ?? b.mode}${b.options.render ? ' · rendered with a browser' : ''}</p>
    <h1 class="break">${b.url}</h1>
  </div>
  <p>${statusBadge(b)}</p>
</div>
${b.status === 'failed' ? html`<p class="alert alert--error batch-error" role="alert"><strong>The batch failed.</strong> ${b.error ?? 'No page could be audited.'}</p>` : ''}
${flashView(d.flash)}
${actions(d)}
${progressSection(b)}
${b.summary ? summarySection(b.summary) : ''}
${b.summary && b.status !== 'failed' ? findingsSection(d.findings) : ''}
${pagesSection(d)}`;
}
