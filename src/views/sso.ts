// Single sign-on's page (docs/teams.md "Single sign-on"): why a sign-in through the identity
// provider did not go through, and the way back to the sign-in page.
import { html, type SafeHtml } from './html.js';

export function ssoRefusedView(o: { title: string; detail: string; next: string }): SafeHtml {
  return html`<section class="card form-card" aria-labelledby="sso-title">
    <h1 id="sso-title">${o.title}</h1>
    <p class="alert alert--error" role="alert">${o.detail}</p>
    <p><a href="/login?next=${encodeURIComponent(o.next)}">Back to sign in</a></p>
  </section>`;
}
