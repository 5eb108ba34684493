// Small pages: sign-in, the password form of a protected report, and the error pages.
import { html, type SafeHtml } from './html.js';

/** The form field that carries the CSRF token (src/pages/plugins/csrf.ts checks it). */
export const CSRF_FIELD = '_csrf';

export function passwordView(o: { id: number; csrf: string; error?: string | null }): SafeHtml {
  return html`<section class="card form-card" aria-labelledby="password-title">
  <h1 id="password-title">This report is protected</h1>
  <p>Enter the report's password to open it. It stays open in this browser until you close it.</p>
  ${o.error ? html`<p class="alert alert--error" role="alert" id="password-error">${o.error}</p>` : ''}
  <form method="post" action="/reports/${o.id}" class="stack">
    <input type="hidden" name="_csrf" value="${o.csrf}">
    <div class="field">
      <label for="report-password">Password</label>
      <input id="report-password" name="password" type="password" required maxlength="128" autocomplete="current-password"${o.error ? html` aria-describedby="password-error" aria-invalid="true"` : ''}>
    </div>
    <button type="submit" class="button button--primary">Open report</button>
  </form>
</section>`;
}

export interface ErrorPage {
  status: number;
  title: string;
  message: string;
}

export const ERROR_PAGES: Record<number, Omit<ErrorPage, 'status'>> = {
  400: { title: 'Bad request', message: 'The request could not be understood.' },
  403: {
    title: 'Form expired',
    message: 'This form has expired or did not come from this site. Go back, reload the page and try again.',
  },
  404: {
    title: 'Page not found',
    message:
      'There is no page here. The link may be wrong, or the report may have been deleted or made private.',
  },
  405: { title: 'Method not allowed', message: 'This page cannot be used that way.' },
  413: { title: 'Too large', message: 'The form sent was too large.' },
  415: { title: 'Unsupported form', message: 'The form was sent in a format this site does not accept.' },
  429: { title: 'Too many attempts', message: 'For your security, further attempts are paused for a short while.' },
  500: {
    title: 'Something went wrong',
    message: 'Something went wrong on our side. Please try again in a moment.',
  },
};

/**
 * The error page of `status`; a 403 with a `reason` (a permission rule: which role it needs)
 * says so instead of "Form expired" (a CSRF refusal has no reason).
 */
export function errorPage(status: number, reason?: string): ErrorPage {
  if (status === 403 && reason) return { status, title: 'Not allowed', message: reason };
  const known = ERROR_PAGES[status] ?? (status >= 500 ? ERROR_PAGES[500]! : ERROR_PAGES[400]!);
  return { status, ...known };
}

export function errorView(e: ErrorPage, retryAfter?: number | null): SafeHtml {
  return html`<section class="card form-card error-card" aria-labelledby="error-title">
  <p class="eyebrow">Error ${e.status}</p>
  <h1 id="error-title">${e.title}</h1>
  <p>${e.message}</p>
  ${retryAfter ? html`<p>You can try again in <strong>${retryAfter}</strong> second${retryAfter === 1 ? '' : 's'}.</p>` : ''}
  <p><a href="/dashboard">Go to the dashboard</a></p>
</section>`;
}

/** A `<select>`'s option, selected when it is `current`. */
export function option(value: string, label: string, current: string | undefined): SafeHtml {
  return html`<option value="${value}"${current === value ? ' selected' : ''}>${label}</option>`;
}

/** A form field's error (the 422's messages for `field`), with the id its input points at. */
export function fieldError(errors: Record<string, string[]>, field: string, id: string): SafeHtml | '' {
  const list = errors[field];
  if (!list || list.length === 0) return '';
  return html`<p class="field__error" id="${id}">${list.join(' ')}</p>`;
}

/** An input's attributes when `field` has an error: aria-invalid, and described by the error. */
export const invalid = (errors: Record<string, string[]>, field: string, id: string) =>
  errors[field]?.length ? html` aria-invalid="true" aria-describedby="${id}"` : '';
