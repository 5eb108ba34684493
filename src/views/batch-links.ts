// The dashboard's link graph of a batch (docs/sites.md "The link graph"): its links, filtered by
// source page, target, the target's status and internal/external, 50 a page; with a target, the
// URL's place in the graph first — its inlinks, the pages they are on, its outlinks, its depth
// and the anchor texts most used to link to it. Each source and target links to its own view.
// (Like the other views, the templates are kept as written: whitespace in them is content.)
import type { BatchLink, PageLinkSummary } from '../services/batches/types.js';
import type { Page } from '../contract/lists.js';
import { html, type SafeHtml } from './html.js';

export interface BatchLinksData {
  batchId: number;
  /** the filters as given (the form shows them) */
  filters: { source?: string; target?: string; status?: string; internal?: string };
  list: Page<BatchLink>;
  page: number;
  perPage: number;
  /** the target's summary, when the view is filtered by a target the batch has */
  summary: PageLinkSummary | null;
  /** why the filters were not applied (a bad status or internal value) */
  error?: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function linkTo(d: BatchLinksData, set: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...d.filters, ...set })) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `/dashboard/batches/${d.batchId}/links${s ? `?${s}` : ''}`;
}

function summaryView(s: PageLinkSummary): SafeHtml {
  return html`<section class="card batch-link-summary" aria-labelledby="link-summary-title">
  <h2 id="link-summary-title" class="break">${s.url}</h2>
  <p>${s.page ? html`Depth ${s.page.depth} · HTTP ${s.page.statusCode ?? '–'} · ` : html`Not a page of this batch · `}<span data-inlinks="${s.inlinks}">${plural(s.inlinks, 'inlink')}</span> from ${plural(s.inlinkingPages, 'page')} · ${plural(s.outlinks, 'outlink')} (${s.internalOutlinks} internal, ${s.externalOutlinks} external)</p>
  ${s.topAnchors.length ? html`<h3>Top anchor texts</h3><ol class="anchor-list">${s.topAnchors.map((a) => html`<li>${a.text === '' ? html`<span class="muted">(no text)</span>` : a.text} <span class="muted">× ${a.count}</span></li>`)}</ol>` : ''}
</section>`;
}

export function batchLinksView(d: BatchLinksData): SafeHtml {
  const f = d.filters;
  const lastPage = Math.max(1, Math.ceil(d.list.total / d.perPage));
  const from = (d.page - 1) * d.perPage + 1;
  return html`<div class="page-head">
  <h1>Links of batch #${d.batchId}</h1>
  <p><a href="/dashboard/batches/${d.batchId}">Back to the batch</a> · <a href="/api/v1/batches/${d.batchId}/links?format=csv">CSV (API)</a></p>
</div>
${d.error ? html`<p class="alert alert--error" role="alert">${d.error}</p>` : ''}
${d.summary ? summaryView(d.summary) : ''}
<section class="card" aria-labelledby="links-title">
  <h2 id="links-title">Links</h2>
  <form method="get" action="/dashboard/batches/${d.batchId}/links" class="filters">
    <label for="links-source">Source page</label> <input id="links-source" name="source" type="text" inputmode="url" value="${f.source ?? ''}">
    <label for="links-target">Target</label> <input id="links-target" name="target" type="text" inputmode="url" value="${f.target ?? ''}">
    <label for="links-status">Target status</label> <input id="links-status" name="status" type="text" placeholder="404, 4xx or none" value="${f.status ?? ''}">
    <label for="links-internal">Where</label> <select id="links-internal" name="internal"><option value="">Anywhere</option><option value="true"${f.internal === 'true' ? ' selected' : ''}>Within the site</option><option value="false"${f.internal === 'false' ? ' selected' : ''}>Elsewhere</option></select>
    <button type="submit" class="button">Filter</button>
  </form>
  <p class="muted">${d.list.total === 0 ? 'No links' : html`${from}–${from + d.list.items.length - 1} of ${d.list.total}`}</p>
  ${d.list.items.length ? html`<div class="table-wrap"><table class="batch-links"><thead><tr><th scope="col">Source</th><th scope="col">Target</th><th scope="col">Anchor text</th><th scope="col">rel</th><th scope="col">Target status</th></tr></thead><tbody>${d.list.items.map(
    (l) => html`<tr><td><a class="break" href="${linkTo({ ...d, filters: {} }, { source: l.source })}">${l.source}</a></td><td><a class="break" href="${linkTo({ ...d, filters: {} }, { target: l.target })}">${l.target}</a>${l.internal ? '' : html` <span class="muted">(external)</span>`}</td><td>${l.anchor}</td><td>${l.rel ?? ''}</td><td>${l.targetStatus ?? html`<span class="muted">not fetched</span>`}</td></tr>`,
  )}</tbody></table></div>` : ''}
  ${lastPage > 1 ? html`<nav class="pager" aria-label="Links pages">${d.page > 1 ? html`<a class="button" href="${linkTo(d, { page: d.page - 1 })}" rel="prev">Previous</a>` : ''} <span>Page ${d.page} of ${lastPage}</span> ${d.page < lastPage ? html`<a class="button" href="${linkTo(d, { page: d.page + 1 })}" rel="next">Next</a>` : ''}</nav>` : ''}
</section>`;
}
