// The sign-in pages (docs/teams.md "Signing in"): /login (email and password; an API key for
// scripts' sessions), the second factor's step, "Forgot password", the reset link's form and
// sign-up.
import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD } from './forms.js';

const hidden = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}" />`;
const alert = (error: string | null | undefined, id: string) =>
  error ? html`<p class="alert alert--error" role="alert" id="${id}">${error}</p>` : '';
const invalid = (error: string | null | undefined, id: string) =>
  error ? html` aria-describedby="${id}" aria-invalid="true"` : '';

export function loginView(o: {
  csrf: string;
  next: string;
  error?: string | null;
  keyError?: string | null;
  notice?: string | null;
  email?: string;
  signup: boolean;
  /** single sign-on: the button's "Sign in with <name>" and where it starts (docs/teams.md "Single sign-on") */
  sso?: { name: string; href: string } | null;
}): SafeHtml {
  return html`<section class="card form-card" aria-labelledby="login-title">
  <h1 id="login-title">Sign in</h1>
  ${o.notice ? html`<p class="alert alert--success" role="status">${o.notice}</p>` : ''}
  ${alert(o.error, 'login-error')}
  ${o.sso ? html`<p><a class="button button--primary" id="sso" href="${o.sso.href}">Sign in with ${o.sso.name}</a></p>
  <p>or with your email and password:</p>` : ''}
  <form method="post" action="/login" class="stack">
    ${hidden(o.csrf)}
    <input type="hidden" name="next" value="${o.next}">
    <div class="field">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" required autocomplete="username" spellcheck="false" autocapitalize="off" value="${o.email ?? ''}"${invalid(o.error, 'login-error')}>
    </div>
    <div class="field">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" required maxlength="256" autocomplete="current-password"${invalid(o.error, 'login-error')}>
    </div>
    <button type="submit" class="button button--primary">Sign in</button>
  </form>
  <p><a href="/forgot-password">Forgot your password?</a>${o.signup ? html` · <a href="/signup">Create an account</a>` : ''}</p>
  <details${o.keyError ? html` open` : ''}>
    <summary>Sign in with an API key (scripts)</summary>
    ${alert(o.keyError, 'key-error')}
    <form method="post" action="/login" class="stack">
      ${hidden(o.csrf)}
      <input type="hidden" name="next" value="${o.next}">
      <div class="field">
        <label for="api-key">API key</label>
        <input id="api-key" name="key" type="password" required autocomplete="off" spellcheck="false" autocapitalize="off"${invalid(o.keyError, 'key-error')}>
      </div>
      <button type="submit" class="button">Sign in with the key</button>
    </form>
  </details>
</section>`;
}

export function secondFactorView(o: { csrf: string; next: string; error?: string | null }): SafeHtml {
  return html`<section class="card form-card" aria-labelledby="totp-title">
    <h1 id="totp-title">Second factor</h1>
    <p>Enter the 6-digit code your authenticator app shows, or one of your recovery codes.</p>
    ${alert(o.error, 'totp-error')}
    <form method="post" action="/login/second-factor" class="stack">
      ${hidden(o.csrf)}
      <input type="hidden" name="next" value="${o.next}" />
      <div class="field">
        <label for="code">Code</label>
        <input
          id="code"
          name="code"
          required
          maxlength="32"
          autocomplete="one-time-code"
          inputmode="text"
          spellcheck="false"
          ${invalid(o.error, 'totp-error')}
        />
      </div>
      <button type="submit" class="button button--primary">Continue</button>
    </form>
  </section>`;
}

export function forgotView(o: {
  csrf: string;
  sent: boolean;
  error?: string | null;
  email?: boolean;
}): SafeHtml {
  return html`<section class="card form-card" aria-labelledby="forgot-title">
    <h1 id="forgot-title">Forgot your password?</h1>
    ${
      o.sent
        ? html`<p class="alert alert--success" role="status">
            ${
              o.email
                ? 'If an account has this email, a reset link is on its way (it works once, for one hour).'
                : 'This instance sends no email. Ask its administrator for a reset link: they make one with pagegrade users reset-link followed by your email (it works once, for one hour).'
            }
          </p>`
        : html`<p>
            ${
              o.email
                ? 'Enter your email: we send a link to set a new password.'
                : 'This instance sends no email: its administrator gives you a reset link (pagegrade users reset-link).'
            }
          </p>`
    }
    ${alert(o.error, 'forgot-error')}
    <form method="post" action="/forgot-password" class="stack">
      ${hidden(o.csrf)}
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" required autocomplete="username" />
      </div>
      <button type="submit" class="button button--primary">Send a reset link</button>
    </form>
  </section>`;
}

export function resetView(o: { csrf: string; token: string; error?: string | null }): SafeHtml {
  return html`<section class="card form-card" aria-labelledby="reset-title">
    <h1 id="reset-title">Set a new password</h1>
    ${alert(o.error, 'reset-error')}
    <form method="post" action="/reset-password/${o.token}" class="stack">
      ${hidden(o.csrf)}
      <div class="field">
        <label for="password">New password (8 characters or more)</label>
        <input
          id="password"
          name="password"
          type="password"
          required
          minlength="8"
          maxlength="256"
          autocomplete="new-password"
          ${invalid(o.error, 'reset-error')}
        />
      </div>
      <button type="submit" class="button button--primary">Set the password</button>
    </form>
  </section>`;
}

export function linkGoneView(why: string | null): SafeHtml {
  const text =
    why === 'used'
      ? 'This reset link was already used: a link works once.'
      : why === 'expired'
        ? 'This reset link has expired: a link works for one hour.'
        : 'This reset link is not valid.';
  return html`<section class="card form-card">
    <h1>Reset link not valid</h1>
    <p>${text}</p>
    <p><a href="/forgot-password">Ask for a new link</a></p>
  </section>`;
}

export function signupView(o: {
  csrf: string;
  errors?: Record<string, string[]>;
  values?: { email?: string; name?: string };
}): SafeHtml {
  const err = (f: string) => o.errors?.[f]?.[0];
  const field = (name: string, label: string, type: string, auto: string, value = '') =>
    html`<div class="field">
      <label for="su-${name}">${label}</label>
      ${err(name) ? html`<p class="field-error" id="su-${name}-error">${err(name)}</p>` : ''}
      <input
        id="su-${name}"
        name="${name}"
        type="${type}"
        required
        autocomplete="${auto}"
        value="${value}"
        ${invalid(err(name), `su-${name}-error`)}
      />
    </div>`;
  return html`<section class="card form-card" aria-labelledby="signup-title">
    <h1 id="signup-title">Create an account</h1>
    <p>You get an organisation of your own, which you own.</p>
    <form method="post" action="/signup" class="stack">
      ${hidden(o.csrf)} ${field('email', 'Email', 'email', 'username', o.values?.email ?? '')}
      ${field('name', "Name (letters, digits, . _ @ -; also your organisation's name)", 'text', 'nickname', o.values?.name ?? '')}
      ${field('password', 'Password (8 characters or more)', 'password', 'new-password')}
      <button type="submit" class="button button--primary">Create the account</button>
    </form>
  </section>`;
}

export function signupClosedView(mode: string): SafeHtml {
  return html`<section class="card form-card">
    <h1>Sign-up is closed</h1>
    <p>
      ${mode === 'invite' ? 'Accounts on this instance are made by invitation only.' : 'This instance does not take new accounts.'}
      Ask its administrator.
    </p>
    <p><a href="/login">Sign in</a></p>
  </section>`;
}
