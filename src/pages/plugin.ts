// The web pages: GET /reports/:id (with its password form), /login and /logout, the dashboard
// and its projects page, the stylesheet and script, and HTML error pages. Server-rendered
// with the escaping `html` tag; no client framework. Everything goes through the Services
// interface (the same rules as the API); list and form parameters are validated with the
// API's own TypeBox schemas and error messages (src/http).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import type { Redis } from 'ioredis';
import { optionalProjectName, projectName } from '../analyzer/url.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { isApiPath, toAppError } from '../http/plugins/errors.js';
import {
  ListProjectsQuery,
  ListReportsQuery,
  ProjectParams,
  ReportParams,
  StoreReportBody,
  UpdateReportBody,
} from '../http/schemas.js';
import { fieldErrors } from '../http/validation.js';
import type {
  ListProjectsQuery as ProjectsQuery,
  ListReportsQuery as ReportsQuery,
  PerPage,
  Privacy,
  Services,
} from '../services/types.js';
import { RedisAttemptStore } from './attempt-store-redis.js';
import { html, type SafeHtml } from './html.js';
import { PAGE_SECURITY_HEADERS } from './security.js';
import { CookieKit, CSRF_FIELD } from './session.js';
import { blockedFor, LOGIN_RULE, MemoryAttemptStore, PASSWORD_RULE, type AttemptStore } from './throttle.js';
import { dashboardView, projectsView, type CreateFormState, type Flash } from './views/dashboard.js';
import { errorPage, errorView, loginView, passwordView } from './views/forms.js';
import { layout, type AssetUrls, type Viewer } from './views/layout.js';
import { reportView } from './views/report.js';

export interface PagesOptions {
  services: Services;
  config: Pick<Config, 'publicUrl'>;
  /** where wrong-password and sign-in attempts are counted; default: Redis when given, else memory */
  attemptStore?: AttemptStore;
  redis?: Redis | null;
}

interface SignedIn {
  userId: number;
  keyId: number;
  name: string;
}

// --- assets ----------------------------------------------------------------------------------

interface Asset {
  body: string;
  type: string;
  hash: string;
}

/** src/pages/assets beside this file (tsx) or, from dist/pages, the source tree's copy. */
function assetsDir(): URL {
  const here = new URL('./assets/', import.meta.url);
  if (existsSync(new URL('pagegrade.css', here))) return here;
  return new URL('../../src/pages/assets/', import.meta.url);
}

function loadAssets(): Map<string, Asset> {
  const dir = assetsDir();
  const out = new Map<string, Asset>();
  for (const [name, type] of [
    ['pagegrade.css', 'text/css; charset=utf-8'],
    ['pagegrade.js', 'text/javascript; charset=utf-8'],
  ] as const) {
    const body = readFileSync(new URL(name, dir), 'utf8');
    out.set(name, { body, type, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) });
  }
  return out;
}

// --- helpers -----------------------------------------------------------------------------------

const str = (v: unknown): string =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '';

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

/** The query as sent, as strings (for refilling forms and building page links). */
function rawQuery(request: FastifyRequest, keys: readonly string[]): Record<string, string> {
  const url = new URL(request.url, 'http://x');
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = url.searchParams.get(k);
    if (v !== null) out[k] = v;
  }
  return out;
}

/** A same-site path to return to (never `//host` or a scheme). */
function safePath(value: string, fallback: string, prefix = '/'): string {
  // eslint-disable-next-line no-control-regex
  if (!value.startsWith('/') || value.startsWith('//') || /[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
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

function withParams(path: string, params: Record<string, string>): string {
  const [base, hash] = path.split('#') as [string, string | undefined];
  const url = new URL(base, 'http://x');
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}${hash ? `#${hash}` : ''}`;
}

function validationMessages(v: FastifySchemaValidationError[] | undefined): Record<string, string[]> {
  return v ? fieldErrors(v) : {};
}

const REPORT_LIST_KEYS = [
  'search',
  'search_by',
  'project',
  'result',
  'sort_by',
  'sort',
  'per_page',
  'page',
] as const;
const PROJECT_LIST_KEYS = ['search', 'search_by', 'sort_by', 'sort', 'per_page', 'page'] as const;

const NOTICES: Record<string, string> = {
  rerun: 'The report was audited again.',
  privacy: 'The privacy was saved.',
  deleted: 'The report was deleted.',
  project_deleted: 'The project and its reports were deleted.',
};

// --- the plugin --------------------------------------------------------------------------------

export async function pagesPlugin(app: FastifyInstance, opts: PagesOptions): Promise<void> {
  const { services } = opts;
  const secure = opts.config.publicUrl.startsWith('https:');
  const kit = new CookieKit(await services.settings.sessionSecret(), secure);
  const attempts: AttemptStore =
    opts.attemptStore ?? (opts.redis ? new RedisAttemptStore(opts.redis) : new MemoryAttemptStore());
  const assets = loadAssets();
  const assetUrls: AssetUrls = {
    css: `/assets/pagegrade.css?v=${assets.get('pagegrade.css')!.hash}`,
    js: `/assets/pagegrade.js?v=${assets.get('pagegrade.js')!.hash}`,
  };

  // who is signed in (checked once per request: a valid signature, not expired, key not revoked)
  const viewers = new WeakMap<FastifyRequest, Promise<SignedIn | null>>();
  const viewerOf = (request: FastifyRequest): Promise<SignedIn | null> => {
    let p = viewers.get(request);
    if (!p) {
      p = (async () => {
        const s = kit.readSession(request);
        if (!s) return null;
        try {
          const keys = await services.keys.list(s.userId);
          if (!keys.some((k) => k.id === s.keyId && k.revokedAt === null)) return null;
          const user = await services.users.get(s.userId);
          return user ? { userId: s.userId, keyId: s.keyId, name: user.name } : null;
        } catch (err) {
          if (err instanceof AppError && err.status === 404) return null;
          throw err;
        }
      })();
      viewers.set(request, p);
    }
    return p;
  };

  const viewerFor = async (request: FastifyRequest, reply: FastifyReply): Promise<Viewer> => {
    const v = await viewerOf(request);
    return v ? { name: v.name, csrf: kit.csrfToken(request, reply, v.userId) } : { name: null, csrf: null };
  };

  const send = (
    reply: FastifyReply,
    status: number,
    title: string,
    viewer: Viewer,
    body: SafeHtml,
    extra: { mainClass?: string; loginNext?: string } = {},
  ) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(layout({ title, assets: assetUrls, viewer, body, ...extra }).value);

  const sendError = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    retryAfter?: number | null,
  ) => {
    const page = errorPage(status);
    if (retryAfter) reply.header('retry-after', String(retryAfter));
    reply.header('cache-control', 'no-store');
    const viewer = await viewerFor(request, reply).catch(() => ({ name: null, csrf: null }) as Viewer);
    return send(reply, status, page.title, viewer, errorView(page, retryAfter), {
      mainClass: 'narrow',
      loginNext: request.method === 'GET' ? request.url : '/dashboard',
    });
  };

  /** The same 404 page for a missing report and one this viewer may not see. */
  const notFoundPage = (request: FastifyRequest, reply: FastifyReply) => sendError(request, reply, 404);

  // every response of these routes carries the security headers; pages are not cached
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(PAGE_SECURITY_HEADERS);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (reply.getHeader('content-type')?.toString().startsWith('text/html')) reply.header('vary', 'Cookie');
    void request;
    return payload;
  });

  // a page's POST must come with the CSRF token of this browser (and its signed-in user)
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'POST') return;
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError(403, 'csrf', 'Cross-site form.');
    const token = str(bodyOf(request)[CSRF_FIELD]);
    const viewer = await viewerOf(request);
    let ok = kit.checkCsrf(request, token, viewer?.userId ?? null);
    // signing out still works with a page rendered before the session's key was revoked
    const signed = request.routeOptions.url === '/logout' ? kit.readSession(request) : null;
    if (!ok && signed) ok = kit.checkCsrf(request, token, signed.userId);
    if (!ok) throw new AppError(403, 'csrf', 'The form has expired.');
  });

  app.setErrorHandler(async (err, request, reply) => {
    const appError = toAppError(err);
    if (!appError || appError.status >= 500) request.log.error({ err }, 'page request failed');
    const status = appError?.status ?? 500;
    const retry = appError?.headers?.['Retry-After'];
    return sendError(request, reply, status, retry ? Number(retry) : null);
  });

  // --- assets --------------------------------------------------------------------------------

  app.get<{ Params: { name: string }; Querystring: { v?: string } }>(
    '/assets/:name',
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return notFoundPage(request, reply);
      reply.header(
        'cache-control',
        request.query.v === asset.hash ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
      return reply.type(asset.type).send(asset.body);
    },
  );

  // --- report page -----------------------------------------------------------------------------

  /** The report when this viewer may know it exists; null → the same 404 as a missing one. */
  const loadReport = async (request: FastifyRequest, id: number) => {
    const report = await services.reports.find(id);
    if (!report) return null;
    const viewer = await viewerOf(request);
    const owner = viewer !== null && viewer.userId === report.userId;
    if (report.privacy === 1 && !owner) return null;
    return { report, owner };
  };

  const showPasswordForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    status: number,
    error: string | null,
  ) => {
    const viewer = await viewerFor(request, reply);
    const v = await viewerOf(request);
    const csrf = kit.csrfToken(request, reply, v?.userId ?? null);
    return send(reply, status, 'Protected report', viewer, passwordView({ id, csrf, error }), {
      mainClass: 'narrow',
      loginNext: `/reports/${id}`,
    });
  };

  app.get<{ Params: { id: number } }>(
    '/reports/:id',
    { schema: { params: ReportParams }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return notFoundPage(request, reply);
      const id = request.params.id;
      const found = await loadReport(request, id);
      if (!found) return notFoundPage(request, reply);
      const { report, owner } = found;
      if (report.privacy === 2 && !owner && !kit.hasAccess(request, id, report.updatedAt)) {
        return showPasswordForm(request, reply, id, 200, null);
      }
      const viewer = await viewerFor(request, reply);
      if (report.privacy === 0 && !owner) reply.header('cache-control', 'private, no-cache');
      return send(reply, 200, `Report for ${report.url}`, viewer, reportView(report, { owner }), {
        loginNext: `/reports/${id}`,
      });
    },
  );

  app.post<{ Params: { id: number } }>(
    '/reports/:id',
    { schema: { params: ReportParams }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) return notFoundPage(request, reply);
      const id = request.params.id;
      const found = await loadReport(request, id);
      if (!found) return notFoundPage(request, reply);
      if (found.report.privacy !== 2 || found.owner) return reply.redirect(`/reports/${id}`, 303);

      const key = `report-password:${id}:${request.ip}`;
      const wait = await blockedFor(attempts, key, PASSWORD_RULE);
      if (wait !== null) return sendError(request, reply, 429, wait);
      const password = str(bodyOf(request).password);
      const ok =
        password.length > 0 &&
        password.length <= 128 &&
        (await services.reports.verifyPassword(id, password));
      if (!ok) {
        await attempts.hit(key, PASSWORD_RULE.windowMs);
        return showPasswordForm(request, reply, id, 401, 'That password is not right.');
      }
      kit.grantAccess(reply, id, found.report.updatedAt);
      return reply.redirect(`/reports/${id}`, 303);
    },
  );

  // --- sign-in ---------------------------------------------------------------------------------

  const showLogin = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    next: string,
    error: string | null,
  ) => {
    const csrf = kit.csrfToken(request, reply, null);
    return send(reply, status, 'Sign in', { name: null, csrf: null }, loginView({ csrf, next, error }), {
      mainClass: 'narrow',
    });
  };

  app.get('/login', async (request, reply) => {
    const next = safePath(rawQuery(request, ['next']).next ?? '', '/dashboard');
    if (await viewerOf(request)) return reply.redirect(next, 303);
    return showLogin(request, reply, 200, next, null);
  });

  app.post('/login', async (request, reply) => {
    const body = bodyOf(request);
    const next = safePath(str(body.next), '/dashboard');
    const key = `login:${request.ip}`;
    const wait = await blockedFor(attempts, key, LOGIN_RULE);
    if (wait !== null) return sendError(request, reply, 429, wait);
    const token = str(body.key).trim();
    const auth = token.length > 0 && token.length <= 512 ? await services.auth.authenticate(token) : null;
    if (!auth) {
      await attempts.hit(key, LOGIN_RULE.windowMs);
      return showLogin(request, reply, 401, next, 'That API key is not valid.');
    }
    kit.startSession(reply, auth.userId, auth.keyId);
    return reply.redirect(next, 303);
  });

  // a person who types /logout gets a sign-out button (signing out is a POST with the CSRF token)
  app.get('/logout', async (request, reply) => {
    if (!(await viewerOf(request))) return reply.redirect('/login', 303);
    const viewer = await viewerFor(request, reply);
    const body = html`<h1>Sign out</h1>
      <form method="post" action="/logout" class="stack">
        <input type="hidden" name="${CSRF_FIELD}" value="${viewer.csrf ?? ''}">
        <button type="submit">Sign out</button>
      </form>`;
    return send(reply, 200, 'Sign out', viewer, body, { mainClass: 'narrow' });
  });

  app.post('/logout', async (_request, reply) => {
    kit.endSession(reply);
    return reply.redirect('/login', 303);
  });

  // --- dashboard -------------------------------------------------------------------------------

  const requireViewer = async (request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> => {
    const v = await viewerOf(request);
    if (!v) {
      const next = request.method === 'GET' ? request.url : '/dashboard';
      void reply.redirect(`/login?next=${encodeURIComponent(next)}`, 303);
    }
    return v;
  };

  const renderDashboard = async (
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    rawList: Record<string, string>,
    query: ReportsQuery | null,
    flash: Flash | null,
    create: CreateFormState,
  ) => {
    const [list, projects] = await Promise.all([
      query ? services.reports.list(v.userId, query) : Promise.resolve(null),
      services.projects.list(v.userId, { sortBy: 'project', sort: 'asc', perPage: 100, page: 1 }),
    ]);
    const viewer = await viewerFor(request, reply);
    return send(
      reply,
      status,
      'Dashboard',
      viewer,
      dashboardView({
        userName: v.name,
        csrf: viewer.csrf ?? '',
        flash,
        create,
        raw: rawList,
        back: `/dashboard${Object.keys(rawList).length ? `?${new URLSearchParams(rawList).toString()}` : ''}`,
        query,
        list,
        projects: projects.items.map((p) => p.project),
      }),
    );
  };

  const toReportsQuery = (q: Record<string, unknown>): ReportsQuery => {
    const s = (k: string) => (typeof q[k] === 'string' && q[k] !== '' ? (q[k] as string) : undefined);
    return {
      search: s('search'),
      searchBy: 'url',
      project: optionalProjectName(s('project')),
      result: s('result') as ReportsQuery['result'],
      sortBy: s('sort_by') as ReportsQuery['sortBy'],
      sort: s('sort') as ReportsQuery['sort'],
      perPage: (typeof q.per_page === 'number' ? q.per_page : undefined) as PerPage | undefined,
      page: typeof q.page === 'number' ? q.page : undefined,
    };
  };

  app.get(
    '/dashboard',
    { schema: { querystring: ListReportsQuery }, attachValidation: true },
    async (request, reply) => {
      const v = await requireViewer(request, reply);
      if (!v) return reply;
      const raw = rawQuery(request, REPORT_LIST_KEYS);
      const extra = rawQuery(request, ['done', 'error']);
      let flash: Flash | null =
        extra.done && NOTICES[extra.done] ? { kind: 'success', text: NOTICES[extra.done]! } : null;
      let query: ReportsQuery | null = null;
      let status = 200;
      if (request.validationError) {
        const errors = validationMessages(request.validationError.validation);
        flash = {
          kind: 'error',
          text: Object.values(errors).flat().join(' ') || 'The filters are not valid.',
        };
        status = 422;
      } else {
        query = toReportsQuery(request.query as Record<string, unknown>);
      }
      return renderDashboard(request, reply, v, status, raw, query, flash, {
        url: '',
        privacy: '0',
        errors: {},
      });
    },
  );

  /** Re-renders the dashboard (its first page) with a form's errors. */
  const dashboardWithErrors = (
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    errors: Record<string, string[]>,
    create: CreateFormState,
    prefix = '',
  ) => {
    const text = `${prefix}${Object.values(errors).flat().join(' ')}`;
    return renderDashboard(request, reply, v, 422, {}, {}, { kind: 'error', text }, create);
  };

  app.post(
    '/dashboard/reports',
    { schema: { body: StoreReportBody }, attachValidation: true },
    async (request, reply) => {
      const v = await requireViewer(request, reply);
      if (!v) return reply;
      const body = bodyOf(request);
      const form: CreateFormState = { url: str(body.url), privacy: String(body.privacy ?? '0'), errors: {} };
      if (request.validationError) {
        form.errors = validationMessages(request.validationError.validation);
        return dashboardWithErrors(request, reply, v, form.errors, form);
      }
      try {
        const privacy = (typeof body.privacy === 'number' ? body.privacy : 0) as Privacy;
        const report = await services.reports.create(v.userId, {
          url: form.url,
          privacy,
          password: privacy === 2 ? str(body.password) || null : null,
        });
        return reply.redirect(`/reports/${report.id}`, 303);
      } catch (err) {
        if (err instanceof AppError && err.status === 422 && err.fields) {
          form.errors = err.fields;
          return dashboardWithErrors(request, reply, v, err.fields, form);
        }
        throw err;
      }
    },
  );

  const backTo = (request: FastifyRequest) => safePath(str(bodyOf(request).back), '/dashboard', '/dashboard');

  const updateRoute = (
    path: string,
    schema: object | null,
    act: (v: SignedIn, id: number, body: Record<string, unknown>) => Promise<string>,
  ) =>
    app.post<{ Params: { id: number } }>(
      path,
      { schema: { params: ReportParams, ...(schema ? { body: schema } : {}) }, attachValidation: true },
      async (request, reply) => {
        const v = await requireViewer(request, reply);
        if (!v) return reply;
        const validation = request.validationError?.validation;
        if (request.validationError && request.validationError.validationContext === 'params')
          return notFoundPage(request, reply);
        const id = request.params.id;
        const empty = { url: '', privacy: '0', errors: {} };
        if (validation)
          return dashboardWithErrors(
            request,
            reply,
            v,
            validationMessages(validation),
            empty,
            `Report #${id}: `,
          );
        try {
          const done = await act(v, id, bodyOf(request));
          return reply.redirect(withParams(backTo(request), { done }), 303);
        } catch (err) {
          if (err instanceof AppError && err.status === 404) return notFoundPage(request, reply);
          if (err instanceof AppError && err.status === 422 && err.fields) {
            return dashboardWithErrors(request, reply, v, err.fields, empty, `Report #${id}: `);
          }
          throw err;
        }
      },
    );

  updateRoute('/dashboard/reports/:id/rerun', null, async (v, id) => {
    await services.reports.update(v.userId, id, { results: true });
    return 'rerun';
  });

  updateRoute('/dashboard/reports/:id/privacy', UpdateReportBody, async (v, id, body) => {
    const privacy = (typeof body.privacy === 'number' ? body.privacy : undefined) as Privacy | undefined;
    const password = str(body.password);
    await services.reports.update(v.userId, id, {
      ...(privacy !== undefined ? { privacy } : {}),
      ...(password !== '' ? { password } : {}),
    });
    return 'privacy';
  });

  updateRoute('/dashboard/reports/:id/delete', null, async (v, id) => {
    await services.reports.delete(v.userId, id);
    return 'deleted';
  });

  // --- projects --------------------------------------------------------------------------------

  app.get(
    '/dashboard/projects',
    { schema: { querystring: ListProjectsQuery }, attachValidation: true },
    async (request, reply) => {
      const v = await requireViewer(request, reply);
      if (!v) return reply;
      const raw = rawQuery(request, PROJECT_LIST_KEYS);
      const done = rawQuery(request, ['done']).done;
      let flash: Flash | null = done && NOTICES[done] ? { kind: 'success', text: NOTICES[done]! } : null;
      let query: ProjectsQuery | null = null;
      let status = 200;
      if (request.validationError) {
        const errors = validationMessages(request.validationError.validation);
        flash = { kind: 'error', text: Object.values(errors).flat().join(' ') };
        status = 422;
      } else {
        const q = request.query as Record<string, unknown>;
        const s = (k: string) => (typeof q[k] === 'string' && q[k] !== '' ? (q[k] as string) : undefined);
        query = {
          search: s('search'),
          searchBy: 'project',
          sortBy: s('sort_by') as ProjectsQuery['sortBy'],
          sort: s('sort') as ProjectsQuery['sort'],
          perPage: (typeof q.per_page === 'number' ? q.per_page : undefined) as PerPage | undefined,
          page: typeof q.page === 'number' ? q.page : undefined,
        };
      }
      const list = query ? await services.projects.list(v.userId, query) : null;
      const viewer = await viewerFor(request, reply);
      return send(
        reply,
        status,
        'Projects',
        viewer,
        projectsView({ csrf: viewer.csrf ?? '', flash, raw, query, list }),
      );
    },
  );

  app.post<{ Params: { project: string } }>(
    '/dashboard/projects/:project/delete',
    { schema: { params: ProjectParams }, attachValidation: true },
    async (request, reply) => {
      const v = await requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return notFoundPage(request, reply);
      try {
        await services.projects.delete(v.userId, projectName(request.params.project));
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return notFoundPage(request, reply);
        throw err;
      }
      return reply.redirect('/dashboard/projects?done=project_deleted', 303);
    },
  );

  // --- everything else outside /api: the HTML 404 page ------------------------------------------

  app.get('/', async (request, reply) =>
    reply.redirect((await viewerOf(request)) ? '/dashboard' : '/login', 303),
  );

  app.get('/*', async (request, reply) => {
    if (isApiPath(request.url)) return reply.callNotFound();
    return notFoundPage(request, reply);
  });
}
