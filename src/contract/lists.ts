// The list-query contract, written once: the query-string schemas (TypeBox, validated by the
// API's routes and read by the dashboard), their defaults (only here, in the schemas), and the
// one mapping from a query string to the services' list query. The API and the dashboard
// both call reportsQueryFrom/projectsQueryFrom; the services fill what is left out from the
// same schema defaults (resolveReportsQuery/resolveProjectsQuery).
//
// Enumerations are `enumOf` (src/contract/common.ts).
import { Type, type Static, type TSchema } from 'typebox';
import { RESULTS } from '../analyzer/types.js';
import { projectName } from '../analyzer/url.js';
import { enumOf, NO_NUL } from './common.js';

export const PER_PAGE = [10, 25, 50, 100] as const;
export type PerPage = (typeof PER_PAGE)[number];
export const SORT_DIRECTIONS = ['desc', 'asc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export const REPORT_SORT_KEYS = ['id', 'generated_at', 'url', 'result', 'score'] as const;
export type ReportSortKey = (typeof REPORT_SORT_KEYS)[number];
export const PROJECT_SORT_KEYS = ['created_at', 'project'] as const;
export type ProjectSortKey = (typeof PROJECT_SORT_KEYS)[number];

const sort = enumOf('string', SORT_DIRECTIONS, { default: 'desc', description: 'Sort direction.' });
const perPage = enumOf('integer', PER_PAGE, { default: 10, description: 'Items per page.' });
/** The highest page number a list takes: far past any real list, low enough for every database. */
export const MAX_PAGE = 1_000_000;
/** The one `page` parameter of every paged list (API and dashboard): a whole number from 1. */
export const pageParam = () =>
  Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, from 1.' });
const page = pageParam();
const search = Type.String({ maxLength: 2048, description: 'Case-insensitive substring match.' });

export const ListReportsParams = Type.Object({
  search: Type.Optional(search),
  search_by: Type.Optional(
    enumOf('string', ['url'], { default: 'url', description: 'Field that `search` matches.' }),
  ),
  project: Type.Optional(
    Type.String({
      maxLength: 255,
      pattern: NO_NUL,
      description: 'Only the reports of this project.',
    }),
  ),
  result: Type.Optional(enumOf('string', RESULTS, { description: 'Only the reports with this result.' })),
  sort_by: Type.Optional(
    enumOf('string', REPORT_SORT_KEYS, {
      default: 'id',
      description:
        'Sort key; `result` orders good, decent, bad (asc); `score` orders by the overall score (asc: worst first). Ties are broken by id.',
    }),
  ),
  sort: Type.Optional(sort),
  per_page: Type.Optional(perPage),
  page: Type.Optional(page),
  batch: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description:
        "Only the reports of this batch (docs/sites.md), in the order stored; other filters and sorts are not applied with it. 404 for another user's batch.",
    }),
  ),
});
/** GET /api/v1/reports and /dashboard, as validated */
export type ListReportsParams = Static<typeof ListReportsParams>;

export const ListProjectsParams = Type.Object({
  search: Type.Optional(search),
  search_by: Type.Optional(
    enumOf('string', ['project'], { default: 'project', description: 'Field that `search` matches.' }),
  ),
  sort_by: Type.Optional(
    enumOf('string', PROJECT_SORT_KEYS, {
      default: 'created_at',
      description: 'Sort key. Ties are broken by name.',
    }),
  ),
  sort: Type.Optional(sort),
  per_page: Type.Optional(perPage),
  page: Type.Optional(page),
});
/** GET /api/v1/projects and /dashboard/projects, as validated */
export type ListProjectsParams = Static<typeof ListProjectsParams>;

export const ListRunsParams = Type.Object({
  per_page: Type.Optional(perPage),
  page: Type.Optional(page),
});
/** GET /api/v1/reports/{id}/runs, as validated (newest first, always) */
export type ListRunsParams = Static<typeof ListRunsParams>;

/** The `default` of each property of an object schema (the one place defaults are written). */
function defaultsOf<S extends TSchema & { properties: Record<string, TSchema> }>(
  schema: S,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema.properties)) {
    const d = (v as { default?: unknown }).default;
    if (d !== undefined) out[k] = d;
  }
  return out;
}

const REPORT_DEFAULTS = defaultsOf(ListReportsParams) as Required<
  Pick<ListReportsParams, 'sort_by' | 'sort' | 'per_page' | 'page'>
>;
const PROJECT_DEFAULTS = defaultsOf(ListProjectsParams) as Required<
  Pick<ListProjectsParams, 'sort_by' | 'sort' | 'per_page' | 'page'>
>;

const RUN_DEFAULTS = defaultsOf(ListRunsParams) as Required<Pick<ListRunsParams, 'per_page' | 'page'>>;

/** What the reports service lists by (camelCase; an absent field takes the schema's default). */
export interface ListReportsQuery {
  /** case-insensitive substring of the URL; %, _ and \ are literal. Empty/undefined = no filter */
  search?: string | undefined;
  searchBy?: 'url' | undefined;
  /** a project name as a user gives it (the service normalises it like stored names) */
  project?: string | undefined;
  result?: (typeof RESULTS)[number] | undefined;
  /** ties are broken by id in the same direction */
  sortBy?: ReportSortKey | undefined;
  sort?: SortDirection | undefined;
  perPage?: PerPage | undefined;
  /** 1-based; a page past the last gives no items (total still right) */
  page?: number | undefined;
}

export interface ListProjectsQuery {
  /** case-insensitive substring of the project name; %, _ and \ are literal */
  search?: string | undefined;
  searchBy?: 'project' | undefined;
  /** ties are broken by name in the same direction */
  sortBy?: ProjectSortKey | undefined;
  sort?: SortDirection | undefined;
  perPage?: PerPage | undefined;
  page?: number | undefined;
}

/** A page of a report's runs (newest first). */
export interface ListRunsQuery {
  perPage?: PerPage | undefined;
  /** 1-based; a page past the last gives no items (total still right) */
  page?: number | undefined;
}

const blank = (s: string | undefined) => (s === undefined || s === '' ? undefined : s);

/** A validated query string → the reports service's query (an empty string = not set). */
export function reportsQueryFrom(q: ListReportsParams): ListReportsQuery {
  return {
    search: blank(q.search),
    searchBy: 'url',
    project: blank(q.project),
    result: q.result,
    sortBy: q.sort_by,
    sort: q.sort,
    perPage: q.per_page,
    page: q.page,
  };
}

/** A validated query string → the projects service's query. */
export function projectsQueryFrom(q: ListProjectsParams): ListProjectsQuery {
  return {
    search: blank(q.search),
    searchBy: 'project',
    sortBy: q.sort_by,
    sort: q.sort,
    perPage: q.per_page,
    page: q.page,
  };
}

/** Every field of a reports query set: absent ones from the schema's defaults. */
export function resolveReportsQuery(q: ListReportsQuery) {
  return {
    search: blank(q.search),
    // a name as a user gives it → its stored form (`WWW.Example.com` is `example.com`)
    project: q.project === undefined ? undefined : projectName(q.project),
    result: q.result,
    sortBy: q.sortBy ?? REPORT_DEFAULTS.sort_by,
    sort: q.sort ?? REPORT_DEFAULTS.sort,
    perPage: q.perPage ?? REPORT_DEFAULTS.per_page,
    page: q.page ?? REPORT_DEFAULTS.page,
  };
}

/** Every field of a projects query set: absent ones from the schema's defaults. */
export function resolveProjectsQuery(q: ListProjectsQuery) {
  return {
    search: blank(q.search),
    sortBy: q.sortBy ?? PROJECT_DEFAULTS.sort_by,
    sort: q.sort ?? PROJECT_DEFAULTS.sort,
    perPage: q.perPage ?? PROJECT_DEFAULTS.per_page,
    page: q.page ?? PROJECT_DEFAULTS.page,
  };
}

/** A validated query string → the runs list's query. */
export function runsQueryFrom(q: ListRunsParams): ListRunsQuery {
  return { perPage: q.per_page, page: q.page };
}

/** Every field of a runs query set: absent ones from the schema's defaults. */
export function resolveRunsQuery(q: ListRunsQuery) {
  return { perPage: q.perPage ?? RUN_DEFAULTS.per_page, page: q.page ?? RUN_DEFAULTS.page };
}

/** One page of a list, as a service answers it (the envelope is the presenter's). */
export interface Page<T> {
  items: T[];
  /** every match, across pages */
  total: number;
  /** `total` is an estimate (a broad search: docs/api.md, "Estimated totals") */
  totalIsEstimate?: true;
}
