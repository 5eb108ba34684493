// The batch page's findings across a project's crawls (docs/sites.md, "Issue states and ignore
// rules"): a page's state beside it (new, or persisting since a crawl), and the pages an ignore
// rule covers and those fixed since the previous crawl, listed apart.
import type { Finding, FindingPage } from '../crawl/findings/types.js';
import { html, type SafeHtml } from './html.js';

const SHOWN = 50;

/** "new" or "persisting since crawl N" after a finding's page (nothing for a batch without states). */
export function pageState(p: FindingPage): SafeHtml | '' {
  if (p.state === 'new') return html` <span class="badge badge--new">new</span>`;
  if (p.state === 'persisting')
    return html` <span class="badge badge--persisting"
      >persisting since crawl
      <a href="/dashboard/batches/${p.since_batch_id ?? ''}">#${p.since_batch_id ?? ''}</a></span
    >`;
  return '';
}

/** The pages a rule ignores and those fixed since the previous crawl, apart from the finding's pages. */
export function findingApart(f: Finding): SafeHtml | '' {
  // as many as the finding's pages shown (the exports have them all)
  const ignored = (f.ignored ?? []).slice(0, SHOWN);
  const fixed = (f.fixed ?? []).slice(0, SHOWN);
  if (ignored.length === 0 && fixed.length === 0) return '';
  return html`${
    ignored.length
      ? html`<p class="muted">Ignored by a rule (not counted):</p>
          <ul class="finding__pages finding__pages--ignored">
            ${ignored.map((p) => html`<li><span class="break">${p.url}</span> <span class="muted">— ignored by rule: ${p.reason}</span></li>`)}
          </ul>`
      : ''
  }${
    fixed.length
      ? html`<p class="muted">Fixed since the previous crawl:</p>
          <ul class="finding__pages finding__pages--fixed">
            ${fixed.map((p) => html`<li><span class="break">${p.url}</span></li>`)}
          </ul>`
      : ''
  }`;
}
