// The dashboard's webhooks page: create one (its signing secret shown once), and for each: its
// events, whether it is enabled — a disabled one says why —, its latest deliveries, and the
// actions (send a test, disable or enable, delete).
import type { Webhook, WebhookDelivery } from '../services/webhooks/types.js';
import { EVENT_NAMES, WEBHOOK_EVENTS } from '../contract/webhooks/events.js';
import { html, type SafeHtml } from './html.js';
import type { Flash } from './dashboard.js';
import { formatDate } from './report.js';

export interface WebhookFormState {
  url: string;
  events: string[];
  description: string;
  errors: Record<string, string[]>;
}

export interface WebhookRowData {
  webhook: Webhook;
  /** the newest few deliveries */
  deliveries: WebhookDelivery[];
}

export interface WebhooksData {
  csrf: string;
  flash: Flash | null;
  /** the secret of the webhook just created (shown this once) */
  created: { webhook: Webhook; secret: string } | null;
  form: WebhookFormState;
  rows: WebhookRowData[];
}

function fieldError(errors: Record<string, string[]>, field: string, id: string): SafeHtml | '' {
  const list = errors[field];
  return list?.length ? html`<p class="field__error" id="${id}">${list.join(' ')}</p>` : '';
}

function eventChoice(e: (typeof EVENT_NAMES)[number], checked: boolean): SafeHtml {
  return html`<label class="choice"><input type="checkbox" name="events" value="${e}"${checked ? ' checked' : ''}> <code>${e}</code> <span class="muted">${WEBHOOK_EVENTS[e].summary}</span></label>`;
}

function createForm(csrf: string, f: WebhookFormState): SafeHtml {
  const urlErr = !!f.errors.url?.length;
  const evErr = !!f.errors.events?.length;
  return html`<section class="card" aria-labelledby="webhook-create-title">
  <h2 id="webhook-create-title">Add a webhook</h2>
  <form method="post" action="/dashboard/webhooks" class="stack">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div class="field">
      <label for="webhook-url">Endpoint URL</label>
      <input id="webhook-url" name="url" type="text" inputmode="url" spellcheck="false" autocapitalize="off" required maxlength="2048" placeholder="https://hooks.example.com/pagegrade" value="${f.url}"${urlErr ? html` aria-invalid="true" aria-describedby="webhook-url-error"` : ''}>
      ${fieldError(f.errors, 'url', 'webhook-url-error')}
    </div>
    <fieldset class="field"${evErr ? html` aria-describedby="webhook-events-error"` : ''}>
      <legend>Events</legend>
      ${EVENT_NAMES.map((e) => eventChoice(e, f.events.includes(e)))}
      ${fieldError(f.errors, 'events', 'webhook-events-error')}
    </fieldset>
    <div class="field">
      <label for="webhook-description">Description (optional)</label>
      <input id="webhook-description" name="description" type="text" maxlength="255" value="${f.description}">
      ${fieldError(f.errors, 'description', 'webhook-description-error')}
    </div>
    <button type="submit" class="button button--primary">Add webhook</button>
  </form>
</section>`;
}

function secretBox(c: { webhook: Webhook; secret: string }): SafeHtml {
  return html`<section class="card" aria-labelledby="webhook-secret-title" role="status">
  <h2 id="webhook-secret-title">Signing secret for ${c.webhook.url}</h2>
  <p>Copy it now: it is not shown again. Receivers verify each delivery with it (Standard Webhooks).</p>
  <p><code class="secret break" id="webhook-secret">${c.secret}</code></p>
</section>`;
}

function deliveryRow(d: WebhookDelivery): SafeHtml {
  const error = d.error && d.status !== 'delivered' ? html`<br><span class="muted">${d.error}</span>` : '';
  const took = d.durationMs !== null ? html` <span class="muted">(${d.durationMs} ms)</span>` : '';
  return html`<tr><td><code>${d.event}</code></td><td>${d.status}${error}</td><td>${d.attempts}</td><td>${d.responseStatus ?? '—'}${took}</td><td>${formatDate(d.lastAttemptAt ?? d.createdAt)}</td></tr>`;
}

function deliveriesTable(ds: WebhookDelivery[]): SafeHtml {
  if (ds.length === 0) return html`<p class="muted">No deliveries yet.</p>`;
  return html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Response</th><th scope="col">When</th></tr></thead>
  <tbody>${ds.map(deliveryRow)}</tbody>
</table></div>`;
}

function status(w: Webhook): SafeHtml {
  if (!w.enabled) {
    const on = w.disabledAt ? ` on ${formatDate(w.disabledAt)}` : '';
    return html`<p class="alert alert--error webhook-status">Disabled${on}: ${w.disabledReason ?? 'no reason recorded'}</p>`;
  }
  const n = w.consecutiveFailures;
  const failing = n > 0 ? ` · ${n} ${n === 1 ? 'delivery' : 'deliveries'} failed in a row` : '';
  return html`<p class="webhook-status">Enabled${failing}</p>`;
}

function webhookRow(r: WebhookRowData, csrf: string): SafeHtml {
  const w = r.webhook;
  const action = (path: string, label: string, cls = '', confirm = '') =>
    html`<form method="post" action="/dashboard/webhooks/${w.id}/${path}"${confirm ? html` data-confirm="${confirm}"` : ''}><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="button button--small ${cls}">${label}<span class="visually-hidden"> webhook ${w.id}</span></button></form>`;
  return html`<li class="project-row" id="webhook-${w.id}">
  <div class="project-row__main">
    <p class="project-row__name break">${w.url}</p>
    ${w.description ? html`<p>${w.description}</p>` : ''}
    <p class="report-row__meta">#${w.id} · ${w.events.join(', ')} · since ${formatDate(w.createdAt)}</p>
    ${status(w)}
    <details>
      <summary>Latest deliveries</summary>
      ${deliveriesTable(r.deliveries)}
    </details>
  </div>
  <div class="report-row__actions">
    ${w.enabled ? action('test', 'Send test') : ''}
    ${w.enabled ? action('disable', 'Disable') : action('enable', 'Enable', 'button--primary')}
    ${action('delete', 'Delete', 'button--danger', 'Delete this webhook and its delivery log?')}
  </div>
</li>`;
}

export function webhooksView(d: WebhooksData): SafeHtml {
  const flash = d.flash
    ? html`<p class="alert alert--${d.flash.kind}" role="${d.flash.kind === 'error' ? 'alert' : 'status'}">${d.flash.text}</p>`
    : '';
  const list =
    d.rows.length === 0
      ? html`<p class="empty">No webhooks yet.</p>`
      : html`<ul class="project-list">${d.rows.map((r) => webhookRow(r, d.csrf))}</ul>`;
  return html`<div class="page-head"><h1>Webhooks</h1><p class="muted">Pagegrade POSTs signed events to these URLs when your reports change.</p></div>
${flash}
${d.created ? secretBox(d.created) : ''}
<section class="card" aria-labelledby="webhooks-title">
  <h2 id="webhooks-title">Your webhooks</h2>
  ${list}
</section>
${createForm(d.csrf, d.form)}`;
}
