// The branded PDF of a report (docs/rendering.md, "Branded PDFs"): one self-contained HTML
// document that Chromium prints (Renderer.pdf) — the app's stylesheet inline, images as data:
// URLs, no script, nothing to fetch. In page order: a cover with the owner's branding (logo as
// an <img> from a data: URL, never inlined SVG), the score and the result; the category
// summaries and page facts; the history chart where there is one; every failed check by
// priority with how to fix it; what JavaScript changed (rendered audits); the full check list.
// Page numbers and the footer are Chromium's footerTemplate (pdfFooter).
import { CATEGORIES, PRIORITIES, type CheckResult } from '../analyzer/types.js';
import { CATEGORY_NAMES, PRIORITY_LABELS, RESULT_LABELS } from '../analyzer/vocabulary.js';
import type { Branding } from '../services/branding/types.js';
import type { StoredReport } from '../services/reports/types.js';
import { escapeHtml, html, raw, type SafeHtml } from './html.js';
import { renderSection } from './render-section.js';
import {
  categoriesSection,
  factsSection,
  formatDate,
  gauge,
  ICONS,
  pageTitle,
  renderCheck,
  resultBadge,
  shortValue,
  sortChecks,
  STATE_LABELS,
  stateOf,
} from './report.js';

/** The name on an unbranded PDF. */
export const DEFAULT_BRAND = 'Pagegrade';

/** What only the PDF needs on top of the app's stylesheet (its print rules apply too). */
const PDF_CSS = `
body.pdf { background: #fff; margin: 0; }
.pdf main { max-width: none; padding: 0; }
.pdf-cover { break-after: page; min-height: 250mm; display: flex; flex-direction: column; gap: 10mm; }
.pdf-cover__bar { height: 8mm; border-radius: 2mm; background: var(--accent); }
.pdf-cover__brand { display: flex; align-items: center; gap: 6mm; }
.pdf-cover__logo { max-height: 24mm; max-width: 70mm; object-fit: contain; }
.pdf-cover__name { font-size: 20pt; font-weight: 700; color: var(--accent); margin: 0; }
.pdf-cover__kind { font-size: 11pt; text-transform: uppercase; letter-spacing: 0.08em; color: var(--muted); margin: 0; }
.pdf-cover__title { font-size: 22pt; line-height: 1.2; margin: 0; overflow-wrap: anywhere; }
.pdf-cover__url { font-family: var(--mono); font-size: 10pt; color: var(--muted); margin: 0; overflow-wrap: anywhere; }
.pdf-cover__score { display: flex; align-items: center; gap: 8mm; }
.pdf-cover__score .gauge { width: 48mm; height: 48mm; }
.pdf-cover__result { font-size: 14pt; margin: 0; }
.pdf-cover__facts { margin: auto 0 0; display: grid; gap: 2mm; font-size: 10.5pt; }
.pdf-cover__facts div { display: flex; gap: 3mm; }
.pdf-cover__facts dt { font-weight: 600; min-width: 34mm; }
.pdf-cover__facts dd { margin: 0; overflow-wrap: anywhere; }
.pdf-cover__online { color: var(--accent); }
.pdf-section { break-before: page; }
.pdf-section--flow { break-before: auto; margin-top: 8mm; }
.pdf-cover__score .badge { font-size: 12pt; padding: 1mm 3mm; }
.pdf-cover__score .badge .icon { width: 12pt; height: 12pt; }
.pdf-section > h2 { color: var(--accent); border-bottom: 2px solid var(--accent); padding-bottom: 1.5mm; }
.pdf-summary { display: grid; gap: 5mm; }
.pdf-priority h3 { margin: 5mm 0 2mm; }
.pdf-none { color: var(--muted); }
.pdf-all { width: 100%; border-collapse: collapse; font-size: 8.5pt; table-layout: fixed; }
.pdf-all th, .pdf-all td { text-align: left; vertical-align: top; padding: 1mm 1.5mm; border-bottom: 1px solid var(--border); overflow-wrap: anywhere; }
.pdf-all thead th { border-bottom: 1.5px solid var(--border-strong); }
.pdf-all tr { break-inside: avoid; }
.pdf-all .col-state { width: 27mm; }
.pdf-all .col-priority { width: 18mm; }
.pdf-all .col-found { width: 55mm; }
.pdf-all .icon { width: 10px; height: 10px; vertical-align: -1px; margin-right: 1mm; }
.pdf-all h3 { margin: 0; }
.pdf-all caption { text-align: left; font-weight: 700; font-size: 11pt; padding: 3mm 0 1.5mm; color: var(--accent); }
`;

/** The accent colour as CSS: only ever a validated #rrggbb (the service stores nothing else). */
function accentOf(b: Branding): string {
  return b.accentColor && /^#[0-9a-f]{6}$/i.test(b.accentColor) ? b.accentColor : '#1d4ed8';
}

function cover(report: StoredReport, b: Branding, onlineUrl: string): SafeHtml {
  const title = pageTitle(report);
  const name = b.name ?? DEFAULT_BRAND;
  return html`<section class="pdf-cover" aria-label="Cover">
  <div class="pdf-cover__bar"></div>
  <div class="pdf-cover__brand">
    ${b.logo ? html`<img class="pdf-cover__logo" src="${b.logo.dataUrl}" alt="${name}">` : ''}
    <div>
      <p class="pdf-cover__name">${name}</p>
      <p class="pdf-cover__kind">Website audit report</p>
    </div>
  </div>
  <div>
    <h1 class="pdf-cover__title">${title ?? report.url}</h1>
    ${title ? html`<p class="pdf-cover__url">${report.url}</p>` : ''}
  </div>
  <div class="pdf-cover__score band-${report.result}">
    ${gauge(report.score, report.result)}
    <div>
      <p class="pdf-cover__result">Score <strong>${report.score}</strong> out of 100</p>
      <p>${resultBadge(report.result)}</p>
    </div>
  </div>
  <dl class="pdf-cover__facts">
    ${b.preparedFor ? html`<div><dt>Prepared for</dt><dd>${b.preparedFor}</dd></div>` : ''}
    <div><dt>Prepared by</dt><dd>${name}</dd></div>
    <div><dt>Audited</dt><dd>${formatDate(report.generatedAt)}</dd></div>
    <div><dt>Result</dt><dd>${RESULT_LABELS[report.result]}, ${report.score} out of 100</dd></div>
    ${b.contact ? html`<div><dt>Contact</dt><dd>${b.contact}</dd></div>` : ''}
    <div><dt>Online report</dt><dd><a class="pdf-cover__online" href="${onlineUrl}">${onlineUrl}</a></dd></div>
  </dl>
</section>`;
}

/** Every failed check, grouped by priority (high first), in full with how to fix it. */
function failedByPriority(report: StoredReport): SafeHtml {
  const failed = sortChecks(Object.values(report.results).filter((c) => c.passed === false));
  const groups = PRIORITIES.map((p) => {
    const list = failed.filter((c) => c.priority === p);
    if (list.length === 0) return '';
    return html`<div class="pdf-priority">
  <h3>${PRIORITY_LABELS[p]} priority (${list.length})</h3>
  <ol class="checks">${list.map(renderCheck)}</ol>
</div>`;
  });
  // right after the summary (no page break of its own): page two is not left half empty
  return html`<section class="pdf-section pdf-section--flow" aria-labelledby="pdf-failed-title">
  <h2 id="pdf-failed-title">Failed checks by priority</h2>
  ${failed.length === 0 ? html`<p class="pdf-none">Nothing failed: every check that could be judged passed.</p>` : groups}
</section>`;
}

/** Every check, one line each, by category (failed first). */
function allChecks(report: StoredReport): SafeHtml {
  const row = (c: CheckResult) => {
    const state = stateOf(c);
    return html`<tr class="check--${state}"><td>${ICONS[state]}${STATE_LABELS[state]}</td><td>${c.title}</td><td>${PRIORITY_LABELS[c.priority]}</td><td>${shortValue(c.value)}</td></tr>`;
  };
  const tables = CATEGORIES.map((cat) => {
    const list = sortChecks(Object.values(report.results).filter((c) => c.category === cat));
    if (list.length === 0) return '';
    const s = report.categories[cat];
    return html`<table class="pdf-all">
  <caption>${CATEGORY_NAMES[cat]}${s ? html` · ${s.score}/100 · ${s.passed} passed · ${s.failed} failed` : ''}</caption>
  <colgroup><col class="col-state"><col><col class="col-priority"><col class="col-found"></colgroup>
  <thead><tr><th scope="col">State</th><th scope="col">Check</th><th scope="col">Priority</th><th scope="col">Found</th></tr></thead>
  <tbody>${list.map(row)}</tbody>
</table>`;
  });
  return html`<section class="pdf-section" aria-labelledby="pdf-all-title">
  <h2 id="pdf-all-title">Every check</h2>
  ${tables}
</section>`;
}

export interface PdfDocumentOptions {
  branding: Branding;
  /** the report's history section (views/history.ts), '' when it has a single run */
  history: SafeHtml | '';
  /** the app's stylesheet (inlined: the document fetches nothing) */
  css: string;
  /** the report's page online (printed on the cover, a clickable link in the PDF) */
  onlineUrl: string;
}

/** The whole document Chromium prints. */
export function pdfDocument(report: StoredReport, o: PdfDocumentOptions): string {
  const b = o.branding;
  const name = b.name ?? DEFAULT_BRAND;
  // the app's stylesheet is the app's own text; only the accent is spliced in, and only as #rrggbb
  const style = raw(`${o.css}\n${PDF_CSS}\n:root { --accent: ${accentOf(b)}; --primary: ${accentOf(b)}; }\n`);
  const rendered = renderSection(report);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${name} · Audit report for ${report.url}</title>
<style>${style}</style>
</head>
<body class="pdf">
<main>
${cover(report, b, o.onlineUrl)}
<section class="pdf-section pdf-summary" aria-label="Summary">
  <h2>Summary</h2>
  ${categoriesSection(report)}
  ${factsSection(report)}
  ${o.history}
</section>
${failedByPriority(report)}
${rendered ? html`<div class="pdf-section">${rendered}</div>` : ''}
${allChecks(report)}
</main>
</body>
</html>
`.value;
}

/**
 * Chromium's footer on every page: the brand and the report's URL, and "Page n of N". The
 * template is printed apart from the document: its styles must be inline, and the text is
 * escaped here (it is HTML).
 */
export function pdfFooter(report: StoredReport, branding: Branding): string {
  const name = branding.name ?? DEFAULT_BRAND;
  const url = report.url.length > 80 ? `${report.url.slice(0, 79)}…` : report.url;
  return `<div style="font: 8px system-ui, sans-serif; color: #555; width: 100%; padding: 0 14mm; display: flex; justify-content: space-between; gap: 4mm;">
<span>${escapeHtml(name)} · ${escapeHtml(url)} · ${escapeHtml(formatDate(report.generatedAt))}</span>
<span style="white-space: nowrap;">Page <span class="pageNumber"></span> of <span class="totalPages"></span></span>
</div>`;
}

/** The page a browser gets instead of a PDF (no Chromium, or it failed): why, and the print fallback. */
export function pdfUnavailableView(reportId: number, why: string): SafeHtml {
  return html`<section class="card" aria-labelledby="pdf-error-title">
  <h1 id="pdf-error-title">The PDF could not be made</h1>
  <p class="alert alert--error" role="alert">${why}</p>
  <p><a class="button" href="/reports/${reportId}">Back to the report</a> — its <strong>Print or save as PDF</strong> button prints it from your browser.</p>
</section>`;
}
