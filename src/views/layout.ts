// The page shell shared by every page: head (one stylesheet, one deferred script — both
// served by the app), a header with navigation (hidden in print), the main content and a footer.
import type { Operation } from '../services/access/table.js';
import { html, type Renderable, type SafeHtml } from './html.js';

/** Whether the signed-in viewer may do an operation of the access table (a view's forms ask it). */
export type Can = (op: Operation) => boolean;

/** The viewer's `can`; nobody signed in may do nothing. */
export const canOf = (viewer: Viewer): Can => viewer.can ?? (() => false);

export interface AssetUrls {
  css: string;
  js: string;
}

export interface Viewer {
  /** signed-in user's name, or null when anonymous */
  name: string | null;
  /** CSRF token for the header's sign-out form (when signed in) */
  csrf: string | null;
  /** what the access table lets them do (absent: signed out, nothing) */
  can?: Can;
  /** the instance admin (the header links the admin page) */
  isAdmin?: boolean;
  /** the organisation the session acts in, and the others the person may switch to (none: no switcher) */
  org?: { id: number; choices: { id: number; name: string; role: string }[] };
}

/** The header's organisation switcher (a person in several organisations). */
function orgSwitcher(v: Viewer): SafeHtml | string {
  const choices = v.org?.choices ?? [];
  if (choices.length < 2) return '';
  return html`<form method="post" action="/dashboard/organization" class="inline-form org-switcher">
            <input type="hidden" name="_csrf" value="${v.csrf ?? ''}">
            <label for="org-switch" class="visually-hidden">Organization</label>
            <select id="org-switch" name="org">${choices.map(
              (c) => html`<option value="${String(c.id)}"${c.id === v.org!.id ? html` selected` : ''}>${c.name} (${c.role})</option>`,
            )}</select>
            <button type="submit" class="link-button">Switch</button>
          </form>`;
}

export interface LayoutOptions {
  title: string;
  assets: AssetUrls;
  viewer: Viewer;
  body: Renderable;
  /** class on <main>, e.g. "narrow" for forms */
  mainClass?: string;
  /** path to come back to after signing in (the header's sign-in link) */
  loginNext?: string;
  /** a page's own print stylesheet (media=print), e.g. a report's running header */
  printCss?: string;
  /** reloads the page every N seconds when scripts are off (a batch that is running) */
  refreshWithoutScript?: number;
  /** a share link's page: no navigation, no sign-in, no link into the dashboard */
  shared?: boolean;
}

const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%231d4ed8'/%3E%3Cpath d='M9 17l5 5 9-11' stroke='white' stroke-width='4' fill='none' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E";

export function layout(o: LayoutOptions): SafeHtml {
  const next =
    o.loginNext && o.loginNext !== '/login' ? `/login?next=${encodeURIComponent(o.loginNext)}` : '/login';
  const can = canOf(o.viewer);
  const link = (op: Operation, href: string, label: string) =>
    can(op) ? html`<a href="${href}">${label}</a>
          ` : '';
  const nav =
    o.viewer.name !== null
      ? html`<a href="/dashboard">Dashboard</a>
          <a href="/dashboard/projects">Projects</a>
          ${link('batches.read', '/dashboard/batches', 'Batches')}${link('schedules.read', '/dashboard/schedules', 'Schedules')}${link('webhooks.read', '/dashboard/webhooks', 'Webhooks')}${link('account.read', '/dashboard/keys', 'API keys')}${link('members.read', '/dashboard/members', 'Members')}${link('branding.read', '/dashboard/branding', 'Branding')}<a href="/docs">API reference</a>
          <a href="/dashboard/account">Account</a>
          ${o.viewer.isAdmin ? html`<a href="/dashboard/admin">Admin</a>` : ''}
          ${orgSwitcher(o.viewer)}
          <form method="post" action="/logout" class="inline-form">
            <input type="hidden" name="_csrf" value="${o.viewer.csrf ?? ''}">
            <button type="submit" class="link-button">Sign out <span class="visually-hidden">(${o.viewer.name})</span></button>
          </form>`
      : html`<a href="/docs">API reference</a> <a href="${next}">Sign in</a>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${o.title} · Pagegrade</title>
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="${o.assets.css}">
${o.printCss ? html`<link rel="stylesheet" href="${o.printCss}" media="print">
` : ''}${o.refreshWithoutScript ? html`<noscript><meta http-equiv="refresh" content="${o.refreshWithoutScript}"></noscript>
` : ''}<script src="${o.assets.js}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="site-header__inner">
    ${o.shared ? html`<span class="brand"><span class="brand__mark" aria-hidden="true"></span>Pagegrade</span>` : html`<a class="brand" href="${o.viewer.name !== null ? '/dashboard' : '/login'}"><span class="brand__mark" aria-hidden="true"></span>Pagegrade</a>
    <nav class="site-nav" aria-label="Main">${nav}</nav>`}
  </div>
</header>
<main id="main" class="${o.mainClass ?? ''}" tabindex="-1">
${o.body}
</main>
<footer class="site-footer"><p>Made with Pagegrade, a self-hosted web page auditor.</p></footer>
</body>
</html>
`;
}
