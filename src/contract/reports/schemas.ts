// TypeBox schemas of the API: request validation (query, params, bodies) and the documented
// response shapes. The OpenAPI document is generated from these (src/http/plugins/openapi.ts);
// responses are serialised with JSON.stringify (not fast-json-stringify), so these schemas
// describe the output without silently reshaping it — test/api/openapi.test.ts checks that
// real responses validate against them.
import { Type, type TSchema } from 'typebox';
import { CATEGORIES, PRIORITIES, RESULTS } from '../../analyzer/types.js';
import { RUN_SOURCES, RUN_STATUSES } from '../../services/history/types.js';
import { Warning } from './warnings.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const dateTime = (description: string) => Type.String({ format: 'date-time', description });

// ---------------------------------------------------------------------------------------
// Requests: shared with the pages (src/web/requests.ts), re-exported for the routes

export {
  DiffQuery,
  ListProjectsQuery,
  ListRunsQuery,
  MAX_ID,
  ProjectParams,
  ReportParams,
  RunParams,
} from './requests.js';
import { ListReportsQuery } from './requests.js';
import { enumOf } from '../lists.js';
import { PER_PAGE, StoreReportBody as StoreBody, UpdateReportBody as UpdateBody } from './requests.js';
import * as ex from './examples.js';

/**
 * The schema with one example (the OpenAPI document shows it as the media type's `example`;
 * the document's lint checks it against the schema). A copy: shared schemas stay as they are.
 */
export const withExample = <T extends TSchema>(schema: T, example: unknown): T =>
  ({ ...schema, examples: [example] }) as T;

export const StoreReportBody = withExample(StoreBody, {
  url: 'https://example.com/pricing',
  privacy: 2,
  password: 's3cret',
});
export const UpdateReportBody = withExample(UpdateBody, { privacy: 1, results: 1 });

// ---------------------------------------------------------------------------------------
// Responses

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    errors: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Per-field messages (422).' }),
    ),
  },
  { additionalProperties: false },
);

const CategoryScore = Type.Object(
  {
    score: Type.Integer({ minimum: 0, maximum: 100 }),
    passed: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

const Categories = Type.Object(
  Object.fromEntries(CATEGORIES.map((c) => [c, CategoryScore])) as Record<
    (typeof CATEGORIES)[number],
    typeof CategoryScore
  >,
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

const CheckResult = Type.Object(
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
      Type.String({ enum: ['blocked', 'not_applicable', 'no_data', 'error'] }),
    ),
  },
  { additionalProperties: false },
);

const msOrNull = nullable(Type.Number({ minimum: 0 }));
const PageInfo = Type.Object(
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
        'completed: `results` are the rendered DOM\'s; inconclusive (browser crash, timeout): `results` are the raw HTML\'s and `reason` says why.',
    }),
    reason: Type.Optional(Type.String()),
    timings: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'queue_ms, load_ms, idle_ms, axe_ms, total_ms (milliseconds).',
    }),
    requests: Type.Integer({ minimum: 0, description: 'Requests the page made (through the address guard).' }),
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
      Type.Object({ id: Type.String(), raw: RenderCheckState, rendered: RenderCheckState }, { additionalProperties: false }),
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

export const Project = Type.Object(
  {
    project: Type.String(),
    created_at: dateTime('When its first report was stored.'),
    reports_count: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

const PaginationLinks = Type.Object(
  {
    first: Type.String({ format: 'uri' }),
    last: Type.String({ format: 'uri' }),
    prev: nullable(Type.String({ format: 'uri' })),
    next: nullable(Type.String({ format: 'uri' })),
  },
  { additionalProperties: false },
);
const PaginationMeta = Type.Object(
  {
    current_page: Type.Integer({ minimum: 1 }),
    from: nullable(Type.Integer({ minimum: 1 })),
    to: nullable(Type.Integer({ minimum: 1 })),
    last_page: Type.Integer({ minimum: 1 }),
    per_page: Type.Integer({ enum: [...PER_PAGE] }),
    total: Type.Integer({ minimum: 0 }),
    path: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false },
);

export const paginated = <T extends TSchema>(item: T) =>
  Type.Object(
    { data: Type.Array(item), links: PaginationLinks, meta: PaginationMeta },
    { additionalProperties: false },
  );

export const ReportList = withExample(paginated(ReportSummary), {
  data: [ex.reportSummary],
  ...ex.reportListMeta,
});
export const ProjectList = withExample(paginated(Project), { data: [ex.project], ...ex.projectListMeta });

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
export const ProjectDeleted = Type.Object(
  {
    project: Type.String(),
    object: Type.Literal('project'),
    deleted: Type.Literal(true),
    reports_deleted: Type.Integer({ minimum: 0 }),
  },
  {
    additionalProperties: false,
    examples: [{ project: 'example.com', object: 'project', deleted: true, reports_deleted: 3 }],
  },
);

export const Health = Type.Object(
  { status: Type.Literal('ok') },
  { additionalProperties: false, examples: [{ status: 'ok' }] },
);

// ---------------------------------------------------------------------------------------
// History (docs/history.md)

const uri = () => Type.String({ format: 'uri' });
const RunLinks = Type.Object({ self: uri(), report: uri() }, { additionalProperties: false });

const runSummaryFields = {
  id: Type.Integer({
    minimum: 1,
    description:
      "The run's number within its report: 1 is the first audit. It never changes: the current run keeps it when a later run replaces it.",
  }),
  report_id: Type.Integer({ minimum: 1 }),
  status: Type.String({
    enum: [...RUN_STATUSES],
    description: '`failed`: the page could not be fetched (see `error`); such a run has no results.',
  }),
  current: Type.Boolean({ description: "The report's current results are this run's." }),
  source: nullable(
    Type.String({
      enum: [...RUN_SOURCES],
      description: 'What started the run; null for a first audit (and runs kept before runs were numbered).',
    }),
  ),
  generated_at: dateTime('When the audit was made (a failed run: when it was tried).'),
  final_url: nullable(Type.String()),
  result: nullable(Type.String({ enum: [...RESULTS] })),
  score: nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  categories: nullable(Categories),
  error: nullable(Type.String({ description: 'Why a failed run failed.' })),
};

export const RunSummary = Type.Object(
  { ...runSummaryFields, links: RunLinks },
  { additionalProperties: false },
);

export const Run = Type.Object(
  {
    ...runSummaryFields,
    results: nullable(
      Type.Record(Type.String(), CheckResult, { description: 'Every check, keyed by its id.' }),
    ),
    page: nullable(PageInfo),
    links: RunLinks,
  },
  { additionalProperties: false },
);

export const RunList = withExample(paginated(RunSummary), { data: [ex.runSummary], ...ex.runListMeta });
export const RunEnvelope = withExample(Type.Object({ data: Run }, { additionalProperties: false }), {
  data: ex.run,
});

const CheckState = Type.String({ enum: ['passed', 'failed', 'inconclusive', 'absent'] });
const CheckValue = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  Type.Array(Type.String()),
]);
const CheckChange = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    category: Type.String({ enum: [...CATEGORIES] }),
    priority: Type.String({ enum: [...PRIORITIES] }),
    from: CheckState,
    to: CheckState,
    from_value: Type.Optional(CheckValue),
    to_value: Type.Optional(CheckValue),
    message: Type.String({ description: 'What the check says in the later run.' }),
  },
  { additionalProperties: false },
);
const ScoreChange = Type.Object(
  { from: Type.Integer(), to: Type.Integer(), delta: Type.Integer({ description: '`to` − `from`.' }) },
  { additionalProperties: false },
);
const PageFactValue = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Null(),
  Type.Array(Type.Object({ url: Type.String(), status: Type.Integer() }, { additionalProperties: false })),
]);

export const ReportDiff = Type.Object(
  {
    report_id: Type.Integer({ minimum: 1 }),
    from: RunSummary,
    to: RunSummary,
    changed: Type.Boolean({ description: 'Anything below changed.' }),
    regression: Type.Boolean({
      description: 'The result band dropped, or a high-priority check newly failed.',
    }),
    score: ScoreChange,
    result: Type.Object(
      {
        from: Type.String({ enum: [...RESULTS] }),
        to: Type.String({ enum: [...RESULTS] }),
        change: Type.String({ enum: ['better', 'worse', 'same'] }),
      },
      { additionalProperties: false },
    ),
    categories: Type.Object(
      Object.fromEntries(CATEGORIES.map((c) => [c, ScoreChange])) as Record<
        (typeof CATEGORIES)[number],
        typeof ScoreChange
      >,
      { additionalProperties: false },
    ),
    checks: Type.Object(
      {
        newly_failed: Type.Array(CheckChange),
        newly_passed: Type.Array(CheckChange),
        newly_inconclusive: Type.Array(CheckChange),
        value_changed: Type.Array(CheckChange, { description: 'Same state in both runs, another value.' }),
      },
      { additionalProperties: false },
    ),
    page: Type.Array(
      Type.Object(
        { fact: Type.String(), from: PageFactValue, to: PageFactValue },
        { additionalProperties: false },
      ),
      { description: 'Page facts that changed (timings only past the noise floor).' },
    ),
    links: Type.Object({ self: uri(), report: uri() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export const ReportDiffEnvelope = withExample(
  Type.Object({ data: ReportDiff }, { additionalProperties: false }),
  { data: ex.diff },
);

/** The error responses a route may give, for its `response` schema (documentation). */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  const descriptions: Record<number, string> = {
    400: 'The body cannot be parsed, or JSON that is not an object.',
    401: 'No valid API key (`WWW-Authenticate: Bearer`).',
    403: 'The API key lacks the scope this operation needs.',
    404: 'No such resource for this key.',
    405: 'A method the path does not take (`Allow`).',
    413: 'A body over 1 MB.',
    415: 'A body type other than form or JSON.',
    422: 'An invalid parameter: `errors` names each field and what it allows.',
    429: 'Rate limit exceeded (`Retry-After`).',
    500: 'An unexpected fault.',
    503: 'Not ready (the database is not reachable), or shutting down.',
  };
  const examples: Record<number, object> = {
    400: { message: 'The body is not valid JSON.' },
    401: { message: 'Unauthenticated: the API key is unknown or revoked.' },
    403: { message: 'Forbidden: this API key lacks the write scope.' },
    404: { message: 'No such report.' },
    405: { message: 'Method not allowed.' },
    413: { message: 'The request body is larger than 1 MB.' },
    415: { message: 'Send the body as application/x-www-form-urlencoded or application/json.' },
    422: {
      message: 'The per_page must be one of: 10, 25, 50, 100.',
      errors: { per_page: ['The per_page must be one of: 10, 25, 50, 100.'] },
    },
    429: { message: 'Too many requests.' },
    500: { message: 'Internal server error.' },
    503: { message: 'The database is not reachable.' },
  };
  // any operation that takes a key may answer 403: a read-only key writing, a project-limited key
  // outside its projects (src/services/access.ts, src/http/plugins/auth.ts)
  const all =
    statuses.includes(401) && !statuses.includes(403) ? [...statuses, 403].sort((a, b) => a - b) : statuses;
  return Object.fromEntries(
    all.map((s) => [
      s,
      Type.Object(ErrorBody.properties, {
        description: descriptions[s] ?? 'Error.',
        additionalProperties: false,
        examples: [examples[s] ?? { message: 'Error.' }],
      }),
    ]),
  );
}

// ---------------------------------------------------------------------------------------
// Account (GET /api/v1/account)

export const ApiKey = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    prefix: Type.String({ description: "The key's first characters (never the secret)." }),
    scopes: Type.Array(Type.String({ enum: ['read', 'write'] }), {
      description: '`read`: GET only; `write`: everything.',
    }),
    projects: nullable(
      Type.Array(Type.String(), { description: 'The projects it is limited to; null: every project.' }),
    ),
    created_at: dateTime('When it was issued.'),
    last_used_at: nullable(dateTime('When it was last used (written at most once a minute).')),
    expires_at: nullable(dateTime('When it stops working; null: never.')),
  },
  { additionalProperties: false },
);

export const AccountEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        id: Type.Integer({ minimum: 1 }),
        name: Type.String(),
        created_at: dateTime('When the user was created.'),
        reports_count: Type.Integer({ minimum: 0, description: 'Reports this key can see.' }),
        projects_count: Type.Integer({ minimum: 0, description: 'Projects this key can see.' }),
        key: ApiKey,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, examples: [{ data: ex.account }] },
);
