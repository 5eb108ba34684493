// The dashboard's API keys page: the user's keys (prefix, scope, projects, created, last used,
// expiry, revoked), a form to create one (the secret shown once) and a revoke button per key.
import type { ApiKeyInfo } from '../services/accounts/types.js';
import { html, type SafeHtml } from './html.js';
import type { Flash } from './dashboard.js';
import { formatDate } from './report.js';

export interface KeyFormState {
  scope: string;
  projects: string;
  expires: string;
  errors: Record<string, string[]>;
}

export interface KeysData {
  csrf: string;
  flash: Flash | null;
  /** the key this browser signed in with */
  currentKeyId: number | null;
  /** the secret of the key just created (shown this once) */
  created: { info: ApiKeyInfo; key: string } | null;
  form: KeyFormState;
  keys: ApiKeyInfo[];
  /** the viewer may make and revoke their keys (keys.own: not a viewer, whose keys an admin makes) */
  canWrite: boolean;
}

/** The expiry choices of the form: days (0: never). */
export const EXPIRY_CHOICES: { value: string; label: string; days: number }[] = [
  { value: 'never', label: 'Never', days: 0 },
  { value: '7d', label: 'In 7 days', days: 7 },
  { value: '30d', label: 'In 30 days', days: 30 },
  { value: '90d', label: 'In 90 days', days: 90 },
  { value: '365d', label: 'In a year', days: 365 },
];

function fieldError(errors: Record<string, string[]>, field: string, id: string): SafeHtml | '' {
  const list = errors[field];
  return list?.length ? html`<p class="field__error" id="${id}">${list.join(' ')}</p>` : '';
}

function createForm(csrf: string, f: KeyFormState): SafeHtml {
  const radio = (value: string, label: string, hint: string) =>
    html`<label class="choice"
      ><input type="radio" name="scope" value="${value}" ${f.scope === value ? ' checked' : ''} />
      <code>${value}</code> <span class="muted">${label} — ${hint}</span></label
    >`;
  const projErr = !!f.errors.projects?.length;
  return html`<section class="card" aria-labelledby="key-create-title">
    <h2 id="key-create-title">Create a key</h2>
    <form method="post" action="/dashboard/keys" class="stack">
      <input type="hidden" name="_csrf" value="${csrf}" />
      <fieldset class="field">
        <legend>Scope</legend>
        ${radio('write', 'Write', 'everything')} ${radio('read', 'Read', 'GET requests only')}
        ${fieldError(f.errors, 'scope', 'key-scope-error')}
      </fieldset>
      <div class="field">
        <label for="key-projects">Projects (optional, comma-separated)</label>
        <input
          id="key-projects"
          name="projects"
          type="text"
          maxlength="2000"
          placeholder="example.com, blog.example.com"
          value="${f.projects}"
          ${projErr ? html` aria-invalid="true" aria-describedby="key-projects-error"` : ''}
        />
        <p class="muted">Empty: every project. Otherwise the key sees only these.</p>
        ${fieldError(f.errors, 'projects', 'key-projects-error')}
      </div>
      <div class="field">
        <label for="key-expires">Expires</label>
        <select id="key-expires" name="expires">
          ${EXPIRY_CHOICES.map(
            (c) =>
              html`<option value="${c.value}" ${f.expires === c.value ? ' selected' : ''}>
                ${c.label}
              </option>`,
          )}
        </select>
        ${fieldError(f.errors, 'expires_at', 'key-expires-error')}
      </div>
      <button type="submit" class="button button--primary">Create key</button>
    </form>
  </section>`;
}

function secretBox(c: { info: ApiKeyInfo; key: string }): SafeHtml {
  return html`<section class="card" aria-labelledby="key-secret-title" role="status">
    <h2 id="key-secret-title">Your new API key (${c.info.prefix}…)</h2>
    <p>Copy it now: it is not shown again. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
    <p><code class="secret break" id="key-secret">${c.key}</code></p>
  </section>`;
}

function keyRow(k: ApiKeyInfo, csrf: string, currentKeyId: number | null, canWrite: boolean): SafeHtml {
  const scope = k.scopes.includes('write') ? 'write' : 'read';
  const projects = k.projects ? k.projects.join(', ') : 'all projects';
  const expired = k.expiresAt !== null && Date.parse(k.expiresAt) <= Date.now();
  const state = k.revokedAt
    ? html`<p class="alert alert--error">Revoked on ${formatDate(k.revokedAt)}</p>`
    : expired
      ? html`<p class="alert alert--error">Expired on ${formatDate(k.expiresAt!)}</p>`
      : '';
  const revoke =
    k.revokedAt || !canWrite
    ? ''
    : html`<form
        method="post"
        action="/dashboard/keys/${k.id}/revoke"
        data-confirm="${k.id === currentKeyId ? 'Revoke the key you signed in with? You will be signed out.' : 'Revoke this key? Requests with it will fail from now on.'}"
      >
        <input type="hidden" name="_csrf" value="${csrf}" /><button
          type="submit"
          class="button button--small button--danger"
        >
          Revoke<span class="visually-hidden"> key ${k.prefix}</span>
        </button>
      </form>`;
  return html`<li class="project-row" id="key-${k.id}">
    <div class="project-row__main">
      <p class="project-row__name">
        <code>${k.prefix}…</code
        >${k.id === currentKeyId ? html` <span class="muted">(this session)</span>` : ''}
      </p>
      <p class="report-row__meta">
        #${k.id} · ${scope} · ${projects} · created ${formatDate(k.createdAt)} · last used
        ${k.lastUsedAt ? formatDate(k.lastUsedAt) : 'never'} · expires
        ${k.expiresAt ? formatDate(k.expiresAt) : 'never'}
      </p>
      ${state}
    </div>
    <div class="report-row__actions">${revoke}</div>
  </li>`;
}

export function keysView(d: KeysData): SafeHtml {
  const flash = d.flash
    ? html`<p class="alert alert--${d.flash.kind}" role="${d.flash.kind === 'error' ? 'alert' : 'status'}">
        ${d.flash.text}
      </p>`
    : '';
  const list =
    d.keys.length === 0
      ? html`<p class="empty">No keys.</p>`
      : html`<ul class="project-list">
          ${d.keys.map((k) => keyRow(k, d.csrf, d.currentKeyId, d.canWrite))}
        </ul>`;
  return html`<div class="page-head">
      <h1>API keys</h1>
      <p class="muted">
        Keys for the API: each with a scope, optionally limited to projects, optionally expiring.
      </p>
    </div>
    ${flash} ${d.created ? secretBox(d.created) : ''}
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">Your keys</h2>
      ${list}
    </section>
    ${d.canWrite
      ? createForm(d.csrf, d.form)
      : html`<p class="muted">Your role reads only: an admin of the organisation makes your keys.</p>`}`;
}
