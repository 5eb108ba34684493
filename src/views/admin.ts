// The instance admin's page (/dashboard/admin): every person (email, organisations, admin,
// disabled, second factor) with disable/enable and second-factor reset, every organisation with
// this month's usage and storage, the sign-up mode, and the instance log (the admin's changes).
import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD } from './forms.js';
import type { AdminOrganization, AdminUser, InstanceEntry } from '../services/admin/types.js';

export interface AdminPage {
  csrf: string;
  users: AdminUser[];
  organizations: AdminOrganization[];
  signupMode: string;
  /** the instance log, newest first */
  log: InstanceEntry[];
  modes: readonly string[];
  /** the signed-in admin (cannot disable themselves here) */
  selfId: number;
  notice?: string | null;
  error?: string | null;
}

/** 1 KB = 1,000 bytes (SI), one decimal from MB up */
function formatBytes(n: number): string {
  if (n < 1000) return `${String(n)} B`;
  if (n < 1_000_000) return `${String(Math.round(n / 1000))} KB`;
  if (n < 1_000_000_000) return `${(n / 1_000_000).toFixed(1)} MB`;
  return `${(n / 1_000_000_000).toFixed(1)} GB`;
}

const hidden = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

function userRow(u: AdminUser, p: AdminPage): SafeHtml {
  const action = (path: string, label: string, confirm: string) =>
    html`<form method="post" action="/dashboard/admin/users/${String(u.id)}/${path}" class="inline-form">${hidden(p.csrf)}<button type="submit" class="link-button" data-confirm="${confirm}">${label}</button></form>`;
  return html`<tr>
    <td>${u.name}${u.email ? html`<br><span class="muted">${u.email}</span>` : ''}</td>
    <td>${u.organizations.map((o, i) => html`${i > 0 ? ', ' : ''}${o.name} (${o.role})`)}</td>
    <td>${u.isAdmin ? 'yes' : 'no'}</td>
    <td>${u.disabledAt ? html`disabled <span class="muted">${u.disabledAt.slice(0, 10)}</span>` : 'active'}</td>
    <td>${u.totpEnabled ? 'on' : 'off'}</td>
    <td>${
      u.id === p.selfId
        ? html`<span class="muted">you</span>`
        : u.disabledAt
          ? action('enable', `Enable ${u.name}`, `Enable ${u.name}?`)
          : action('disable', `Disable ${u.name}`, `Disable ${u.name}? Their sessions and keys stop at once.`)
    }${u.totpEnabled ? html` ${action('totp-reset', 'Reset second factor', `Turn ${u.name}'s second factor off?`)}` : ''}</td>
  </tr>`;
}

const ACTIONS: Record<string, string> = {
  'user.disabled': 'disabled a person',
  'user.enabled': 'enabled a person',
  'user.second_factor_reset': "reset a person's second factor",
  'user.admin_granted': 'made a person an instance admin',
  'user.admin_revoked': 'made a person no longer an instance admin',
  'user.created': 'created a person',
  'user.reset_link_issued': 'issued a password reset link for a person',
  'instance.signup_mode_changed': 'changed the sign-up mode',
};

function who(e: InstanceEntry): string {
  if (e.actor === 'cli') return 'the command line';
  if (e.actor === 'system') return 'the system';
  return e.actorName ?? `person #${String(e.actorUserId)}`;
}

function what(e: InstanceEntry): SafeHtml {
  const label = ACTIONS[e.action] ?? e.action;
  const name = typeof e.changes.name === 'string' ? e.changes.name : null;
  const mode = e.changes.signup_mode as { from?: unknown; to?: unknown } | undefined;
  return html`${label}${name ? html`: ${name}` : ''}${mode ? html`: ${String(mode.from)} → ${String(mode.to)}` : ''} <span class="muted">(${e.action})</span>`;
}

function logSection(p: AdminPage): SafeHtml {
  return html`<section aria-labelledby="log-title">
    <h2 id="log-title">Instance log</h2>
    <p class="muted">The instance admin's changes, newest first (the latest ${String(p.log.length)}); a change to a person is also in the audit log of each of their organizations.</p>
    ${p.log.length === 0
      ? html`<p class="muted">No changes yet.</p>`
      : html`<table class="table">
      <thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">Address</th><th scope="col">What</th></tr></thead>
      <tbody>${p.log.map(
        (e) => html`<tr><td>${e.at.slice(0, 19).replace('T', ' ')}</td><td>${who(e)}</td><td>${e.ip ?? '–'}</td><td>${what(e)}</td></tr>`,
      )}</tbody>
    </table>`}
  </section>`;
}

export function adminView(p: AdminPage): SafeHtml {
  return html`<h1>Instance admin</h1>
  ${p.notice ? html`<p class="alert alert--success" role="status">${p.notice}</p>` : ''}
  ${p.error ? html`<p class="alert alert--error" role="alert">${p.error}</p>` : ''}
  <section class="card" aria-labelledby="signup-title">
    <h2 id="signup-title">Sign-up</h2>
    <form method="post" action="/dashboard/admin/signup" class="inline-form">
      ${hidden(p.csrf)}
      <label for="signup-mode">Who may create an account</label>
      <select id="signup-mode" name="mode">${p.modes.map(
        (m) => html`<option value="${m}"${m === p.signupMode ? html` selected` : ''}>${m}</option>`,
      )}</select>
      <button type="submit" class="button">Save</button>
    </form>
    <p class="muted">closed: nobody; invite: only by invitation (for now the same as closed); open: anyone, with an organisation of their own.</p>
  </section>
  <section aria-labelledby="people-title">
    <h2 id="people-title">People (${String(p.users.length)})</h2>
    <table class="table">
      <thead><tr><th scope="col">Person</th><th scope="col">Organizations</th><th scope="col">Admin</th><th scope="col">State</th><th scope="col">2FA</th><th scope="col">Actions</th></tr></thead>
      <tbody>${p.users.map((u) => userRow(u, p))}</tbody>
    </table>
  </section>
  <section aria-labelledby="orgs-title">
    <h2 id="orgs-title">Organizations (${String(p.organizations.length)})</h2>
    <table class="table">
      <thead><tr><th scope="col">Organization</th><th scope="col">Members</th><th scope="col">Reports</th><th scope="col">Crawls this month</th><th scope="col">Pages audited this month</th><th scope="col">Storage</th></tr></thead>
      <tbody>${p.organizations.map(
        (o) => html`<tr><td>${o.name}</td><td>${String(o.members)}</td><td>${String(o.reports)}</td><td>${String(o.crawls)}</td><td>${String(o.pagesAudited)}</td><td data-bytes="${String(o.storageBytes)}">${formatBytes(o.storageBytes)}</td></tr>`,
      )}</tbody>
    </table>
  </section>
  ${logSection(p)}`;
}
