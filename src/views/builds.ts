// The dashboard's builds (issue 23 §2; docs/ci.md "Builds"): a build's page — its commit, branch,
// base and the comparison table (compareBuild's object, as the API answers it) — and the project
// page's "Builds" section, the newest builds linked to their pages.
import type { BuildComparison } from '../services/builds/compare.js';
import type { BuildRow } from '../services/builds/types.js';
import { html, type SafeHtml } from './html.js';
import { formatDate } from './report.js';

const short = (sha: string) => sha.slice(0, 7);
const signed = (n: number | null) => (n === null ? '—' : n > 0 ? `+${n}` : String(n));

export interface BuildPageData {
  build: BuildRow;
  pages: { url: string; path: string; reportId: number | null; runNumber: number }[];
  comparison: BuildComparison;
}

function comparisonRows(d: BuildPageData): SafeHtml[] {
  const runOf = new Map(d.pages.map((p) => [p.path, p]));
  return d.comparison.pages.map((p) => {
    const stored = runOf.get(p.path);
    const link =
      stored !== undefined && stored.reportId !== null
        ? html`<a href="/reports/${stored.reportId}?run=${stored.runNumber}">${p.path}</a>`
        : html`${p.path}`;
    const failing = [
      ...p.newly_failing.map((c) => html`<li><code>${c.id}</code> ${c.title}</li>`),
      ...p.assertions_newly_failing.map(
        (a) => html`<li><code>${a.id}</code> ${a.level}: ${a.actual ?? '—'}, expected ${a.expected}</li>`,
      ),
    ];
    const passing = p.newly_passing.map((c) => html`<li><code>${c.id}</code> ${c.title}</li>`);
    return html`<tr class="${p.regressed ? 'build-regressed' : ''}">
      <th scope="row" class="break">${link}${p.regressed ? html` <span class="badge badge--bad">regressed</span>` : ''}</th>
      <td>${p.status}</td>
      <td>${p.score.head ?? '—'}</td>
      <td>${p.status === 'compared' ? signed(p.score.delta) : '—'}</td>
      <td>${failing.length > 0 ? html`<ul class="plain">${failing}</ul>` : '—'}</td>
      <td>${passing.length > 0 ? html`<ul class="plain">${passing}</ul>` : '—'}</td>
    </tr>`;
  });
}

export function buildView(d: BuildPageData): SafeHtml {
  const b = d.build;
  const c = d.comparison;
  const base =
    c.base === null
      ? html`<p class="muted">No base build to compare with${b.baseBranch === null ? ' (the build names no base branch)' : ` (no build of ${b.baseBranch} before it)`}.</p>`
      : html`<p>Compared with <a href="/dashboard/builds/${c.base.id}">build #${c.base.id}</a> (${c.base.branch} @ <code>${short(c.base.commit_sha)}</code>, ${c.base.matched === 'ancestor' ? 'the ancestor commit' : 'the newest before this build'}).</p>`;
  const verdict = c.regressed
    ? html`<p class="build-verdict"><strong>Regressed</strong></p><ul id="build-reasons">${c.reasons.map((r) => html`<li>${r}</li>`)}</ul>`
    : html`<p class="build-verdict"><strong>No regression</strong></p>`;
  return html`<div class="page-head">
  <div>
    <p class="eyebrow"><a href="/dashboard/projects/${encodeURIComponent(b.project)}">${b.project}</a></p>
    <h1>Build #${b.id}</h1>
    <p class="muted">${b.branch} @ <code>${short(b.commitSha)}</code> · ${formatDate(b.createdAt)}${b.author ? html` · ${b.author}` : ''}${b.runUrl ? html` · <a href="${b.runUrl}" rel="noopener noreferrer">CI run</a>` : ''}</p>
    ${b.message ? html`<p class="break">${b.message.split('\n')[0]}</p>` : ''}
  </div>
</div>
<section class="card" aria-labelledby="build-comparison">
  <h2 id="build-comparison">Compared with the base</h2>
  ${base}
  ${verdict}
  <table class="table" id="build-table">
    <thead>
      <tr><th scope="col">Page</th><th scope="col">Status</th><th scope="col">Score</th><th scope="col">Δ</th><th scope="col">Newly failing</th><th scope="col">Newly passing</th></tr>
    </thead>
    <tbody>
      ${comparisonRows(d)}
    </tbody>
  </table>
</section>`;
}

/** The project page's builds: the newest, each linked to its page. */
export function buildsSection(builds: BuildRow[], total: number): SafeHtml {
  const rows = builds.map(
    (b) => html`<tr>
      <td><a href="/dashboard/builds/${b.id}">#${b.id}</a></td>
      <td class="break">${b.branch}</td>
      <td><code>${short(b.commitSha)}</code></td>
      <td>${b.baseBranch ?? '—'}</td>
      <td><time datetime="${b.createdAt}">${formatDate(b.createdAt)}</time></td>
    </tr>`,
  );
  return html`<section class="card" aria-labelledby="project-builds">
  <h2 id="project-builds">Builds</h2>
  ${
    builds.length === 0
      ? html`<p class="muted">No CI build yet: <code>pagegrade ci --upload</code> sends one (docs/ci.md).</p>`
      : html`<p class="muted">The newest ${builds.length} of ${total}.</p>
  <table class="table">
    <thead><tr><th scope="col">Build</th><th scope="col">Branch</th><th scope="col">Commit</th><th scope="col">Base</th><th scope="col">When</th></tr></thead>
    <tbody>${rows}</tbody>
  </table>`
  }
</section>`;
}
