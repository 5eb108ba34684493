// TypeBox schemas of the batch endpoints (docs/sites.md), with examples.
import { Type, type TSchema } from 'typebox';
import { enumOf, PER_PAGE } from '../services/list-query.js';
import { MAX_ID } from '../web/requests.js';
import { paginated } from './schemas.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const dateTime = (description: string) => Type.String({ format: 'date-time', description });

export const BATCH_MODES = ['sitemap', 'crawl', 'list'] as const;
export const BATCH_STATUSES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;

export const BatchParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Batch id (anything else answers 404).' }),
});

const httpUrl = (description: string) =>
  Type.String({ minLength: 1, maxLength: 2048, pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://', description });
const patterns = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 50, description });

export const CreateBatchBody = Type.Object(
  {
    url: httpUrl(
      'sitemap: the sitemap or sitemap index (or the site root: its robots.txt `Sitemap:` lines, else /sitemap.xml); crawl: the start page; list: the site (its robots.txt applies).',
    ),
    mode: enumOf('string', BATCH_MODES, { description: 'sitemap, crawl or list.' }),
    urls: Type.Optional(
      Type.Array(httpUrl('A page of the list.'), {
        minItems: 1,
        maxItems: 1000,
        description: 'mode list: the pages.',
      }),
    ),
    max_pages: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'At most this many pages (default 100; at most PAGEGRADE_BATCH_MAX_PAGES, default 10000).',
      }),
    ),
    max_depth: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: 'crawl: links followed this many hops from the start (default 10).',
      }),
    ),
    include: Type.Optional(
      patterns('Only URLs matching one of these (`*` any characters; a leading `^` anchors).'),
    ),
    exclude: Type.Optional(patterns('No URL matching one of these.')),
    privacy: Type.Optional(
      enumOf('integer', [0, 1], { description: "The reports' privacy: 0 public (default), 1 private." }),
    ),
  },
  {
    examples: [
      { url: 'https://example.com/', mode: 'crawl', max_pages: 500, max_depth: 5, exclude: ['/tag/*'] },
      { url: 'https://example.com/sitemap.xml', mode: 'sitemap' },
    ],
  },
);

const pageQuery = {
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 10, description: 'Items per page.' })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1.' })),
};
export const ListBatchesQuery = Type.Object(pageQuery);
export const DeleteBatchQuery = Type.Object({
  reports: Type.Optional(
    enumOf('integer', [0, 1], { default: 0, description: '1 deletes the reports of the batch too.' }),
  ),
});
export const ExportBatchQuery = Type.Object({
  format: Type.Optional(enumOf('string', ['csv', 'json'], { default: 'json', description: 'csv or json.' })),
});

const Summary = Type.Object(
  {
    pages: Type.Object({
      discovered: Type.Integer(),
      audited: Type.Integer(),
      failed: Type.Integer(),
      skipped: Type.Integer(),
    }),
    bands: Type.Object({ good: Type.Integer(), decent: Type.Integer(), bad: Type.Integer() }),
    histogram: Type.Array(Type.Integer(), { description: 'Pages per score decile: 0–9, 10–19, … 90–100.' }),
    average_score: nullable(Type.Number()),
    top_checks: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), pages: Type.Integer() })),
    slowest: Type.Array(Type.Object({ url: Type.String(), ms: Type.Number() })),
    largest: Type.Array(Type.Object({ url: Type.String(), bytes: Type.Integer() })),
    findings: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), count: Type.Integer() })),
  },
  { description: 'When the batch finished (done or cancelled).' },
);

export const Batch = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    url: Type.String(),
    mode: Type.String({ enum: [...BATCH_MODES] }),
    status: Type.String({ enum: [...BATCH_STATUSES] }),
    options: Type.Object({
      max_pages: Type.Integer(),
      max_depth: Type.Integer(),
      include: Type.Array(Type.String()),
      exclude: Type.Array(Type.String()),
      privacy: Type.Integer(),
    }),
    progress: Type.Object({
      discovered: Type.Integer({ minimum: 0 }),
      audited: Type.Integer({ minimum: 0 }),
      failed: Type.Integer({ minimum: 0, description: 'Failed or skipped pages (see failures).' }),
      remaining: Type.Integer({ minimum: 0 }),
    }),
    error: nullable(Type.String()),
    created_at: dateTime('When it was asked for.'),
    started_at: nullable(dateTime('When discovery ended and the first pages were queued.')),
    finished_at: nullable(dateTime('When it ended.')),
    summary: nullable(Summary),
    links: Type.Object({
      self: Type.String({ format: 'uri' }),
      reports: Type.String({ format: 'uri' }),
      failures: Type.String({ format: 'uri' }),
      events: Type.String({ format: 'uri' }),
      export_csv: Type.String({ format: 'uri' }),
      export_json: Type.String({ format: 'uri' }),
    }),
  },
  {
    examples: [
      {
        id: 7,
        url: 'https://example.com/',
        mode: 'crawl',
        status: 'running',
        options: { max_pages: 100, max_depth: 10, include: [], exclude: [], privacy: 0 },
        progress: { discovered: 40, audited: 12, failed: 1, remaining: 27 },
        error: null,
        created_at: '2026-11-26T10:00:00.000Z',
        started_at: '2026-11-26T10:00:01.000Z',
        finished_at: null,
        summary: null,
        links: {
          self: 'https://pagegrade.example/api/v1/batches/7',
          reports: 'https://pagegrade.example/api/v1/reports?batch=7',
          failures: 'https://pagegrade.example/api/v1/batches/7/failures',
          events: 'https://pagegrade.example/api/v1/batches/7/events',
          export_csv: 'https://pagegrade.example/api/v1/batches/7/export?format=csv',
          export_json: 'https://pagegrade.example/api/v1/batches/7/export?format=json',
        },
      },
    ],
  },
);
export const BatchEnvelope = Type.Object({ data: Batch });
export const BatchList = paginated(Batch);
export const BatchDeleted = Type.Object(
  {
    id: Type.Integer(),
    object: Type.Literal('batch'),
    deleted: Type.Literal(true),
    reports_deleted: Type.Integer(),
  },
  { examples: [{ id: 7, object: 'batch', deleted: true, reports_deleted: 0 }] },
);
export const Failure = Type.Object(
  {
    url: Type.String(),
    state: Type.String({ enum: ['failed', 'skipped'] }),
    status_code: nullable(Type.Integer()),
    reason: Type.String(),
  },
  {
    examples: [
      {
        url: 'https://example.com/gone',
        state: 'failed',
        status_code: 404,
        reason: 'The page answered HTTP 404.',
      },
    ],
  },
);
export const FailureList = paginated(Failure);
