// The dashboard's branding page (/dashboard/branding): the name, logo, accent colour, contact
// and "prepared for" lines of the user's PDF reports, each field with its own error beside it.
// The logo file is read in the page by the one script (pagegrade.js) into a data: URL sent with
// the form (no multipart upload); the server checks it as the API does. The current logo is
// shown as an <img> from a data: URL (an SVG logo is never inlined).
import type { Branding } from '../services/branding/types.js';
import { html, type SafeHtml } from './html.js';
import type { Flash } from './dashboard.js';

/** the fields the form shows, each with its error next to it */
export const BRANDING_FIELDS = ['name', 'logo', 'accent_color', 'contact', 'prepared_for'] as const;

export interface BrandingFormState {
  name: string;
  accent_color: string;
  contact: string;
  prepared_for: string;
  errors: Record<string, string[]>;
}

export const brandingFormOf = (b: Branding): BrandingFormState => ({
  name: b.name ?? '',
  accent_color: b.accentColor ?? '',
  contact: b.contact ?? '',
  prepared_for: b.preparedFor ?? '',
  errors: {},
});

function fieldError(errors: Record<string, string[]>, field: string): SafeHtml | '' {
  const list = errors[field];
  return list?.length ? html`<p class="field__error" id="branding-${field}-error">${list.join(' ')}</p>` : '';
}

function invalid(errors: Record<string, string[]>, field: string): SafeHtml | '' {
  return errors[field]?.length
    ? html` aria-invalid="true" aria-describedby="branding-${field}-error"`
    : '';
}

function textField(
  f: BrandingFormState,
  field: 'name' | 'contact' | 'prepared_for' | 'accent_color',
  label: string,
  extra: SafeHtml | '',
  hint: string,
): SafeHtml {
  return html`<div class="field">
    <label for="branding-${field}">${label}</label>
    <input id="branding-${field}" name="${field}" type="text" value="${f[field]}"${extra}${invalid(f.errors, field)}>
    <p class="muted field__hint">${hint}</p>
    ${fieldError(f.errors, field)}
  </div>`;
}

export interface BrandingPageData {
  csrf: string;
  flash: Flash | null;
  branding: Branding;
  form: BrandingFormState;
  /** why PDFs cannot be printed here (no Chromium), or null */
  pdfUnavailable: string | null;
}

export function brandingView(d: BrandingPageData): SafeHtml {
  const f = d.form;
  const b = d.branding;
  const flash = d.flash
    ? html`<p class="alert alert--${d.flash.kind}" role="${d.flash.kind === 'error' ? 'alert' : 'status'}">${d.flash.text}</p>`
    : '';
  const logo = b.logo
    ? html`<div class="branding-logo">
        <img class="branding-logo__img" src="${b.logo.dataUrl}" alt="Your current logo">
        <p class="muted">${b.logo.type}, ${Math.ceil(b.logo.bytes / 1024)} KB</p>
        <label class="choice"><input type="checkbox" name="remove_logo" value="1"> Remove the logo</label>
      </div>`
    : html`<p class="muted">No logo yet.</p>`;
  return html`<h1>PDF branding</h1>
<p class="muted">What the PDFs of your reports show: your name and logo on the cover and in the footer, your accent colour, a contact line and whom the report is prepared for. Download a report's PDF from its page or from the dashboard.</p>
${d.pdfUnavailable ? html`<p class="alert alert--notice" role="status">${d.pdfUnavailable}</p>` : ''}
${flash}
<section class="card" aria-labelledby="branding-form-title">
  <h2 id="branding-form-title">Your branding</h2>
  <form method="post" action="/dashboard/branding" class="stack branding-form">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    ${textField(f, 'name', 'Name', html` maxlength="100" autocomplete="organization"`, 'On the cover and in every page footer (at most 100 characters). Empty: "Pagegrade".')}
    <div class="field">
      <label for="branding-logo-file">Logo</label>
      ${logo}
      <input id="branding-logo-file" type="file" accept="image/png,image/jpeg,image/svg+xml" data-logo-field="branding-logo" data-max-bytes="262144"${invalid(f.errors, 'logo')}>
      <input type="hidden" name="logo" id="branding-logo" value="">
      <p class="muted field__hint">PNG, JPEG or SVG, at most 256 KB. Choosing a file needs JavaScript; without it, send the logo with <code>PUT /api/v1/account/branding</code>.</p>
      <p class="field__error" data-logo-error hidden></p>
      ${fieldError(f.errors, 'logo')}
    </div>
    ${textField(f, 'accent_color', 'Accent colour', html` maxlength="7" placeholder="#1d4ed8" pattern="#[0-9a-fA-F]{6}" spellcheck="false"`, 'Headings and the cover bar, as #rrggbb (such as #1d4ed8). Empty: Pagegrade blue.')}
    ${textField(f, 'contact', 'Contact line', html` maxlength="200"`, 'On the cover, e.g. an email address or a phone number (at most 200 characters).')}
    ${textField(f, 'prepared_for', 'Prepared for', html` maxlength="200"`, "Optional: on the cover, e.g. your client's name (at most 200 characters).")}
    <div class="field field--submit">
      <button type="submit" class="button button--primary">Save branding</button>
    </div>
  </form>
</section>
${
  b.updatedAt
    ? html`<section class="card" aria-labelledby="branding-clear-title">
  <h2 id="branding-clear-title">Back to the plain look</h2>
  <form method="post" action="/dashboard/branding/delete" data-confirm="Remove your name, logo, colour and lines from the PDFs?">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    <button type="submit" class="button button--danger">Clear the branding</button>
  </form>
</section>`
    : ''
}`;
}
