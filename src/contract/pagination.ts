// The paginated list envelope: {data, links, meta}. Links are absolute on the public URL and
// keep every other query parameter of the request (unknown ones too), replacing only `page`.
// `paginated(item)` is its schema.
import { Type, type TSchema } from 'typebox';
import { nullable } from './common.js';
import { PER_PAGE } from './lists.js';

export interface PaginationInput<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  /** e.g. `${publicUrl}/api/v1/reports` */
  path: string;
  /** the request's raw query string (without `?`) */
  rawQuery: string;
  /** `total` is an estimate (meta.total_is_estimate: docs/api.md, "Estimated totals") */
  totalIsEstimate?: boolean | undefined;
}

export function paginate<T>({
  items,
  total,
  page,
  perPage,
  path,
  rawQuery,
  totalIsEstimate,
}: PaginationInput<T>) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  // parsed once: set() replaces `page` where it stands (or appends it), as on a fresh copy
  const params = new URLSearchParams(rawQuery);
  const link = (p: number) => {
    params.set('page', String(p));
    return `${path}?${params.toString()}`;
  };
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
  const to = from === null ? null : from + items.length - 1;
  return {
    data: items,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      to,
      last_page: lastPage,
      per_page: perPage,
      total,
      ...(totalIsEstimate ? { total_is_estimate: true as const } : {}),
      path,
    },
  };
}

/**
 * `JSON.stringify(paginate(input))` for items that are already JSON text (the reports list's
 * rows, src/http/presenters/report.ts): the rows are joined, not parsed again.
 */
export function paginateText(input: PaginationInput<string>): string {
  const { data, ...rest } = paginate(input);
  return `{"data":[${data.join(',')}],${JSON.stringify(rest).slice(1)}`;
}

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
    total_is_estimate: Type.Optional(
      Type.Literal(true, {
        description:
          'Present (true) when `total` (and so `last_page`) is an estimate: a search of the reports whose exact count would cost more than a bound (10,000 matches). Every other total is exact. docs/api.md, "Estimated totals".',
      }),
    ),
    path: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false },
);

export const paginated = <T extends TSchema>(item: T) =>
  Type.Object(
    { data: Type.Array(item), links: PaginationLinks, meta: PaginationMeta },
    { additionalProperties: false },
  );

/** The envelope of an example list: one page holding one item, of the list at `path`. */
export function listExample(path: string) {
  return {
    links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null },
    meta: { current_page: 1, from: 1, to: 1, last_page: 1, per_page: 10, total: 1, path },
  };
}
