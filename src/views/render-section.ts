// The report page's "What JavaScript changed" section, for rendered audits (docs/rendering.md):
// how the page was rendered, the checks whose outcome JavaScript changed (raw → rendered),
// what the DOM gained, requests refused by the guard, and axe-core's accessibility findings
// by impact (not scored). Nothing for raw audits.
import type { RenderInfo } from '../analyzer/rendered.js';
import { AXE_IMPACTS } from '../analyzer/rendered.js';
import type { StoredReport } from '../services/reports/types.js';
import { html, type SafeHtml } from './html.js';

const state = (passed: boolean | null) => (passed === true ? 'passed' : passed === false ? 'failed' : 'not judged');

export function renderSection(report: Pick<StoredReport, 'render'>): SafeHtml | '' {
  const r: RenderInfo | null | undefined = report.render;
  if (!r) return '';
  if (r.status === 'inconclusive') {
    return html`<section class="panel render" id="rendered" aria-labelledby="rendered-title">
  <h2 id="rendered-title">What JavaScript changed</h2>
  <p>The page could not be rendered in the browser (${r.reason ?? 'no reason given'}): the results below are those of the HTML the server sent.</p>
</section>`;
  }
  const dom = r.dom;
  const rows: [string, { raw: number; rendered: number }][] = [
    ['Links', dom.links],
    ['Headings', dom.headings],
    ['Words', dom.words],
    ['Images', dom.images],
    ['Elements', dom.elements],
  ];
  const a11y = r.accessibility;
  return html`<section class="panel render" id="rendered" aria-labelledby="rendered-title">
  <h2 id="rendered-title">What JavaScript changed</h2>
  <p class="muted">Rendered in headless Chromium in ${r.timings.total_ms} ms with ${r.requests} request${r.requests === 1 ? '' : 's'}; the score of the HTML as sent was ${r.raw.score}, rendered it is scored on the page as visitors see it.</p>
  ${
    r.differences.length === 0
      ? html`<p>JavaScript changed the outcome of no check.</p>`
      : html`<table class="render__diff">
    <caption>Checks whose outcome JavaScript changed</caption>
    <thead><tr><th scope="col">Check</th><th scope="col">HTML as sent</th><th scope="col">Rendered</th></tr></thead>
    <tbody>${r.differences.map(
      (d) =>
        html`<tr><th scope="row">${d.rendered.title}</th><td>${state(d.raw.passed)}: ${d.raw.message}</td><td>${state(d.rendered.passed)}: ${d.rendered.message}</td></tr>`,
    )}</tbody>
  </table>`
  }
  <table class="render__dom">
    <caption>The page before and after JavaScript</caption>
    <thead><tr><th scope="col"></th><th scope="col">HTML as sent</th><th scope="col">Rendered</th></tr></thead>
    <tbody>${rows.map(([label, v]) => html`<tr><th scope="row">${label}</th><td>${v.raw}</td><td>${v.rendered}</td></tr>`)}</tbody>
  </table>
  ${r.refused_count > 0 ? html`<p class="muted">${r.refused_count} request${r.refused_count === 1 ? ' was' : 's were'} refused (private addresses, WebSockets, budgets).</p>` : ''}
  ${
    a11y
      ? html`<h3>Accessibility (axe-core)</h3>
  <p>${AXE_IMPACTS.map((i, n) => html`${n ? ' · ' : ''}${a11y.counts[i] ?? 0} ${i}`)} — not part of the score.</p>
  ${a11y.violations.length ? html`<ul class="render__axe">${a11y.violations.slice(0, 30).map((v) => html`<li><strong>${v.impact}</strong>: ${v.help} (${v.nodes} element${v.nodes === 1 ? '' : 's'}${v.targets.length ? html`, e.g. <code>${v.targets[0]!}</code>` : ''})</li>`)}</ul>` : ''}`
      : ''
  }
</section>`;
}
