// TypeBox schemas of the API: request validation (query, params, bodies) and the documented
// response shapes. The OpenAPI document is generated from these (src/http/plugins/openapi.ts);
// responses are serialised with JSON.stringify (not fast-json-stringify), so these schemas
// describe the output without silently reshaping it — test/api/openapi.test.ts checks that
// real responses validate against them.
import { Type, type TSchema } from 'typebox';
import { CATEGORIES, PRIORITIES, RESULTS } from '../analyzer/types.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const dateTime = (description: string) => Type.String({ format: 'date-time', description });

// ---------------------------------------------------------------------------------------
// Requests: shared with the pages (src/web/requests.ts), re-exported for the routes

export {
  ListProjectsQuery,
  ListReportsQuery,
  MAX_ID,
  PER_PAGE,
  ProjectParams,
  ReportParams,
  StoreReportBody,
  UpdateReportBody,
} from '../web/requests.js';
import { PER_PAGE } from '../web/requests.js';

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

export const Report = Type.Object(
  {
    ...reportSummaryFields,
    results: Type.Record(Type.String(), CheckResult, { description: 'Every check, keyed by its id.' }),
    page: PageInfo,
    links: ReportLinks,
  },
  { additionalProperties: false },
);

export const ReportEnvelope = Type.Object({ data: Report }, { additionalProperties: false });

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

export const ReportList = paginated(ReportSummary);
export const ProjectList = paginated(Project);

export const ReportDeleted = Type.Object(
  { id: Type.Integer(), object: Type.Literal('report'), deleted: Type.Literal(true) },
  { additionalProperties: false },
);
export const ProjectDeleted = Type.Object(
  {
    project: Type.String(),
    object: Type.Literal('project'),
    deleted: Type.Literal(true),
    reports_deleted: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const Health = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });

/** The error responses a route may give, for its `response` schema (documentation). */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  const descriptions: Record<number, string> = {
    400: 'The body cannot be parsed, or JSON that is not an object.',
    401: 'No valid API key (`WWW-Authenticate: Bearer`).',
    404: 'No such resource for this key.',
    405: 'A method the path does not take (`Allow`).',
    413: 'A body over 1 MB.',
    415: 'A body type other than form or JSON.',
    422: 'An invalid parameter: `errors` names each field and what it allows.',
    429: 'Rate limit exceeded (`Retry-After`).',
    500: 'An unexpected fault.',
  };
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      Type.Object(ErrorBody.properties, {
        description: descriptions[s] ?? 'Error.',
        additionalProperties: false,
      }),
    ]),
  );
}
