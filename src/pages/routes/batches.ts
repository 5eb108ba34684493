// The dashboard's batches (docs/sites.md): GET /dashboard/batches (start a batch, the user's
// batches), GET /dashboard/batches/:id (progress, then the summary, findings and pages table),
// its live progress for the page's script (Server-Sent Events on the session), the downloads
// (the API's exports, on the session) and the cancel and delete forms (Post/Redirect/Get). The
// rules — owner only, limits, validation — are services.batches', as for the API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Value } from 'typebox/value';
import { AppError } from '../../errors.js';
import type { Batch } from '../../services/batches/types.js';
import {
  BatchParams,
  CreateBatchBody,
  ListBatchPagesQuery,
  ListBatchesQuery,
} from '../../contract/batches/requests.js';
import { batchInputOf, normalizeBatchBody, sendBatchExport, streamProgress } from '../../web/batches.js';
import { fieldErrors } from '../../web/field-errors.js';
import { bodyOf, NOTICES, rawQuery, str, type PageContext, type SignedIn } from '../context.js';
import { BATCH_FORM, formErrors, unplacedErrors } from '../form-words.js';
import { extractorLine, type Extractor } from '../../crawl/extract.js';
import { readFilters, type FilterLabels } from '../list-filters.js';
import { PAGE_SECURITY_HEADERS } from '../security.js';
import type { Flash } from '../../views/dashboard.js';
import { batchesView, batchView, isRunning } from '../../views/batches.js';
import { emptyBatchForm, type BatchFormState } from '../../views/batch-form.js';
import { canOf } from '../../views/layout.js';

/** without scripts, a running batch's page reloads this often */
const REFRESH_SECONDS = 5;

const PAGE_KEYS = ['search', 'state', 'result', 'sort_by', 'sort', 'per_page', 'page'] as const;
const PAGE_LABELS: Record<string, FilterLabels> = {
  search: { label: 'The search', unset: 'every URL' },
  state: { label: 'The state', unset: 'any state' },
  result: { label: 'The result', unset: 'any result' },
  sort_by: {
    label: 'Sort by',
    choices: { found: 'Found', url: 'URL', score: 'Score', result: 'Result', status: 'HTTP status' },
  },
  sort: { label: 'The order', choices: { asc: 'Ascending', desc: 'Descending' } },
  per_page: { label: 'Per page', choices: { '25': '25 per page' } },
  page: { label: 'The page', choices: { '1': 'the first page' } },
};
const LIST_LABELS: Record<string, FilterLabels> = {
  per_page: { label: 'Per page', choices: { '10': '10 per page' } },
  page: { label: 'The page', choices: { '1': 'the first page' } },
};

/** The fields the batch form shows (their errors are shown next to them). */
const BATCH_FORM_FIELDS = [
  'mode',
  'url',
  'urls',
  'max_pages',
  'max_depth',
  'include',
  'exclude',
  'privacy',
  'render',
  'extractors',
  'check_external',
  'max_external_checks',
  'max_site_checks',
  'thin_content_words',
  'near_duplicate_threshold',
  'deep_page_depth',
];

/** The errors by the form's fields (`urls.3` is line 4 of the URLs box), in the form's words. */
function batchFormErrors(fields: Record<string, string[]>): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const [k, messages] of Object.entries(fields)) {
    const line = /^urls\.(\d+)$/.exec(k);
    if (line)
      (byField.urls ??= []).push(
        `Line ${Number(line[1]) + 1}: each line must be one address that starts with http:// or https://.`,
      );
    else if (/^extractors\.(\d+)/.test(k)) {
      // custom extraction: line N of the box (src/crawl/extract.ts parseExtractorLine)
      const n = Number(/^extractors\.(\d+)/.exec(k)![1]) + 1;
      (byField.extractors ??= []).push(
        ...messages.map((m) => `Line ${n}: ${m.replace(/^The extractors\.\d+\.?(\w*) /, (_x, f: string) => (f ? `The ${f} ` : 'The line '))}`),
      );
    } else (byField[k] ??= []).push(...messages);
  }
  return formErrors(BATCH_FORM, byField);
}

/** The extractors box as sent (read into objects by normalizeBatchBody): its lines again. */
const extractorsSent = (v: unknown): string =>
  Array.isArray(v)
    ? v.map((x) => (typeof x === 'string' ? x : extractorLine(x as Extractor))).join('\n')
    : typeof v === 'string'
      ? v
      : '';

/** The page's progress event: what its script updates. */
const progressData = (b: Batch) =>
  JSON.stringify({
    status: b.status,
    discovered: b.progress.discovered,
    audited: b.progress.audited,
    failed: b.progress.failed + b.progress.skipped,
    remaining: b.progress.remaining,
    reports_created: b.reports.created,
    reports_updated: b.reports.updated,
  });

export function batchPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  async function renderList(
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    flash: Flash | null,
    form: BatchFormState,
  ) {
    const read = readFilters<{ page?: number; per_page?: number }>(
      ListBatchesQuery,
      new URL(request.url, 'http://x').searchParams,
      ['page', 'per_page'],
      LIST_LABELS,
    );
    const page = read.params.page ?? 1;
    const perPage = read.params.per_page ?? 10;
    const list = await services.batches.list(v.orgId, { page, perPage });
    const viewer = await ctx.viewerFor(request, reply);
    const notice: Flash | null = read.notices.length
      ? { kind: 'notice', text: read.notices.join(' ') }
      : null;
    return ctx.send(
      reply,
      status,
      'Batches',
      viewer,
      batchesView({ csrf: viewer.csrf ?? '', can: canOf(viewer), flash: flash ?? notice, form, list, page, perPage }),
    );
  }

  app.get('/dashboard/batches', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const done = rawQuery(request, ['done']).done;
    const flash: Flash | null = done && NOTICES[done] ? { kind: 'success', text: NOTICES[done]! } : null;
    return renderList(request, reply, v, 200, flash, emptyBatchForm());
  });

  app.post<{ Body: CreateBatchBody }>(
    '/dashboard/batches',
    {
      schema: { body: CreateBatchBody },
      attachValidation: true,
      preValidation: (request, _reply, done) => {
        const body = bodyOf(request);
        // the form's number fields may be left empty (the defaults), and a list needs no site
        for (const k of [
          'max_pages',
          'max_depth',
          'max_external_checks',
          'max_site_checks',
          'thin_content_words',
          'near_duplicate_threshold',
          'deep_page_depth',
          'url',
        ])
          if (body[k] === '') delete body[k];
        for (const k of ['include', 'exclude', 'extractors'])
          if (typeof body[k] === 'string' && body[k].trim() === '') delete body[k];
        if (body.mode === 'list' && body.url === undefined) {
          const first = str(body.urls)
            .split(/[\r\n]+/)
            .map((s) => s.trim())
            .find((s) => s !== '');
          if (first) body.url = first;
        }
        if (body.urls === '' || body.mode !== 'list') delete body.urls;
        normalizeBatchBody(body);
        done();
      },
    },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      const body = bodyOf(request);
      const sent = (k: string) =>
        Array.isArray(body[k]) ? (body[k] as unknown[]).join('\n') : String(body[k] ?? '');
      const form: BatchFormState = {
        mode: sent('mode') || 'crawl',
        url: sent('url'),
        urls: sent('urls'),
        maxPages: sent('max_pages'),
        maxDepth: sent('max_depth'),
        include: sent('include'),
        exclude: sent('exclude'),
        privacy: sent('privacy') || '0',
        render: sent('render') === '1',
        extractors: extractorsSent(body['extractors']),
        checkExternal: sent('check_external') === '1',
        maxExternalChecks: sent('max_external_checks'),
        maxSiteChecks: sent('max_site_checks'),
        thinContentWords: sent('thin_content_words'),
        nearDuplicateThreshold: sent('near_duplicate_threshold'),
        deepPageDepth: sent('deep_page_depth'),
        errors: {},
      };
      // each error in the form's words next to its field; the alert only for what has no field
      const fail = (fields: Record<string, string[]>) => {
        form.errors = batchFormErrors(fields);
        const rest = unplacedErrors(form.errors, BATCH_FORM_FIELDS);
        return renderList(request, reply, v, 422, rest ? { kind: 'error', text: rest } : null, form);
      };
      if (request.validationError) {
        const fields = fieldErrors(request.validationError.validation);
        if (form.mode === 'list' && fields.url && !form.urls)
          fields.url = ['Paste at least one address in the list, or give the site.'];
        if (fields.urls) {
          // name the lines that are not URLs (the schema's message names only the field)
          const lines = form.urls
            .split(/[\r\n]+/)
            .map((l) => l.trim())
            .filter((l) => l !== '');
          const bad = lines.flatMap((l, i) => (/^https?:\/\//i.test(l) && l.length <= 2048 ? [] : [i + 1]));
          if (bad.length > 0)
            fields.urls = [
              `${bad.length === 1 ? 'Line' : 'Lines'} ${bad.slice(0, 10).join(', ')}${bad.length > 10 ? ' …' : ''}: each line must be one address that starts with http:// or https://.`,
            ];
        }
        return fail(fields);
      }
      const b = request.body;
      try {
        const batch = await services.batches.create(v.orgId, batchInputOf(b));
        return reply.redirect(`/dashboard/batches/${batch.id}`, 303);
      } catch (err) {
        if (err instanceof AppError && err.status === 422 && err.fields) return fail(err.fields);
        throw err;
      }
    },
  );

  /** The batch id of the address, or null (the 404 page, as for a missing batch). */
  const idOf = (request: FastifyRequest): number | null => {
    const params = { id: Number((request.params as { id?: string }).id) };
    return /^\d+$/.test(String((request.params as { id?: string }).id)) && Value.Check(BatchParams, params)
      ? params.id
      : null;
  };

  app.get('/dashboard/batches/:id', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const id = idOf(request);
    if (id === null) return ctx.notFoundPage(request, reply);
    const read = readFilters<ListBatchPagesQuery>(
      ListBatchPagesQuery,
      new URL(request.url, 'http://x').searchParams,
      PAGE_KEYS,
      PAGE_LABELS,
    );
    const q = read.params;
    const page = q.page ?? 1;
    const perPage = q.per_page ?? 25;
    // one page of the table, read by the database; a batch missing or another user's: the
    // error plugin's not-found page
    const results = await services.batches.view(v.orgId, id, {
      ...(q.search !== undefined ? { search: q.search } : {}),
      ...(q.state !== undefined ? { state: q.state } : {}),
      ...(q.result !== undefined ? { result: q.result } : {}),
      ...(q.sort_by !== undefined ? { sortBy: q.sort_by } : {}),
      ...(q.sort !== undefined ? { sort: q.sort } : {}),
      perPage,
      page,
    });
    const done = rawQuery(request, ['done']).done;
    const flash: Flash | null = read.notices.length
      ? { kind: 'notice', text: read.notices.join(' ') }
      : done && NOTICES[done]
        ? { kind: 'success', text: NOTICES[done]! }
        : null;
    const viewer = await ctx.viewerFor(request, reply);
    const running = isRunning(results.batch);
    return ctx.send(
      reply,
      200,
      `Batch #${id}`,
      viewer,
      batchView({
        csrf: viewer.csrf ?? '',
        can: canOf(viewer),
        flash,
        batch: results.batch,
        findings: results.findings,
        table: results.table,
        raw: read.raw,
        page,
        perPage,
        reportsCount: results.reportsCount,
      }),
      running ? { refreshWithoutScript: REFRESH_SECONDS } : {},
    );
  });

  const streamHeaders = { ...PAGE_SECURITY_HEADERS, 'cache-control': 'no-store' };

  app.get('/dashboard/batches/:id/events', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const id = idOf(request);
    if (id === null) return ctx.notFoundPage(request, reply);
    return streamProgress(
      request,
      reply,
      async () => {
        const b = await services.batches.get(v.orgId, id);
        return { data: progressData(b), done: !isRunning(b) };
      },
      (onChange) => services.batches.watch(id, onChange),
      streamHeaders,
    );
  });

  app.get('/dashboard/batches/:id/export', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const id = idOf(request);
    if (id === null) return ctx.notFoundPage(request, reply);
    // a batch missing or another user's: the error plugin's not-found page
    const results = await services.batches.results(v.orgId, id);
    const format = rawQuery(request, ['format']).format === 'csv' ? 'csv' : 'json';
    return sendBatchExport(reply, format, results, ctx.publicUrl, streamHeaders);
  });

  const action = (path: string, run: (v: SignedIn, id: number, request: FastifyRequest) => Promise<string>) =>
    app.post(`/dashboard/batches/:id/${path}`, async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      const id = idOf(request);
      if (id === null) return ctx.notFoundPage(request, reply);
      return reply.redirect(await run(v, id, request), 303);
    });

  action('cancel', async (v, id) => {
    await services.batches.cancel(v.orgId, id);
    return `/dashboard/batches/${id}?done=batch_cancelled`;
  });
  action('delete', async (v, id, request) => {
    await services.batches.delete(v.orgId, id, { reports: str(bodyOf(request).reports) === '1' });
    return '/dashboard/batches?done=batch_deleted';
  });
}
