// TypeBox schemas of the reports' API answers and the report webhooks' payloads: one shape
// each, declared once. The OpenAPI document is generated from these (src/http/plugins/openapi.ts);
// responses are serialised with JSON.stringify (not fast-json-stringify), so these schemas
// describe the output without silently reshaping it — test/api/openapi.test.ts checks that
// real responses validate against them, and the presenters (./present.ts) are typed by them.
import { Type } from 'typebox';
import { CATEGORIES, LATER_CATEGORIES, PRIORITIES, RESULTS } from '../../analyzer/types.js';
import { dateTime, enumOf, nullable, withExample } from '../common.js';
import { paginated } from '../pagination.js';
import * as ex from './examples.js';
import {
  ListReportsQuery,
  StoreReportBody as StoreBody,
  UpdateReportBody as UpdateBody,
} from './requests.js';
import { Warning } from './warnings.js';

export const StoreReportBody = withExample(StoreBody, {
  url: 'https://example.com/pricing',
  privacy: 2,
  password: 's3cret',
});

export const UpdateReportBody = withExample(UpdateBody, { privacy: 1, results: 1 });

export const CategoryScore = Type.Object(
  {
    score: Type.Integer({ minimum: 0, maximum: 100 }),
    passed: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    not_judged: Type.Optional(
      Type.String({
        description:
          'Why the category is not judged on this report (its score is then 0 and means nothing), e.g. `needs render=1` for accessibility in a raw audit.',
      }),
    ),
  },
  { additionalProperties: false },
);

const later = new Set<string>(LATER_CATEGORIES);

/** accessibility and ai are absent from reports stored before they existed (issue 21) */
export const Categories = Type.Object(
  Object.fromEntries(
    CATEGORIES.map((c) => [c, later.has(c) ? Type.Optional(CategoryScore) : CategoryScore]),
  ) as Record<(typeof CATEGORIES)[number], typeof CategoryScore>,
  { additionalProperties: false },
);

const cell = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

const Details = Type.Union([
  Type.Object({
    type: Type.Literal('list'),
    items: Type.Array(Type.String()),
    truncated: Type.Optional(Type.Integer()),
  }),
  Type.Object({
    type: Type.Literal('table'),
    headings: Type.Array(Type.String()),
    rows: Type.Array(Type.Array(cell)),
    truncated: Type.Optional(Type.Integer()),
  }),
  Type.Object({ type: Type.Literal('text'), text: Type.String() }),
]);

export const CheckResult = Type.Object(
  {
    id: Type.String(),
    category: Type.String({ enum: [...CATEGORIES] }),
    priority: Type.String({ enum: [...PRIORITIES] }),
    passed: nullable(Type.Boolean()),
    title: Type.String(),
    message: Type.String(),
    value: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null(), Type.Array(Type.String())]),
    ),
    details: Type.Optional(Details),
    how_to_fix: Type.String(),
    inconclusive_reason: Type.Optional(
      Type.String({ enum: ['blocked', 'not_applicable', 'no_data', 'error', 'ignored'] }),
    ),
  },
  { additionalProperties: false },
);

const msOrNull = nullable(Type.Number({ minimum: 0 }));
export const PageInfo = Type.Object(
  {
    status: Type.Integer(),
    http_version: Type.String(),
    redirects: Type.Array(
      Type.Object({ url: Type.String(), status: Type.Integer() }, { additionalProperties: false }),
    ),
    timings: Type.Object(
      {
        dns_ms: msOrNull,
        connect_ms: msOrNull,
        tls_ms: msOrNull,
        ttfb_ms: msOrNull,
        total_ms: Type.Number({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    sizes: Type.Object(
      { transfer_bytes: Type.Integer({ minimum: 0 }), html_bytes: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    requests: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

const reportSummaryFields = {
  id: Type.Integer({ minimum: 1 }),
  url: Type.String({ description: 'The URL as normalised.' }),
  final_url: Type.String({ description: 'Where redirects ended.' }),
  project: Type.String({ description: 'Host name of `url`, lower-cased, one leading www. removed.' }),
  result: Type.String({ enum: [...RESULTS] }),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  privacy: Type.Integer({ enum: [0, 1, 2], description: '0 Public, 1 Private, 2 Password.' }),
  has_password: Type.Boolean(),
  generated_at: dateTime('When the results were last generated.'),
  created_at: dateTime('When the report was stored.'),
  updated_at: dateTime('When the report last changed.'),
  categories: Categories,
};

const ReportLinks = Type.Object(
  { self: Type.String({ format: 'uri' }), page: Type.String({ format: 'uri' }) },
  { additionalProperties: false },
);

export const ReportSummary = Type.Object(
  { ...reportSummaryFields, links: ReportLinks },
  { additionalProperties: false },
);

const rawRendered = Type.Object(
  { raw: Type.Integer({ minimum: 0 }), rendered: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);

const RenderCheckState = Type.Object(
  { passed: nullable(Type.Boolean()), title: Type.String(), message: Type.String() },
  { additionalProperties: false },
);

const AxeImpact = Type.String({ enum: ['critical', 'serious', 'moderate', 'minor'] });

/** The `render` object of a rendered audit (docs/rendering.md). */
export const RenderInfo = Type.Object(
  {
    mode: Type.Literal('rendered'),
    status: Type.String({
      enum: ['completed', 'inconclusive'],
      description:
        "completed: `results` are the rendered DOM's; inconclusive (browser crash, timeout): `results` are the raw HTML's and `reason` says why.",
    }),
    reason: Type.Optional(Type.String()),
    timings: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'queue_ms, load_ms, idle_ms, axe_ms, total_ms (milliseconds).',
    }),
    requests: Type.Integer({
      minimum: 0,
      description: 'Requests the page made (through the address guard).',
    }),
    bytes: Type.Integer({ minimum: 0 }),
    refused: Type.Array(
      Type.Object({ url: Type.String(), reason: Type.String() }, { additionalProperties: false }),
      { description: 'Requests refused (address guard, budgets, WebSockets), at most 20.' },
    ),
    refused_count: Type.Integer({ minimum: 0 }),
    raw: Type.Object(
      { result: Type.String({ enum: [...RESULTS] }), score: Type.Integer(), categories: Categories },
      { additionalProperties: false, description: "The raw HTML's audit, summarised." },
    ),
    differences: Type.Array(
      Type.Object(
        { id: Type.String(), raw: RenderCheckState, rendered: RenderCheckState },
        { additionalProperties: false },
      ),
      { description: 'Checks whose outcome JavaScript changed (raw → rendered).' },
    ),
    dom: Type.Object(
      {
        elements: rawRendered,
        links: rawRendered,
        words: rawRendered,
        images: rawRendered,
        headings: rawRendered,
      },
      { additionalProperties: false },
    ),
    browser_checks: Type.Array(Type.String(), {
      description: 'Ids of the checks only a browser judges (in `results`).',
    }),
    accessibility: nullable(
      Type.Object(
        {
          counts: Type.Record(AxeImpact, Type.Integer({ minimum: 0 })),
          violations: Type.Array(
            Type.Object(
              {
                id: Type.String(),
                impact: AxeImpact,
                help: Type.String(),
                help_url: Type.String(),
                targets: Type.Array(Type.String()),
                nodes: Type.Integer({ minimum: 0 }),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false, description: 'axe-core violations by impact (not scored).' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Report = Type.Object(
  {
    ...reportSummaryFields,
    results: Type.Record(Type.String(), CheckResult, { description: 'Every check, keyed by its id.' }),
    page: PageInfo,
    render: Type.Optional(RenderInfo),
    links: ReportLinks,
  },
  { additionalProperties: false },
);

export const ReportEnvelope = withExample(Type.Object({ data: Report }, { additionalProperties: false }), {
  data: ex.report,
});

/** A store or update: the report, and `warnings` when part of the request was ignored. */
export const ReportWriteEnvelope = Type.Object(
  {
    data: Report,
    warnings: Type.Optional(
      Type.Array(Warning, {
        description:
          'Present when part of the request was not applied, e.g. a `password` sent without `privacy` 2 (the SPEC ignores it; the report has no password).',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ data: ex.report }] },
);

export const ReportList = withExample(paginated(ReportSummary), {
  data: [ex.reportSummary],
  ...ex.reportListMeta,
});

/** What `format` the reports list answers in (docs/api.md#csv). */
export const LIST_FORMATS = ['json', 'csv'] as const;

/** GET /api/v1/reports: the list query, and `format` (the CSV of every matching report). */
export const ListReportsApiQuery = Type.Object({
  ...ListReportsQuery.properties,
  format: Type.Optional(
    enumOf('string', LIST_FORMATS, {
      description:
        '`csv`: every matching report (all pages; `page` and `per_page` are ignored) as CSV, streamed. Without it, `Accept: text/csv` asks for the CSV too; JSON is the default.',
    }),
  ),
});

/** The 200 of GET /api/v1/reports: a page as JSON, or the CSV of every matching report. */
export const ReportListResponse = {
  description:
    'A page of reports (JSON), or every matching report (CSV: `format=csv` or `Accept: text/csv`).',
  content: {
    'application/json': { schema: ReportList, example: { data: [ex.reportSummary], ...ex.reportListMeta } },
    'text/csv': {
      schema: Type.String({ description: 'RFC 4180 CSV with a header line; one line per report.' }),
      example: ex.reportListCsv,
    },
  },
};

export const ReportDeleted = Type.Object(
  { id: Type.Integer(), object: Type.Literal('report'), deleted: Type.Literal(true) },
  { additionalProperties: false, examples: [{ id: 42, object: 'report', deleted: true }] },
);
