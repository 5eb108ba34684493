// The dashboard's audit log page (docs/teams.md "Audit log"): the organisation's changes, newest
// first — when, who (member, key, cli, system) and from where, the action, its target and what
// changed — with filters (action, target type) and pages.
import type { AuditEntry } from '../services/audit-log/types.js';
import { html, type SafeHtml } from './html.js';
import { formatDate } from './report.js';

export interface AuditLogData {
  entries: AuditEntry[];
  total: number;
  page: number;
  perPage: number;
  /** the filters as sent (refill the form, keep them in the page links) */
  filters: { action: string; target_type: string };
}

function who(e: AuditEntry): string {
  if (e.actor === 'cli' || e.actor === 'system') return e.actor;
  const member = e.actorUserId === null ? 'someone' : `member #${e.actorUserId}`;
  return e.actor === 'key' ? `${member} with key #${e.actorKeyId ?? '?'}` : `${member} (dashboard)`;
}

function row(e: AuditEntry): SafeHtml {
  const target = e.targetId === null ? e.targetType : `${e.targetType} ${e.targetId}`;
  const changes = Object.keys(e.changes).length === 0 ? '' : JSON.stringify(e.changes);
  return html`<tr>
    <td><time datetime="${e.at}">${formatDate(e.at)}</time></td>
    <td><code>${e.action}</code></td>
    <td>${target}</td>
    <td>${who(e)}${e.ip ? html` <span class="muted">from ${e.ip}</span>` : ''}</td>
    <td>${changes ? html`<code class="audit-changes">${changes}</code>` : ''}</td>
  </tr>`;
}

export function auditLogView(d: AuditLogData): SafeHtml {
  const lastPage = Math.max(1, Math.ceil(d.total / d.perPage));
  const link = (page: number) => {
    const q = new URLSearchParams({ ...d.filters, page: String(page) });
    for (const [k, v] of [...q.entries()]) if (v === '') q.delete(k);
    return `/dashboard/audit-log?${q.toString()}`;
  };
  const nav =
    lastPage <= 1 && d.page <= 1
      ? ''
      : html`<nav class="pager" aria-label="Audit log pages">
          ${d.page > 1 ? html`<a class="button" href="${link(d.page - 1)}" rel="prev">Previous</a>` : ''}
          <span class="pager__info">Page ${d.page} of ${lastPage}</span>
          ${d.page < lastPage ? html`<a class="button" href="${link(d.page + 1)}" rel="next">Next</a>` : ''}
        </nav>`;
  const table =
    d.entries.length === 0
      ? html`<p class="empty">No changes recorded${d.filters.action || d.filters.target_type ? ' that match' : ''}.</p>`
      : html`<table class="table">
          <thead>
            <tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Who</th><th scope="col">What changed</th></tr>
          </thead>
          <tbody>
            ${d.entries.map(row)}
          </tbody>
        </table>`;
  return html`<div class="page-head">
      <h1>Audit log</h1>
      <p class="muted">Who changed members, keys, webhooks, branding and projects, and deleted what: ${d.total} ${d.total === 1 ? 'entry' : 'entries'}.</p>
    </div>
    <form method="get" action="/dashboard/audit-log" class="filters">
      <label>Action <input name="action" value="${d.filters.action}" placeholder="member.role_changed" /></label>
      <label>Target <input name="target_type" value="${d.filters.target_type}" placeholder="project" /></label>
      <button type="submit" class="button">Filter</button>
    </form>
    <section class="card" aria-label="Entries">${table}</section>
    ${nav}`;
}
