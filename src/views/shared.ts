// A share link's page for a project (docs/teams.md "Share links"): the project's latest crawl
// as figures — site score, pages audited, when — read-only, with no link anywhere (not to the
// dashboard, not to the crawl's reports: a shared link never reveals other reports).
import type { ProjectDetail } from '../services/projects/types.js';
import { html, type SafeHtml } from './html.js';
import { formatDate } from './report.js';

export function sharedProjectView(p: ProjectDetail): SafeHtml {
  const crawl = p.latestCrawl;
  const figures = crawl
    ? html`<dl class="facts">
        <dt>Crawl</dt><dd>${crawl.url} · ${crawl.status}</dd>
        <dt>Started</dt><dd><time datetime="${crawl.createdAt}">${formatDate(crawl.createdAt)}</time></dd>
        ${crawl.finishedAt ? html`<dt>Finished</dt><dd><time datetime="${crawl.finishedAt}">${formatDate(crawl.finishedAt)}</time></dd>` : ''}
        <dt>Pages audited</dt><dd>${crawl.progress.audited}</dd>
        <dt>Pages failed</dt><dd>${crawl.progress.failed}</dd>
      </dl>`
    : html`<p class="empty">This project has not been crawled yet.</p>`;
  return html`<div class="page-head">
      <h1>${p.project.project}</h1>
      <p class="muted">The latest crawl of this site, shared read-only.</p>
    </div>
    <section class="card" aria-labelledby="shared-score">
      <h2 id="shared-score">Site score: ${p.siteScore === null ? 'not yet' : `${p.siteScore} (${p.band ?? ''})`}</h2>
      ${figures}
    </section>`;
}
