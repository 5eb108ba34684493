// The project page (docs/sites.md, "The project page"): GET /dashboard/projects/:project (site
// score, the charts of its finished crawls, the latest crawl, the settings form), saving the
// settings (a PATCH of the API's, validated by the API's own schema) and "Crawl now" (the API's
// POST …/crawls) — Post/Redirect/Get, with the CSRF token like every form. The rules — owner
// only, a key limited to projects sees only those, limits, validation — are
// services.projects', as for the API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, type FieldErrors } from '../../errors.js';
import { ProjectParams } from '../../contract/projects.js';
import { ProjectSettingsBody } from '../../contract/project-settings.js';
import { fieldErrors } from '../../web/field-errors.js';
import { bodyOf, NOTICES, rawQuery, str, type PageContext, type SignedIn } from '../context.js';
import { unplacedErrors } from '../form-words.js';
import { parseExtractorLine } from '../../crawl/extract.js';
import type { Flash } from '../../views/dashboard.js';
import { CSRF_FIELD } from '../../views/forms.js';
import { canOf } from '../../views/layout.js';
import {
  PROJECT_FORM_FIELDS,
  projectFormOf,
  projectView,
  type ProjectFormState,
} from '../../views/project.js';
import type { IgnoreRuleFormState } from '../../views/ignore-rules.js';
import { brandingFormOf, type BrandingFormState } from '../../views/branding.js';
import type { SafeHtml } from '../../views/html.js';
import { projectBrandingSection } from '../../views/project-branding.js';
import { buildsSection } from '../../views/builds.js';

/** The settings form's body once read (below): the API's PATCH body, and the CSRF token. */
const SettingsForm = Type.Object(
  { ...ProjectSettingsBody.properties, [CSRF_FIELD]: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/** A textarea's lines, trimmed, the empty ones left out. */
const lines = (v: unknown) =>
  str(v)
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** `name: value` lines → a map (a line without a colon is a name with an empty value: the service names it). */
function pairs(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines(v)) {
    const i = line.indexOf(':');
    if (i === -1) out[line] = '';
    else out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

/** A number field: digits → the number; anything else as sent (the schema names the field). */
const numberOf = (v: string): number | string => (/^\d{1,9}$/.test(v) ? Number(v) : v);

/**
 * The form's fields → the API's PATCH body (each field given replaces that setting): every
 * setting the form shows is sent, but for the write-only secrets, which are sent only when
 * something is typed in (or "Remove" ticked) — an empty secret field keeps what is stored.
 */
function settingsBodyOf(form: Record<string, unknown>): Record<string, unknown> {
  const s = (k: string) => str(form[k]).trim();
  const body: Record<string, unknown> = { [CSRF_FIELD]: str(form[CSRF_FIELD]) };
  body.start_url = s('start_url') === '' ? null : s('start_url');
  body.mode = s('mode') || 'crawl';
  body.urls = lines(form.urls);
  body.include = lines(form.include);
  body.exclude = lines(form.exclude);
  body.extractors = lines(form.extractors).map(parseExtractorLine);
  if (s('max_pages') !== '') body.max_pages = numberOf(s('max_pages'));
  if (s('max_depth') !== '') body.max_depth = numberOf(s('max_depth'));
  body.render = s('render') === '1' ? 1 : 0;
  body.check_external = s('check_external') === '1' ? 1 : 0;
  if (s('max_external_checks') !== '') body.max_external_checks = numberOf(s('max_external_checks'));
  if (s('max_site_checks') !== '') body.max_site_checks = numberOf(s('max_site_checks'));
  for (const k of ['thin_content_words', 'near_duplicate_threshold', 'deep_page_depth'])
    if (s(k) !== '') body[k] = numberOf(s(k));
  body.default_privacy = numberOf(s('default_privacy') || '0');
  const schedule = s('schedule') || 'none';
  const timezone = s('timezone') || 'UTC';
  body.schedule =
    schedule === 'none' ? null : { every: schedule === 'custom' ? s('cron') : schedule, timezone };
  for (const k of ['headers', 'cookies'] as const) {
    if (s(`${k}_clear`) === '1') body[k] = {};
    else if (s(k) !== '') body[k] = pairs(form[k]);
  }
  const username = s('basic_auth_username');
  const password = str(form.basic_auth_password);
  if (s('basic_auth_clear') === '1') body.basic_auth = null;
  else if (password !== '') body.basic_auth = { username, password };
  // a new user name needs its password (the schema then says it is required)
  else if (username !== '' && username !== s('basic_auth_had')) body.basic_auth = { username, password };
  return body;
}

/** The API's field names → the form's (`urls.3` is the URLs box, `schedule.every` the cron or the choice). */
function placeErrors(fields: FieldErrors, form: ProjectFormState): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, messages] of Object.entries(fields)) {
    const [head, rest] = [k.split('.')[0]!, k.split('.').slice(1).join('.')];
    let field = head;
    if (head === 'schedule' && rest === 'timezone') field = 'timezone';
    else if (head === 'schedule' && rest !== '') field = form.schedule === 'custom' ? 'cron' : 'schedule';
    // custom extraction: `extractors.2.css` is line 3 of the box
    const line = head === 'extractors' ? /^(\d+)/.exec(rest) : null;
    if (line) {
      (out[field] ??= []).push(...messages.map((m) => `Line ${Number(line[1]) + 1}: ${m}`));
      continue;
    }
    (out[field] ??= []).push(...messages);
  }
  return out;
}

/** The form as sent (refilled after an error; the secrets never). */
function formAsSent(form: Record<string, unknown>): ProjectFormState {
  const s = (k: string) => str(form[k]);
  return {
    start_url: s('start_url'),
    mode: s('mode') || 'crawl',
    urls: s('urls'),
    max_pages: s('max_pages'),
    max_depth: s('max_depth'),
    include: s('include'),
    exclude: s('exclude'),
    render: s('render') === '1',
    check_external: s('check_external') === '1',
    max_external_checks: s('max_external_checks'),
    max_site_checks: s('max_site_checks'),
    thin_content_words: s('thin_content_words'),
    near_duplicate_threshold: s('near_duplicate_threshold'),
    deep_page_depth: s('deep_page_depth'),
    default_privacy: s('default_privacy') || '0',
    schedule: s('schedule') || 'none',
    cron: s('cron'),
    timezone: s('timezone'),
    basic_auth_username: s('basic_auth_username'),
    extractors: s('extractors'),
    errors: {},
  };
}

/**
 * The project page, with a notice or the errors of one of its forms (the settings, or the ignore
 * rule form of ./ignore-rules.ts); a project missing, another user's or one the key does not
 * see: the not-found page.
 */
export async function renderProjectPage(
  ctx: PageContext,
  request: FastifyRequest,
  reply: FastifyReply,
  o: {
    v: SignedIn;
    project: string;
    status: number;
    flash: Flash | null;
    form?: ProjectFormState | null;
    ignoreForm?: IgnoreRuleFormState | null;
    /** the project branding form as sent, after a 422 */
    brandingForm?: BrandingFormState | null;
  },
) {
  const detail = await ctx.services.projects.get(o.v, o.project);
  const viewer = await ctx.viewerFor(request, reply);
  const can = canOf(viewer);
  // the project's own PDF branding, for those who may set it (admins and owners)
  let branding: SafeHtml | '' = '';
  if (can('branding.write')) {
    const [own, org] = await Promise.all([
      ctx.services.branding.getProject(o.v, detail.project.project),
      ctx.services.branding.get(o.v),
    ]);
    branding = projectBrandingSection({
      project: detail.project.project,
      csrf: viewer.csrf ?? '',
      branding: own,
      org,
      form: o.brandingForm ?? brandingFormOf(own),
    });
  }
  // the project's newest CI builds, each linked to its page
  let builds: SafeHtml | '' = '';
  if (can('builds.read')) {
    const list = await ctx.services.builds.list(o.v, detail.project.project, { page: 1, perPage: 5 });
    builds = buildsSection(list.items, list.total);
  }
  return ctx.send(
    reply,
    o.status,
    detail.project.project,
    viewer,
    projectView({
      csrf: viewer.csrf ?? '',
      can,
      branding,
      builds,
      flash: o.flash,
      detail,
      form: o.form ?? projectFormOf(detail),
      ignoreForm: o.ignoreForm ?? null,
    }),
  );
}

export function projectPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  const render = (
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    project: string,
    status: number,
    flash: Flash | null,
    form: ProjectFormState | null,
  ) => renderProjectPage(ctx, request, reply, { v, project, status, flash, form });

  const params = { schema: { params: ProjectParams }, attachValidation: true };

  app.get<{ Params: { project: string } }>('/dashboard/projects/:project', params, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    if (request.validationError) return ctx.notFoundPage(request, reply);
    const done = rawQuery(request, ['done']).done;
    const flash: Flash | null = done && NOTICES[done] ? { kind: 'success', text: NOTICES[done]! } : null;
    return render(request, reply, v, request.params.project, 200, flash, null);
  });

  /** A 422: each error beside its field, the alert only for what has no field. */
  const fail = (
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    project: string,
    form: ProjectFormState,
    fields: FieldErrors,
  ) => {
    form.errors = placeErrors(fields, form);
    const rest = unplacedErrors(form.errors, PROJECT_FORM_FIELDS);
    const flash: Flash = {
      kind: 'error',
      text: rest || 'The settings were not saved: see the fields marked below.',
    };
    return render(request, reply, v, project, 422, flash, form);
  };

  app.post<{ Params: { project: string } }>(
    '/dashboard/projects/:project/settings',
    {
      schema: { params: ProjectParams, body: SettingsForm },
      attachValidation: true,
      preValidation: (request, _reply, done) => {
        const form = bodyOf(request);
        // the form as sent, kept to refill it; the body validated is the API's
        (request as { projectForm?: ProjectFormState }).projectForm = formAsSent(form);
        request.body = settingsBodyOf(form);
        done();
      },
    },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      // the path's name failing its schema is a page that does not exist
      if (request.validationError?.validationContext === 'params') return ctx.notFoundPage(request, reply);
      const project = request.params.project;
      const form = (request as { projectForm?: ProjectFormState }).projectForm ?? formAsSent({});
      if (request.validationError)
        return fail(request, reply, v, project, form, fieldErrors(request.validationError.validation));
      const body = { ...(request.body as Record<string, unknown>) };
      delete body[CSRF_FIELD];
      try {
        await services.projects.patch(v, project, body as ProjectSettingsBody);
      } catch (err) {
        if (err instanceof AppError && err.status === 422 && err.fields)
          return fail(request, reply, v, project, form, err.fields);
        throw err;
      }
      return reply.redirect(`/dashboard/projects/${encodeURIComponent(project)}?done=project_saved`, 303);
    },
  );

  app.post<{ Params: { project: string } }>(
    '/dashboard/projects/:project/crawl',
    params,
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      const project = request.params.project;
      try {
        const batch = await services.projects.crawl(v, project);
        return reply.redirect(`/dashboard/batches/${batch.id}`, 303);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 422 || !err.fields) throw err;
        // no start address (or Chromium for a rendered crawl): said beside the setting, and above
        const detail = await services.projects.get(v, project);
        const form = projectFormOf(detail);
        form.errors = placeErrors(err.fields, form);
        const text = Object.values(err.fields).flat().join(' ');
        return render(request, reply, v, project, 422, { kind: 'error', text: `Not crawled: ${text}` }, form);
      }
    },
  );
}
