// The account's security page (/dashboard/account): email and password, the TOTP second
// factor (set-up with its secret and otpauth:// URI, confirmation, recovery codes shown once).
import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD } from './forms.js';

export interface AccountPage {
  csrf: string;
  name: string;
  email: string | null;
  hasPassword: boolean;
  totpEnabled: boolean;
  /** a session opened with an API key */
  keySession: boolean;
  organization: string;
  role: string;
  notice?: string | null;
  errors?: Record<string, string[]>;
  /** the set-up in progress: the secret and its URI, to confirm with a code */
  enrol?: { secret: string; uri: string } | null;
  /** just confirmed: the recovery codes, shown this once */
  recoveryCodes?: string[] | null;
}

const hidden = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

export function accountView(p: AccountPage): SafeHtml {
  const err = (f: string) => p.errors?.[f]?.[0];
  const fieldError = (f: string) =>
    err(f) ? html`<p class="field-error" id="acct-${f}-error">${err(f)}</p>` : '';
  const described = (f: string) => (err(f) ? html` aria-describedby="acct-${f}-error" aria-invalid="true"` : '');
  return html`<h1>Your account</h1>
  ${p.notice ? html`<p class="alert alert--success" role="status">${p.notice}</p>` : ''}
  <p>Signed in as <strong>${p.name}</strong>${p.email ? html` (${p.email})` : ''}, ${p.role} of <strong>${p.organization}</strong>${p.keySession ? ' — with an API key' : ''}.</p>
  ${
    p.hasPassword
      ? ''
      : html`<p class="alert alert--notice" role="status" id="no-password">You have no password yet: set one (and your email) to sign in without an API key.</p>`
  }
  <section class="card" aria-labelledby="password-title">
    <h2 id="password-title">${p.hasPassword ? 'Change your password' : 'Set a password'}</h2>
    <form method="post" action="/dashboard/account/password" class="stack">
      ${hidden(p.csrf)}
      ${
        p.email
          ? ''
          : html`<div class="field"><label for="acct-email">Email (you sign in with it)</label>${fieldError('email')}
          <input id="acct-email" name="email" type="email" required autocomplete="username"${described('email')}></div>`
      }
      ${
        p.hasPassword
          ? html`<div class="field"><label for="acct-current">Current password</label>${fieldError('current')}
          <input id="acct-current" name="current" type="password" required maxlength="256" autocomplete="current-password"${described('current')}></div>`
          : ''
      }
      <div class="field"><label for="acct-password">New password (8 characters or more)</label>${fieldError('password')}
        <input id="acct-password" name="password" type="password" required minlength="8" maxlength="256" autocomplete="new-password"${described('password')}></div>
      <p class="muted">Your other sessions end when the password changes.</p>
      <button type="submit" class="button button--primary">Save the password</button>
    </form>
  </section>
  <section class="card" aria-labelledby="totp-title">
    <h2 id="totp-title">Second factor (TOTP)</h2>
    ${secondFactor(p, fieldError, described)}
  </section>`;
}

function secondFactor(
  p: AccountPage,
  fieldError: (f: string) => SafeHtml | string,
  described: (f: string) => SafeHtml | string,
): SafeHtml {
  if (p.recoveryCodes)
    return html`<p class="alert alert--success" role="status">The second factor is on.</p>
    <p>Your recovery codes — each works once, if you lose your authenticator. Keep them somewhere safe: they are not shown again.</p>
    <ul class="recovery-codes">${p.recoveryCodes.map((c) => html`<li><code>${c}</code></li>`)}</ul>`;
  if (p.enrol)
    return html`<p>Add this account to your authenticator app: scan the link's QR code or type the secret.</p>
    <p>Secret: <code id="totp-secret">${p.enrol.secret}</code></p>
    <p>URI: <code id="totp-uri">${p.enrol.uri}</code></p>
    <form method="post" action="/dashboard/account/totp/confirm" class="stack">
      ${hidden(p.csrf)}
      <div class="field"><label for="acct-code">The 6-digit code your app shows</label>${fieldError('code')}
        <input id="acct-code" name="code" required inputmode="numeric" maxlength="6" autocomplete="one-time-code"${described('code')}></div>
      <button type="submit" class="button button--primary">Turn it on</button>
    </form>`;
  if (p.totpEnabled)
    return html`<p>On: signing in asks for a code after the password.</p>
    <form method="post" action="/dashboard/account/totp/disable" class="stack">
      ${hidden(p.csrf)}
      <button type="submit" class="button button--danger" data-confirm="Turn the second factor off?">Turn it off</button>
    </form>`;
  return html`<p>Off. With it on, signing in asks for a code from an authenticator app after the password.</p>
    ${fieldError('code')}
    <form method="post" action="/dashboard/account/totp" class="stack">
      ${hidden(p.csrf)}
      <button type="submit" class="button">Set it up</button>
    </form>`;
}
