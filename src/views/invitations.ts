// The members page's invitations (docs/teams.md "Invitations"), for admins and owners: the
// "Invite" form (email, role, a viewer's projects), the link of an invitation just made (shown
// once; emailed too when SMTP is configured) and the pending invitations with Revoke.
import type { Invitation } from '../services/invitations/types.js';
import { html, type SafeHtml } from './html.js';
import type { Can } from './layout.js';
import { formatDate } from './report.js';

export interface InvitationsData {
  csrf: string;
  can: Can;
  pending: Invitation[];
  /** the invitation just made: its link (shown this once) and whether it was emailed */
  made?: { url: string; email: string; emailed: boolean } | null;
}

export function invitationsSection(d: InvitationsData): SafeHtml | '' {
  if (!d.can('invitations.read')) return '';
  const write = d.can('invitations.write');
  const roles = (d.can('owners.write') ? ['viewer', 'member', 'admin', 'owner'] : ['viewer', 'member', 'admin']).map(
    (r) => html`<option value="${r}"${r === 'member' ? ' selected' : ''}>${r}</option>`,
  );
  const made = d.made
    ? html`<div class="alert alert--success" role="status">
    <p>${d.made.email} is invited${d.made.emailed ? ' (the link was emailed)' : ''}. The link (shown this once; it works once, for 7 days):</p>
    <p><input class="invitation-url" type="text" readonly value="${d.made.url}" aria-label="Invitation link" spellcheck="false"></p>
  </div>`
    : '';
  const form = write
    ? html`<form method="post" action="/dashboard/members/invitations" class="settings__form invite-form">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    <div class="field">
      <label for="invite-email">Email</label>
      <input id="invite-email" name="email" type="email" required maxlength="254" spellcheck="false" autocapitalize="off">
    </div>
    <div class="field">
      <label for="invite-role">Role</label>
      <select id="invite-role" name="role">${roles}</select>
    </div>
    <div class="field">
      <label for="invite-projects">Projects (a viewer only; comma-separated, empty: every project)</label>
      <input id="invite-projects" name="projects" type="text" maxlength="4000" spellcheck="false" placeholder="client.example.com">
    </div>
    <button type="submit" class="button button--primary">Invite</button>
  </form>`
    : '';
  const rows = d.pending.map(
    (i) => html`<li class="project-row invitation-row" id="invitation-${i.id}">
    <div class="project-row__main">
      <p class="project-row__name">${i.email}</p>
      <p class="report-row__meta">${i.role}${i.projects ? html` · only ${i.projects.join(', ')}` : ''} · until ${formatDate(i.expiresAt)}</p>
    </div>
    ${
      write && (i.role !== 'owner' || d.can('owners.write'))
        ? html`<form method="post" action="/dashboard/members/invitations/${i.id}/revoke">
      <input type="hidden" name="_csrf" value="${d.csrf}">
      <button type="submit" class="button button--small button--danger">Revoke<span class="visually-hidden"> the invitation of ${i.email}</span></button>
    </form>`
        : ''
    }
  </li>`,
  );
  return html`<section class="card" aria-labelledby="invitations-title">
  <h2 id="invitations-title">Invitations</h2>
  ${made}
  ${form}
  ${d.pending.length ? html`<ul class="project-list">${rows}</ul>` : html`<p class="muted">No pending invitations.</p>`}
</section>`;
}
