// The dashboard's compare view (docs/sites.md, "Comparing crawls"): two crawls of a project —
// the site score and band before and after, the verdict with its reasons, the site-level
// findings new, persisting and fixed with their pages, and the pages added, removed and
// changed — custom extraction values included (the first rows of each list; the API's diff has
// them all). The same CrawlDiff the
// API, the webhooks and the CLI read (src/crawl/diff.ts).
// (Like the other views, the templates are kept as written: whitespace in them is content.)
import type {
  CrawlDiff,
  ExtractedChange,
  FindingChange,
  PageChange,
  PageState,
  SiteScore,
} from '../crawl/diff.js';
import { extractedCell } from '../crawl/extract.js';
import { html, type SafeHtml } from './html.js';
import { formatDate, resultBadge } from './report.js';

/** rows shown per list (pages added, removed, changed; a finding's pages) */
const ROWS = 100;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

const FINDING_STATE_LABELS: Record<FindingChange['state'], string> = {
  new: 'New',
  persisting: 'Persisting',
  fixed: 'Fixed',
};

const CHANGE_LABELS: Record<PageChange['changes'][number], string> = {
  status: 'HTTP status',
  redirect: 'redirect',
  title: 'title',
  canonical: 'canonical',
  noindex: 'indexability',
  band: 'band',
  score: 'score',
  checks: 'failed checks',
  extracted: 'extracted values',
};

export interface CompareData {
  /** null: nothing to show (no finished crawl of the project): `error` says why */
  diff: CrawlDiff | null;
  /** the project's name, when the view is the project's (its last two crawls) */
  project: string | null;
  /** why the diff asked for is not shown (a `from` that does not compare, a batch still running) */
  error?: string;
  /** link the crawls to their batch pages (false for a viewer limited to projects); default true */
  linkBatches?: boolean;
}

function siteScore(label: string, s: SiteScore | null): SafeHtml {
  return html`<div><dt>${label}</dt><dd>${s === null ? '–' : html`${s.score} ${resultBadge(s.band)}`}</dd></div>`;
}

const crawlLink = (c: { id: number; finishedAt: string | null }, link = true) =>
  html`${link ? html`<a href="/dashboard/batches/${c.id}">crawl #${c.id}</a>` : `crawl #${c.id}`}${c.finishedAt ? html` <span class="muted">(${formatDate(c.finishedAt)})</span>` : ''}`;

function verdict(d: CrawlDiff): SafeHtml {
  if (d.from === null)
    return html`<p class="alert alert--notice" role="status">This is the project's first finished crawl: there is nothing to compare it with yet.</p>`;
  if (!d.regressed) return html`<p class="alert alert--success compare-verdict" role="status"><strong>No regression.</strong></p>`;
  return html`<div class="alert alert--error compare-verdict" role="alert"><strong>Regressed.</strong><ul>${d.reasons.map((r) => html`<li>${r.message}</li>`)}</ul></div>`;
}

function more(n: number): SafeHtml | '' {
  return n > ROWS ? html`<p class="details__more">… and ${n - ROWS} more (the API's diff, GET /api/v1/batches/{id}/diff, has them all).</p>` : '';
}

function findingItem(f: FindingChange): SafeHtml {
  const pages = f.state === 'persisting' ? f.newPages : f.pages;
  return html`<li class="finding finding--${f.state}" id="finding-${f.id}"><details>
  <summary><span class="badge finding-state finding-state--${f.state}">${FINDING_STATE_LABELS[f.state]}</span> <span class="finding__title">${f.title}</span> <span class="finding__count">${plural(f.pages.length, 'page')}</span>${f.priority === 'high' ? html` <span class="priority priority--high">High priority</span>` : ''}${f.state === 'persisting' ? html` <span class="muted">(${f.newPages.length} new, ${f.fixedPages.length} fixed)</span>` : ''}</summary>
  ${f.state === 'persisting' && pages.length === 0 ? html`<p class="muted">No page newly concerned.</p>` : ''}
  <ul class="finding__pages">${pages.slice(0, ROWS).map((p) => html`<li><span class="break">${p.url}</span>${p.detail ? html` <span class="muted">— ${p.detail}</span>` : ''}</li>`)}</ul>
  ${more(pages.length)}
</details></li>`;
}

function findingsSection(findings: FindingChange[]): SafeHtml {
  return html`<section class="card compare-findings" aria-labelledby="compare-findings-title">
  <h2 id="compare-findings-title">Site-level findings</h2>
  ${findings.length === 0 ? html`<p class="empty">No site-level finding in either crawl.</p>` : html`<ul class="finding-list">${findings.map(findingItem)}</ul>`}
</section>`;
}

const band = (s: PageState) => (s.band === null ? '–' : resultBadge(s.band));

function pageList(id: string, title: string, pages: (PageState & { url: string })[]): SafeHtml | '' {
  if (pages.length === 0) return '';
  const rows = pages
    .slice(0, ROWS)
    .map(
      (p) =>
        html`<tr><td class="break">${p.url}${p.redirect ? html`<br><span class="muted">redirects to ${p.redirect}</span>` : ''}</td><td>${p.status ?? '–'}</td><td>${band(p)}</td><td class="num">${p.score ?? '–'}</td></tr>`,
    );
  return html`<div class="table-wrap"><table id="${id}"><caption>${title} (${pages.length})</caption><thead><tr><th scope="col">Page</th><th scope="col">HTTP status</th><th scope="col">Result</th><th scope="col" class="num">Score</th></tr></thead><tbody>${rows}</tbody></table></div>${more(pages.length)}`;
}

/** An extracted value as the changes show it: quoted (an `all` extractor's values joined with " | "), or "none". */
const value = (v: ExtractedChange['before']) => (v === null ? 'none' : `“${extractedCell(v)}”`);

function changeDetail(c: PageChange): SafeHtml {
  const a = c.before;
  const b = c.after;
  const parts: string[] = [];
  if (c.changes.includes('status')) parts.push(`HTTP ${a.status ?? 'no answer'} → ${b.status ?? 'no answer'}`);
  if (c.changes.includes('redirect')) parts.push(`redirect ${a.redirect ?? 'none'} → ${b.redirect ?? 'none'}`);
  if (c.changes.includes('title')) parts.push(`title “${a.title ?? ''}” → “${b.title ?? ''}”`);
  if (c.changes.includes('canonical')) parts.push(`canonical ${a.canonical ?? 'itself'} → ${b.canonical ?? 'itself'}`);
  if (c.changes.includes('noindex')) parts.push(b.noindex ? 'now noindex' : 'indexable again');
  if (c.checks.new.length > 0) parts.push(`newly failed: ${c.checks.new.map((x) => x.title).join(', ')}`);
  if (c.checks.fixed.length > 0) parts.push(`fixed: ${c.checks.fixed.map((x) => x.title).join(', ')}`);
  for (const x of c.extracted) parts.push(`${x.name} ${value(x.before)} → ${value(x.after)}`);
  return html`${parts.map((p, i) => html`${i > 0 ? html`<br>` : ''}${p}`)}`;
}

const delta = (n: number | null) => (n === null ? '–' : n > 0 ? `+${n}` : String(n));

function changedList(pages: PageChange[]): SafeHtml | '' {
  if (pages.length === 0) return '';
  const rows = pages
    .slice(0, ROWS)
    .map(
      (c) =>
        html`<tr><td class="break">${c.url}<br><span class="muted">${c.changes.map((x) => CHANGE_LABELS[x]).join(', ')}</span></td><td>${changeDetail(c)}</td><td>${band(c.before)} → ${band(c.after)}</td><td class="num">${delta(c.scoreDelta)}</td></tr>`,
    );
  return html`<div class="table-wrap"><table id="pages-changed"><caption>Changed (${pages.length})</caption><thead><tr><th scope="col">Page</th><th scope="col">What changed</th><th scope="col">Result</th><th scope="col" class="num">Score change</th></tr></thead><tbody>${rows}</tbody></table></div>${more(pages.length)}`;
}

function head(project: string | null, to: number | null): SafeHtml {
  return project !== null
    ? html`<a href="/dashboard/projects">Projects</a> · ${project}`
    : html`<a href="/dashboard/batches">Batches</a>${to !== null ? html` · <a href="/dashboard/batches/${to}">#${to}</a>` : ''}`;
}

export function compareView(data: CompareData): SafeHtml {
  const d = data.diff;
  const error = data.error ? html`<p class="alert alert--error" role="alert">${data.error}</p>` : '';
  if (d === null)
    return html`<div class="page-head"><div><p class="eyebrow">${head(data.project, null)}</p><h1>Compare crawls</h1></div></div>
${error}`;
  const s = d.summary;
  return html`<div class="page-head">
  <div>
    <p class="eyebrow">${head(data.project, d.to.id)}</p>
    <h1>Compare crawls</h1>
    <p class="compare-crawls">${d.from ? html`${crawlLink(d.from, data.linkBatches ?? true)} → ` : ''}${crawlLink(d.to, data.linkBatches ?? true)}</p>
  </div>
</div>
${error}
${verdict(d)}
<section class="card compare-summary" aria-labelledby="compare-summary-title">
  <h2 id="compare-summary-title">Summary</h2>
  <dl class="project-stats">
    ${siteScore('Site score before', s.site.before)}
    ${siteScore('Site score after', s.site.after)}
    <div><dt>Pages added</dt><dd>${s.pages.added}</dd></div>
    <div><dt>Pages removed</dt><dd>${s.pages.removed}</dd></div>
    <div><dt>Pages changed</dt><dd>${s.pages.changed}</dd></div>
    <div><dt>Dropped a band</dt><dd>${s.pages.bandsDropped}</dd></div>
    <div><dt>New findings</dt><dd>${s.findings.new}</dd></div>
    <div><dt>Fixed findings</dt><dd>${s.findings.fixed}</dd></div>
    ${s.extracted.names.length > 0 ? html`<div><dt>Extracted values changed</dt><dd>${plural(s.extracted.changed, 'page')}</dd></div>` : ''}
  </dl>
  <p class="muted">The site score is the mean of the audited pages' scores, rounded, banded as a report's score is.${s.extracted.names.length > 0 ? html` Custom extraction compared: ${s.extracted.names.join(', ')} (the extractors both crawls have).` : ''}</p>
</section>
${d.from ? findingsSection(d.findings) : ''}
${d.from ? html`<section class="card compare-pages" aria-labelledby="compare-pages-title">
  <h2 id="compare-pages-title">Pages</h2>
  ${s.pages.added + s.pages.removed + s.pages.changed === 0 ? html`<p class="empty">No page changed.</p>` : ''}
  ${pageList('pages-added', 'Added', d.pages.added)}
  ${pageList('pages-removed', 'Removed', d.pages.removed)}
  ${changedList(d.pages.changed)}
</section>` : ''}`;
}
