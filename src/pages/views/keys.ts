// The API keys page (read-only): which keys the user has, which one this session uses.
import type { ApiKeyInfo } from '../../services/types.js';
import { html, type SafeHtml } from '../html.js';
import { formatDate } from './report.js';

export function keysView(d: { keys: ApiKeyInfo[]; currentKeyId: number }): SafeHtml {
  const rows = d.keys.map(
    (k) => html`<tr>
  <td><code>${k.prefix}…</code>${k.id === d.currentKeyId ? html` <span class="muted">(this session)</span>` : ''}</td>
  <td>${formatDate(k.createdAt)}</td>
  <td>${k.lastUsedAt ? formatDate(k.lastUsedAt) : 'never'}</td>
  <td>${k.revokedAt ? html`Revoked ${formatDate(k.revokedAt)}` : 'Active'}</td>
</tr>`,
  );
  return html`<div class="page-head"><h1>API keys</h1><p class="muted">Keys sign in to these pages and authorise the API (<a href="/docs">API reference</a>).</p></div>
<section class="card" aria-labelledby="keys-title">
  <h2 id="keys-title">Your keys</h2>
  <div class="table-wrap" role="region" aria-label="Your API keys" tabindex="0"><table>
    <thead><tr><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>
  <p class="muted">A key is shown only once, when it is created. Create and revoke keys with the command line: <code>npx pagegrade keys create &lt;user&gt;</code>, <code>npx pagegrade keys revoke &lt;id&gt;</code>.</p>
</section>`;
}
