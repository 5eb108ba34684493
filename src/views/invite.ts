// The invitation page (/invite/<token>, docs/teams.md "Invitations"): the organisation and the
// role; for a new person a form (name, password) that makes the account; for a person who has
// the email, signing in and then Accept; a link no longer valid is a page of its own (410).
import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD } from './forms.js';

export interface InviteData {
  csrf: string;
  /** the page's path (/invite/<token>): the form's action and the sign-in's next */
  path: string;
  orgName: string;
  role: string;
  email: string;
  projects: string[] | null;
  /** `new`: nobody has the email; `accept`: its person is signed in; `sign-in`: they are not; `other`: someone else is */
  mode: 'new' | 'accept' | 'sign-in' | 'other';
  signedInAs?: string | null;
  errors?: Record<string, string[]>;
  name?: string;
}

const ROLE_WORDS: Record<string, string> = {
  viewer: 'a viewer (reads only)',
  member: 'a member (audits, crawls, edits)',
  admin: 'an admin (also members, keys, webhooks, branding)',
  owner: 'an owner (everything)',
};

export function inviteView(d: InviteData): SafeHtml {
  const err = (f: string) => d.errors?.[f]?.[0];
  const hidden = html`<input type="hidden" name="${CSRF_FIELD}" value="${d.csrf}" />`;
  const field = (name: string, label: string, type: string, auto: string, value = '') =>
    html`<div class="field">
      <label for="inv-${name}">${label}</label>
      ${err(name) ? html`<p class="field-error" id="inv-${name}-error">${err(name)}</p>` : ''}
      <input id="inv-${name}" name="${name}" type="${type}" required autocomplete="${auto}" value="${value}"${err(name) ? html` aria-describedby="inv-${name}-error" aria-invalid="true"` : ''} />
    </div>`;
  const action =
    d.mode === 'new'
      ? html`<form method="post" action="${d.path}" class="stack">
      ${hidden}
      <p>Create your account for <strong>${d.email}</strong>:</p>
      ${field('name', 'Name (letters, digits, . _ @ -)', 'text', 'nickname', d.name ?? '')}
      ${field('password', 'Password (8 characters or more)', 'password', 'new-password')}
      <button type="submit" class="button button--primary">Create the account and join</button>
    </form>`
      : d.mode === 'accept'
        ? html`<form method="post" action="${d.path}" class="stack">
      ${hidden}
      <input type="hidden" name="action" value="join">
      <button type="submit" class="button button--primary">Accept and join ${d.orgName}</button>
    </form>`
        : d.mode === 'sign-in'
          ? html`<p>You have an account with <strong>${d.email}</strong>:
      <a class="button button--primary" href="/login?next=${encodeURIComponent(d.path)}">Sign in to accept</a></p>`
          : html`<p class="alert alert--error" role="alert">This invitation is for ${d.email}, and you are signed in as ${d.signedInAs ?? 'someone else'}. Sign out, then open the link again.</p>`;
  return html`<section class="card form-card" aria-labelledby="invite-title">
  <h1 id="invite-title">Join ${d.orgName}</h1>
  <p>You are invited to the organization <strong class="invite-org">${d.orgName}</strong> on Pagegrade as <span class="invite-role" data-role="${d.role}">${ROLE_WORDS[d.role] ?? d.role}</span>${d.projects ? html`, seeing the projects ${d.projects.join(', ')}` : ''}.</p>
  ${action}
</section>`;
}

/** An invitation link that no longer works (410): accepted, revoked, expired or unknown. */
export function inviteGoneView(state: 'accepted' | 'revoked' | 'expired' | null): SafeHtml {
  const text =
    state === 'accepted'
      ? 'This invitation was already used: a link works once.'
      : state === 'revoked'
        ? 'This invitation was withdrawn.'
        : state === 'expired'
          ? 'This invitation has expired: a link works for 7 days.'
          : 'This invitation link is not valid.';
  return html`<section class="card form-card">
    <h1>Invitation not valid</h1>
    <p class="invite-gone" data-state="${state ?? 'unknown'}">${text}</p>
    <p>Ask whoever invited you for a new link, or <a href="/login">sign in</a>.</p>
  </section>`;
}
