// TypeBox schemas of the batch endpoints (docs/sites.md), with examples.
import { Type, type TSchema } from 'typebox';
import { enumOf } from '../common.js';
import { PRIORITIES, RESULTS } from '../../analyzer/types.js';
import { BATCH_MODES, BATCH_PAGE_STATES, ExtractorBody } from './requests.js';
import { paginated } from '../pagination.js';
import { withExample } from '../common.js';
import { listExample } from '../pagination.js';

/** The columns of a batch's CSV export, one row per page (export.ts writes them). */
export const CSV_COLUMNS = [
  'url',
  'state',
  'result',
  'score',
  'status_code',
  'final_url',
  'canonical',
  'high_issues',
  'medium_issues',
  'low_issues',
  'failed_checks',
  'report_id',
  'error',
] as const;

// the request bodies and params are shared with the dashboard (src/web/batch-requests.ts)
export { BatchParams, CreateBatchBody, ListBatchesQuery } from './requests.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const dateTime = (description: string) => Type.String({ format: 'date-time', description });

export const BATCH_STATUSES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;

export const DeleteBatchQuery = Type.Object({
  reports: Type.Optional(
    enumOf('integer', [0, 1], { default: 0, description: '1 deletes the reports of the batch too.' }),
  ),
});
export const ExportBatchQuery = Type.Object({
  format: Type.Optional(enumOf('string', ['csv', 'json'], { default: 'json', description: 'csv or json.' })),
});

export const BatchSummary = Type.Object(
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
      render: Type.Boolean({
        description: 'Every page is a rendered audit (headless Chromium; docs/rendering.md).',
      }),
      extractors: Type.Array(ExtractorBody, {
        description: 'The custom extractors (docs/sites.md, "Custom extraction"); [] when none.',
      }),
      check_external: Type.Boolean({
        description: 'Links to other sites (and resources on other hosts) are checked once each (docs/sites.md).',
      }),
      max_external_checks: Type.Integer({ description: 'At most this many URLs of other hosts checked.' }),
      max_site_checks: Type.Integer({
        description: "At most this many of the site's own URLs checked (link targets outside the crawl, resources, fonts).",
      }),
      thin_content_words: Type.Integer({ description: 'thin_content: main text under this many words.' }),
      near_duplicate_threshold: Type.Integer({ description: 'near_duplicates: pages at least this similar, in percent.' }),
      deep_page_depth: Type.Integer({ description: 'deep_pages: crawl depth over this.' }),
    }),
    progress: Type.Object({
      discovered: Type.Integer({ minimum: 0 }),
      audited: Type.Integer({ minimum: 0 }),
      failed: Type.Integer({ minimum: 0, description: 'Failed or skipped pages (see failures).' }),
      remaining: Type.Integer({ minimum: 0 }),
    }),
    reports: Type.Object(
      {
        created: Type.Integer({
          minimum: 0,
          description: 'Reports the batch made: pages that had no report in the project.',
        }),
        updated: Type.Integer({
          minimum: 0,
          description:
            "Reports the batch added a run to (source `batch`): the project's report of the page, whoever made it (one report per page).",
        }),
      },
      {
        description:
          'The audited pages by what became of their report: `created` + `updated` = `progress.audited` (both 0 for batches that ran before they were counted; docs/sites.md, "One report per page").',
      },
    ),
    error: nullable(Type.String()),
    created_at: dateTime('When it was asked for.'),
    started_at: nullable(dateTime('When discovery ended and the first pages were queued.')),
    finished_at: nullable(dateTime('When it ended.')),
    summary: nullable(BatchSummary),
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
        options: {
          max_pages: 100,
          max_depth: 10,
          include: [],
          exclude: [],
          privacy: 0,
          render: false,
          extractors: [{ name: 'price', css: '.price' }],
          check_external: false,
          max_external_checks: 500,
          max_site_checks: 5000,
          thin_content_words: 200,
          near_duplicate_threshold: 90,
          deep_page_depth: 4,
        },
        progress: { discovered: 40, audited: 12, failed: 1, remaining: 27 },
        reports: { created: 2, updated: 10 },
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
const batchExample = (Batch as unknown as { examples: unknown[] }).examples[0];

/**
 * The events stream's example: `progress` with the whole batch (as GET /batches/{id} has it)
 * whenever it changes, then `end` with the finished batch — what src/web/batches.ts sends.
 */
export const BATCH_EVENTS_EXAMPLE = (() => {
  const running = batchExample as Record<string, unknown>;
  const done = {
    ...running,
    status: 'done',
    progress: { discovered: 40, audited: 38, failed: 2, remaining: 0 },
    reports: { created: 3, updated: 35 },
    finished_at: '2026-11-26T10:02:41.000Z',
  };
  return [
    `event: progress\ndata: ${JSON.stringify(running)}\n\n`,
    `event: end\ndata: ${JSON.stringify(done)}\n\n`,
  ].join('');
})();
export const BatchEnvelope = Type.Object({ data: Batch }, { examples: [{ data: batchExample }] });
export const BatchList = withExample(paginated(Batch), {
  data: [batchExample],
  ...listExample('https://pagegrade.example/api/v1/batches'),
});
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
export const FailureList = withExample(paginated(Failure), {
  data: [(Failure as unknown as { examples: unknown[] }).examples[0]],
  ...listExample('https://pagegrade.example/api/v1/batches/7/failures'),
});

/** The export's CSV example: a header line of every column, then one page. */
export const BATCH_CSV_EXAMPLE =
  `${CSV_COLUMNS.join(',')}\n` +
  'https://example.com/,done,good,91,200,https://example.com/,,0,0,1,image_keywords,42,\n';

/** A page's custom extraction values (docs/sites.md, "Custom extraction"). */
export const Extracted = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()]),
  {
    description:
      "The batch's extractors' values: name → the first match (null: none, or the page was not audited), or every match (an array) for an extractor with `all`. {} when the batch has none.",
    examples: [{ price: '€12.50', sku: 'ABC-1' }],
  },
);

const ExportPage = Type.Object(
  {
    url: Type.String(),
    state: Type.String({ enum: [...BATCH_PAGE_STATES] }),
    depth: Type.Integer({ minimum: 0 }),
    in_sitemap: Type.Boolean(),
    report_id: nullable(Type.Integer()),
    status_code: nullable(Type.Integer()),
    final_url: nullable(Type.String()),
    canonical: nullable(
      Type.String({
        description:
          'The canonical URL the page names when it is another URL (the page is canonicalised to it); audited all the same.',
      }),
    ),
    error: nullable(Type.String()),
    result: nullable(Type.String({ enum: [...RESULTS] })),
    score: nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    title: nullable(Type.String()),
    noindex: nullable(
      Type.Boolean({
        description: 'An audited page says noindex (meta robots or X-Robots-Tag); null unless audited.',
      }),
    ),
    failed_checks: Type.Array(
      Type.Object(
        { id: Type.String(), priority: Type.String({ enum: [...PRIORITIES] }), title: Type.String() },
        { additionalProperties: false },
      ),
    ),
    extracted: Extracted,
    extract_errors: Type.Record(Type.String(), Type.String(), {
      description:
        'Why the page has no value for an extractor: name → the error (an extractor that ran longer than PAGEGRADE_EXTRACT_TIMEOUT_MS on the page and was stopped; its value is null). {} when every extractor ran.',
      examples: [
        {
          tags: 'Timed out: the xpath extractor "tags" ran longer than 5 s on this page (PAGEGRADE_EXTRACT_TIMEOUT_MS) and was stopped.',
        },
      ],
    }),
    total_ms: nullable(Type.Number({ minimum: 0 })),
    html_bytes: nullable(Type.Integer({ minimum: 0 })),
    render: nullable(Type.String({ enum: ['completed', 'inconclusive'] })),
  },
  { additionalProperties: false },
);

const Finding = Type.Object(
  {
    id: Type.String(),
    priority: Type.String({ enum: [...PRIORITIES] }),
    title: Type.String(),
    count: Type.Integer({ minimum: 0, description: 'Pages concerned (those an ignore rule covers aside).' }),
    pages: Type.Array(
      Type.Object(
        {
          url: Type.String(),
          detail: Type.Optional(Type.String()),
          state: Type.Optional(
            Type.String({
              enum: ['new', 'persisting'],
              description:
                "An ended crawl of a project: new (not in the project's previous crawl) or persisting (docs/sites.md, \"Issue states and ignore rules\").",
            }),
          ),
          since_batch_id: Type.Optional(
            Type.Integer({ description: 'The first crawl of the run of consecutive crawls that had it.' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    ignored: Type.Optional(
      Type.Array(
        Type.Object(
          {
            url: Type.String(),
            detail: Type.Optional(Type.String()),
            rule_id: Type.String(),
            reason: Type.String(),
          },
          { additionalProperties: false },
        ),
        { description: 'Pages an ignore rule of the project covers: listed apart, not counted.' },
      ),
    ),
    fixed: Type.Optional(
      Type.Array(
        Type.Object({ url: Type.String(), detail: Type.Optional(Type.String()) }, { additionalProperties: false }),
        { description: "Pages that had it in the project's previous crawl and no longer do." },
      ),
    ),
  },
  { additionalProperties: false },
);

export const batchExportExample = {
  batch: batchExample,
  summary: null,
  findings: [],
  pages: [
    {
      url: 'https://example.com/',
      state: 'done',
      depth: 0,
      in_sitemap: true,
      report_id: 42,
      status_code: 200,
      final_url: 'https://example.com/',
      canonical: null,
      error: null,
      result: 'good',
      score: 91,
      title: 'Example',
      noindex: false,
      failed_checks: [{ id: 'image_keywords', priority: 'low', title: 'Image keywords' }],
      total_ms: 182.4,
      html_bytes: 5120,
      render: null,
      extracted: { price: '€12.50' },
      extract_errors: {},
    },
  ],
};

/** GET /api/v1/batches/{id}/export?format=json: the batch, its summary, the findings, every page. */
export const BatchExport = Type.Object(
  {
    batch: Batch,
    summary: nullable(BatchSummary),
    findings: Type.Array(Finding, { description: 'Site-level findings, with the pages concerned.' }),
    pages: Type.Array(ExportPage),
  },
  {
    additionalProperties: false,
    examples: [batchExportExample],
  },
);

/** GET /api/v1/batches/{id}/pages: the batch's pages table, a page of it (as the JSON export has each page). */
export const BatchPageList = withExample(paginated(ExportPage), {
  data: [batchExportExample.pages[0]],
  ...listExample('https://pagegrade.example/api/v1/batches/7/pages'),
});
