// A share link's page for a project (docs/teams.md "Share links"): the project's latest crawl as
// the batch page shows it — the site score, progress, the summary (bands, charts, slowest and
// largest pages), the site-level findings grouped by priority with their pages, and the pages
// table (paged within the share) — read-only: no form, no link to the dashboard, to a report or
// to any other page of the owner's (a shared link never reveals other reports); its only links
// are the share's own pages of the table.
import { PRIORITIES, type Priority } from '../analyzer/types.js';
import type { Page } from '../contract/lists.js';
import type { BatchPageResult, Finding } from '../services/batches/types.js';
import type { ProjectDetail } from '../services/projects/types.js';
import type { Batch } from '../services/batches/types.js';
import { pager, statusBadge, summarySection } from './batches.js';
import { html, type SafeHtml } from './html.js';
import { formatDate, resultBadge } from './report.js';

export interface SharedCrawl {
  batch: Batch;
  findings: Finding[];
  table: Page<BatchPageResult>;
  page: number;
  perPage: number;
}

export interface SharedProjectPage {
  project: ProjectDetail;
  /** the crawl shown: the newest finished one, else the newest; null when never crawled */
  crawl: SharedCrawl | null;
  /** the share's own address (/s/<token>): the table's pages link there */
  path: string;
  notices: string[];
}

const PRIORITY_TITLES: Record<Priority, string> = {
  high: 'High priority',
  medium: 'Medium priority',
  low: 'Low priority',
};
const STATE_LABELS: Record<BatchPageResult['state'], string> = {
  queued: 'Queued',
  fetching: 'In progress',
  done: 'Audited',
  failed: 'Failed',
  skipped: 'Skipped',
};
/** pages of a finding shown (the owner's downloads have them all) */
const FINDING_PAGES = 50;
const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

function findingItem(f: Finding): SafeHtml {
  return html`<li class="finding" id="finding-${f.id}"><details>
  <summary><span class="finding__title">${f.title}</span> <span class="finding__count">${plural(f.count, 'page')}</span></summary>
  <ul class="finding__pages">${f.pages.slice(0, FINDING_PAGES).map((p) => html`<li><span class="break">${p.url}</span>${p.detail ? html` <span class="muted">— ${p.detail}</span>` : ''}${p.state === 'new' ? html` <span class="badge badge--new">new</span>` : p.state === 'persisting' ? html` <span class="badge badge--persisting">persisting</span>` : ''}</li>`)}</ul>
  ${f.pages.length > FINDING_PAGES ? html`<p class="details__more">… and ${f.pages.length - FINDING_PAGES} more.</p>` : ''}
</details></li>`;
}

function findingsSection(findings: Finding[]): SafeHtml {
  const found = findings.filter((f) => f.count > 0);
  const clean = findings.filter((f) => f.count === 0);
  const groups = PRIORITIES.map((priority) => ({ priority, items: found.filter((f) => f.priority === priority) })).filter(
    (g) => g.items.length > 0,
  );
  return html`<section class="card batch-findings" aria-labelledby="findings-title">
  <h2 id="findings-title">Site-level findings</h2>
  ${
    groups.length === 0
      ? html`<p class="empty">Nothing found across the pages.</p>`
      : groups.map(
          (g) => html`<h3 class="priority-group" id="priority-${g.priority}">${PRIORITY_TITLES[g.priority]} (${g.items.length})</h3>
  <ul class="finding-list">${g.items.map(findingItem)}</ul>`,
        )
  }
  ${clean.length ? html`<p class="muted">No problems: ${clean.map((f) => f.title.toLowerCase()).join('; ')}.</p>` : ''}
</section>`;
}

function pageRow(p: BatchPageResult): SafeHtml {
  const f = p.facts;
  const audited = p.state === 'done' && f !== null;
  return html`<tr class="batch-page batch-page--${p.state}">
  <td><span class="break">${p.url}</span>${p.canonical ? html`<br><span class="muted break">canonicalised to ${p.canonical}</span>` : ''}${p.error ? html`<br><span class="muted">${p.error}</span>` : ''}</td>
  <td>${STATE_LABELS[p.state]}</td>
  <td>${p.statusCode ?? '–'}</td>
  <td>${audited ? resultBadge(f.result) : '–'}</td>
  <td class="num">${audited ? f.score : '–'}</td>
  <td class="num">${f ? f.failed.length : '–'}</td>
</tr>`;
}

function pagesSection(c: SharedCrawl, path: string): SafeHtml {
  const lastPage = Math.max(1, Math.ceil(c.table.total / c.perPage));
  const from = c.table.items.length ? (c.page - 1) * c.perPage + 1 : 0;
  return html`<section class="card" aria-labelledby="pages-title">
  <div class="card__head">
    <h2 id="pages-title">Pages</h2>
    <p class="muted">${c.table.total === 0 ? 'None' : html`${from}–${from + c.table.items.length - 1} of ${c.table.total}`}</p>
  </div>
  ${
    c.table.items.length === 0
      ? html`<p class="empty">${c.page > 1 ? 'No pages on this page.' : 'No pages.'}</p>`
      : html`<div class="table-wrap"><table class="batch-pages">
  <thead><tr><th scope="col">URL</th><th scope="col">State</th><th scope="col">HTTP</th><th scope="col">Result</th><th scope="col">Score</th><th scope="col">Failed checks</th></tr></thead>
  <tbody>${c.table.items.map(pageRow)}</tbody>
</table></div>`
  }
  ${pager(path, {}, c.page, lastPage, 'Pages of the table', '#pages-title')}
</section>`;
}

function crawlSections(c: SharedCrawl, path: string): SafeHtml {
  const b = c.batch;
  const p = b.progress;
  return html`<section class="card" aria-labelledby="crawl-title">
  <h2 id="crawl-title">Crawl of <span class="break">${b.url}</span> ${statusBadge(b)}</h2>
  <p class="muted">Started <time datetime="${b.createdAt}">${formatDate(b.createdAt)}</time>${b.finishedAt ? html`, ended <time datetime="${b.finishedAt}">${formatDate(b.finishedAt)}</time>` : ''}. ${plural(p.audited, 'page')} audited, ${p.failed} failed, ${p.skipped} skipped.</p>
  ${b.status === 'failed' ? html`<p class="alert alert--error" role="alert"><strong>The crawl failed.</strong> ${b.error ?? 'No page could be audited.'}</p>` : ''}
</section>
${b.summary ? summarySection(b.summary) : ''}
${b.summary && b.status !== 'failed' ? findingsSection(c.findings) : ''}
${pagesSection(c, path)}`;
}

export function sharedProjectView(d: SharedProjectPage): SafeHtml {
  const p = d.project;
  return html`<div class="page-head">
      <h1>${p.project.project}</h1>
      <p class="muted">The latest crawl of this site, shared read-only.</p>
    </div>
    ${d.notices.map((n) => html`<p class="alert alert--notice" role="status">${n}</p>`)}
    <section class="card" aria-labelledby="shared-score">
      <h2 id="shared-score">Site score: ${p.siteScore === null ? 'not yet' : html`${p.siteScore} ${p.band ? resultBadge(p.band) : ''}`}</h2>
    </section>
    ${d.crawl ? crawlSections(d.crawl, d.path) : html`<p class="empty">This project has not been crawled yet.</p>`}`;
}
