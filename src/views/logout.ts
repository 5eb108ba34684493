// GET /logout: a person who types the address gets a sign-out button (signing out is a POST
// with the CSRF token).
import { html, type SafeHtml } from './html.js';
import { CSRF_FIELD } from './forms.js';

export function logoutView(o: { csrf: string }): SafeHtml {
  return html`<h1>Sign out</h1>
    <form method="post" action="/logout" class="stack">
      <input type="hidden" name="${CSRF_FIELD}" value="${o.csrf}" />
      <button type="submit">Sign out</button>
    </form>`;
}
