// The members page (/dashboard/members, docs/teams.md): the organisation's members with their
// role and a limited viewer's projects; for admins and owners a form a member to change the
// role and the projects, and one to remove them. The rules are the organisations service's (an
// admin never touches an owner; the last owner stays one); its refusals come back as the alert.
import type { Member } from '../services/organizations/types.js';
import type { Flash } from './dashboard.js';
import { html, type SafeHtml } from './html.js';
import type { Can } from './layout.js';
import { formatDate } from './report.js';
import { invitationsSection, type InvitationsData } from './invitations.js';

export interface MembersData {
  csrf: string;
  can: Can;
  /** the signed-in person (their own row says "you") */
  me: number | null;
  organization: string;
  flash?: Flash | null;
  members: Member[];
  /** the invitations' section (admins and owners) */
  invitations?: Omit<InvitationsData, 'csrf' | 'can'>;
}

const ROLE_WORDS: Record<Member['role'], string> = {
  viewer: 'Viewer — reads only',
  member: 'Member — audits, crawls, edits',
  admin: 'Admin — also members, keys, webhooks, branding',
  owner: 'Owner — everything',
};

function memberForms(m: Member, d: MembersData): SafeHtml | '' {
  // an owner's row, or making an owner, is for owners only
  const owners = d.can('owners.write');
  if (!d.can('members.write') || (m.role === 'owner' && !owners)) return '';
  const roles = (owners ? (['viewer', 'member', 'admin', 'owner'] as const) : (['viewer', 'member', 'admin'] as const)).map(
    (r) => html`<option value="${r}"${m.role === r ? ' selected' : ''}>${ROLE_WORDS[r]}</option>`,
  );
  const id = m.userId;
  return html`<div class="report-row__actions">
    <details class="settings">
      <summary class="button button--small">Change<span class="visually-hidden"> ${m.name}</span></summary>
      <form method="post" action="/dashboard/members/${id}" class="settings__form member-form">
        <input type="hidden" name="_csrf" value="${d.csrf}">
        <div class="field">
          <label for="member-role-${id}">Role</label>
          <select id="member-role-${id}" name="role">${roles}</select>
        </div>
        <div class="field">
          <label for="member-projects-${id}">Projects (a viewer only; comma-separated, empty: every project)</label>
          <input id="member-projects-${id}" name="projects" type="text" maxlength="4000" spellcheck="false" placeholder="client.example.com" value="${m.projects?.join(', ') ?? ''}">
        </div>
        <button type="submit" class="button button--small button--primary">Save</button>
      </form>
    </details>
    <form method="post" action="/dashboard/members/${id}/remove" data-confirm="Remove ${m.name} from the organisation? Their API keys in it stop working at once.">
      <input type="hidden" name="_csrf" value="${d.csrf}">
      <button type="submit" class="button button--small button--danger">Remove<span class="visually-hidden"> ${m.name}</span></button>
    </form>
  </div>`;
}

function memberRow(m: Member, d: MembersData): SafeHtml {
  return html`<li class="project-row member-row" id="member-${m.userId}" data-role="${m.role}">
  <div class="project-row__main">
    <p class="project-row__name">${m.name}${m.userId === d.me ? html` <span class="muted">(you)</span>` : ''}</p>
    <p class="report-row__meta"><span class="member-role">${m.role}</span> · ${m.projects ? html`only <span class="member-projects">${m.projects.join(', ')}</span>` : 'every project'} · joined ${formatDate(m.joinedAt)}</p>
  </div>
  ${memberForms(m, d)}
</li>`;
}

export function membersView(d: MembersData): SafeHtml {
  const flash = d.flash
    ? html`<p class="alert alert--${d.flash.kind}" role="${d.flash.kind === 'error' ? 'alert' : 'status'}">${d.flash.text}</p>`
    : '';
  return html`<div class="page-head">
  <h1>Members</h1>
  <p class="muted">The people of <strong>${d.organization}</strong> and their roles. A viewer limited to projects (a client) sees only those projects' reports.</p>
</div>
${flash}
<section class="card" aria-labelledby="members-title">
  <h2 id="members-title">${d.members.length} member${d.members.length === 1 ? '' : 's'}</h2>
  <ul class="project-list">${d.members.map((m) => memberRow(m, d))}</ul>
</section>
${d.invitations ? invitationsSection({ csrf: d.csrf, can: d.can, ...d.invitations }) : ''}`;
}
