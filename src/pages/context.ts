// The one small context every page route shares: the services, who is signed in
// (viewerOf/viewerFor/requireViewer), how a page is sent (send, sendError, notFoundPage), and
// the form helpers. Built once by src/pages/plugin.ts; a route file receives it and adds its
// routes — a new dashboard page is one file under routes/, one view under views/, one test.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionViewer } from '../services/signin/types.js';
import type { Services } from '../services/types.js';
import type { SafeHtml } from '../views/html.js';
import type { CookieKit } from './session.js';
import type { AttemptStore } from './throttle.js';
import type { Viewer } from '../views/layout.js';

/** The signed-in person of a request (a session that still holds; src/services/signin). */
export type SignedIn = SessionViewer;

export interface SendOptions {
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

export interface PageContext {
  services: Services;
  /** PAGEGRADE_PUBLIC_URL (the API links in downloads) */
  publicUrl: string;
  kit: CookieKit;
  /** wrong-password and sign-in attempts */
  attempts: AttemptStore;
  /** who is signed in (checked once per request); null when nobody */
  viewerOf(request: FastifyRequest): Promise<SignedIn | null>;
  /** the layout's viewer (name and the sign-out form's CSRF token) */
  viewerFor(request: FastifyRequest, reply: FastifyReply): Promise<Viewer>;
  /** the signed-in user, or null after redirecting to sign-in (the handler returns `reply`) */
  requireViewer(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null>;
  /** a page in the layout */
  send(
    reply: FastifyReply,
    status: number,
    title: string,
    viewer: Viewer,
    body: SafeHtml,
    options?: SendOptions,
  ): FastifyReply;
  /** the HTML error page for `status` (429 with Retry-After) */
  sendError(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    retryAfter?: number | null,
    /** a 403's reason (which role or scope it needs), shown instead of "Form expired" */
    reason?: string,
  ): Promise<FastifyReply>;
  /** the same 404 page for a missing report and one this viewer may not see */
  notFoundPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

// --- form and query helpers ------------------------------------------------------------------

/** A form or query value as one string ('' when absent or not a string). */
export const str = (v: unknown): string =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '';

/** A parsed form body as an object ({} when none). */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

/** The query as sent, as strings (for refilling forms and building page links). */
export function rawQuery(request: FastifyRequest, keys: readonly string[]): Record<string, string> {
  const url = new URL(request.url, 'http://x');
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = url.searchParams.get(k);
    if (v !== null) out[k] = v;
  }
  return out;
}

/** A same-site path to return to (never `//host` or a scheme). */
export function safePath(value: string, fallback: string, prefix = '/'): string {
  // eslint-disable-next-line no-control-regex
  if (!value.startsWith('/') || value.startsWith('//') || /[\u0000-\u001f\u007f\\]/.test(value))
    return fallback;
  let url: URL;
  try {
    url = new URL(value, 'http://local.invalid');
  } catch {
    return fallback;
  }
  if (url.origin !== 'http://local.invalid') return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith(prefix) ? path : fallback;
}

/** `path` with query parameters set (its #fragment kept). */
export function withParams(path: string, params: Record<string, string>): string {
  const [base, hash] = path.split('#') as [string, string | undefined];
  const url = new URL(base, 'http://x');
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}${hash ? `#${hash}` : ''}`;
}

/** Success notices after a dashboard action (`?done=`). */
export const NOTICES: Record<string, string> = {
  rerun: 'The report was audited again.',
  privacy: 'The privacy was saved.',
  deleted: 'The report was deleted.',
  project_deleted: 'The project and its reports were deleted.',
  project_saved: "The project's settings were saved.",
  ignore_added: 'The ignore rule was added: it applies from the next audit of the pages it covers.',
  ignore_removed: 'The ignore rule was removed: it no longer applies from the next audit.',
  scheduled: 'The schedule was saved.',
  batch_cancelled: 'The batch was cancelled.',
  batch_deleted: 'The batch was deleted.',
  unscheduled: 'The schedule was cleared.',
  project_branding_saved: "The project's branding was saved: its reports' PDFs show it from now on.",
  project_branding_cleared: "The project's branding was cleared: its PDFs show the organisation's again.",
};
