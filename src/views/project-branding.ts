// The project page's PDF branding section (docs/teams.md, "What a client sees"), for admins and
// owners: the project's own name, logo, accent colour, contact and "prepared for" lines, each
// replacing the organisation's (/dashboard/branding) on the PDFs of this project's reports; a
// field left empty shows the organisation's. The same rules and messages as
// PUT /api/v1/projects/{project}/branding (route: src/pages/routes/project-branding.ts). The
// logo file is read into a data: URL by the one script, as on the branding page.
import type { Branding } from '../services/branding/types.js';
import type { BrandingFormState } from './branding.js';
import { html, type SafeHtml } from './html.js';

const fieldError = (e: Record<string, string[]>, field: string): SafeHtml | '' =>
  e[field]?.length ? html`<p class="field__error" id="pb-${field}-error">${e[field]!.join(' ')}</p>` : '';
const invalid = (e: Record<string, string[]>, field: string): SafeHtml | '' =>
  e[field]?.length ? html` aria-invalid="true" aria-describedby="pb-${field}-error"` : '';

function textField(
  f: BrandingFormState,
  field: 'name' | 'contact' | 'prepared_for' | 'accent_color',
  label: string,
  attrs: SafeHtml,
  placeholder: string | null,
): SafeHtml {
  return html`<div class="field">
      <label for="pb-${field}">${label}</label>
      <input id="pb-${field}" name="${field}" type="text" value="${f[field]}" placeholder="${placeholder ?? ''}"${attrs}${invalid(f.errors, field)}>
      ${fieldError(f.errors, field)}
    </div>`;
}

export function projectBrandingSection(d: {
  project: string;
  csrf: string;
  /** the project's own branding */
  branding: Branding;
  /** the organisation's (the placeholders: what shows where the project sets nothing) */
  org: Branding;
  form: BrandingFormState;
}): SafeHtml {
  const f = d.form;
  const base = `/dashboard/projects/${encodeURIComponent(d.project)}/branding`;
  const logo = d.branding.logo
    ? html`<div class="branding-logo">
        <img class="branding-logo__img" src="${d.branding.logo.dataUrl}" alt="This project's logo">
        <label class="choice"><input type="checkbox" name="remove_logo" value="1"> Remove the project's logo</label>
      </div>`
    : html`<p class="muted">${d.org.logo ? "The organisation's logo." : 'No logo.'}</p>`;
  return html`<section class="card" aria-labelledby="project-branding-title" id="branding">
  <h2 id="project-branding-title">PDF branding of this project</h2>
  <p class="muted">For a client's site: what you set here replaces the organisation's <a href="/dashboard/branding">branding</a> on the PDFs of this project's reports; an empty field shows the organisation's (greyed in the field).</p>
  <form method="post" action="${base}" class="batch-form project-branding-form">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    ${textField(f, 'prepared_for', 'Prepared for (the client)', html` maxlength="200"`, d.org.preparedFor)}
    ${textField(f, 'name', 'Name', html` maxlength="100"`, d.org.name ?? 'Pagegrade')}
    ${textField(f, 'accent_color', 'Accent colour', html` maxlength="7" pattern="#[0-9a-fA-F]{6}" spellcheck="false"`, d.org.accentColor ?? '#1d4ed8')}
    ${textField(f, 'contact', 'Contact line', html` maxlength="200"`, d.org.contact)}
    <div class="field field--wide">
      <label for="pb-logo-file">Logo</label>
      ${logo}
      <input id="pb-logo-file" type="file" accept="image/png,image/jpeg,image/svg+xml" data-logo-field="pb-logo" data-max-bytes="262144"${invalid(f.errors, 'logo')}>
      <input type="hidden" name="logo" id="pb-logo" value="">
      <p class="field__error" data-logo-error hidden></p>
      ${fieldError(f.errors, 'logo')}
    </div>
    <div class="field field--submit"><button type="submit" class="button button--primary">Save the project's branding</button></div>
  </form>
  ${
    d.branding.updatedAt
      ? html`<form method="post" action="${base}/delete" class="inline-form" data-confirm="Remove this project's own branding? Its PDFs show the organisation's again.">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    <button type="submit" class="button button--small button--danger">Clear the project's branding</button>
  </form>`
      : ''
  }
</section>`;
}
