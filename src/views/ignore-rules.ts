// The project page's ignore rules (docs/sites.md, "Issue states and ignore rules"): the rules
// with a Remove button each, and a form that adds one — the same rules and checks as
// POST/DELETE /api/v1/projects/{project}/ignore-rules (route: src/pages/routes/ignore-rules.ts).
import type { ProjectSettings } from '../services/projects/types.js';
import { html, type SafeHtml } from './html.js';
import { formatDate } from './report.js';

/** The add form as sent (refilled after a 422) with its errors by field. */
export interface IgnoreRuleFormState {
  id: string;
  url_pattern: string;
  reason: string;
  expires_at: string;
  errors: Record<string, string[]>;
}

export const emptyIgnoreRuleForm = (): IgnoreRuleFormState => ({
  id: '',
  url_pattern: '',
  reason: '',
  expires_at: '',
  errors: {},
});

const fieldError = (e: Record<string, string[]>, field: string): SafeHtml | '' =>
  e[field]?.length ? html`<p class="field__error" id="ignore-${field}-error">${e[field]!.join(' ')}</p>` : '';
const invalid = (e: Record<string, string[]>, field: string): SafeHtml | '' =>
  e[field]?.length ? html` aria-invalid="true" aria-describedby="ignore-${field}-error"` : '';

export function ignoreRulesSection(
  rules: ProjectSettings['ignore'],
  form: IgnoreRuleFormState,
  csrf: string,
  project: string,
  /** the viewer may change them (projects.write): the add and remove forms */
  canWrite: boolean,
): SafeHtml {
  const base = `/dashboard/projects/${encodeURIComponent(project)}/ignore-rules`;
  const e = form.errors;
  const list = rules.length
    ? html`<ul class="ignore-rules">${rules.map(
        (r) => html`<li><code>${r.id}</code> on ${r.url_pattern ? html`<code>${r.url_pattern}</code>` : 'every page'}: ${r.reason}${r.expires_at ? ` (until ${formatDate(r.expires_at)})` : ''}
    ${canWrite ? html`<form method="post" action="${base}/${encodeURIComponent(r.rule_id)}/delete" class="inline-form">
      <input type="hidden" name="_csrf" value="${csrf}">
      <button type="submit" class="button button--small" aria-label="Remove the rule on ${r.id}">Remove</button>
    </form>` : ''}</li>`,
      )}</ul>`
    : html`<p class="empty">No ignore rules: every check and finding counts.</p>`;
  return html`<section class="card" aria-labelledby="ignore-title">
  <h2 id="ignore-title">Ignore rules</h2>
  <p class="muted">An ignored check is not judged on the pages the rule covers (it leaves their score); an ignored finding is listed apart. A rule applies from the next audit of those pages. Every change is kept with who made it and when (<code>GET /api/v1/projects/${project}/ignore-rules</code>).</p>
  ${list}
  ${canWrite ? html`<form method="post" action="${base}" class="batch-form" data-busy="Adding…">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div class="field">
      <label for="ignore-id">Check or finding id</label>
      <input id="ignore-id" name="id" type="text" required maxlength="100" spellcheck="false" placeholder="meta_description" value="${form.id}"${invalid(e, 'id')}>
      ${fieldError(e, 'id')}
    </div>
    <div class="field">
      <label for="ignore-url_pattern">Pages (empty: every page)</label>
      <input id="ignore-url_pattern" name="url_pattern" type="text" maxlength="512" spellcheck="false" placeholder="/blog/*" value="${form.url_pattern}"${invalid(e, 'url_pattern')}>
      ${fieldError(e, 'url_pattern')}
    </div>
    <div class="field field--wide">
      <label for="ignore-reason">Reason</label>
      <input id="ignore-reason" name="reason" type="text" required maxlength="500" value="${form.reason}"${invalid(e, 'reason')}>
      ${fieldError(e, 'reason')}
    </div>
    <div class="field">
      <label for="ignore-expires_at">Until (optional)</label>
      <input id="ignore-expires_at" name="expires_at" type="date" value="${form.expires_at}"${invalid(e, 'expires_at')}>
      ${fieldError(e, 'expires_at')}
    </div>
    <div class="field field--submit"><button type="submit" class="button">Add the rule</button></div>
  </form>` : ''}
</section>`;
}
