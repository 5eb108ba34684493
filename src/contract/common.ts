// The pieces every resource's contract is made of: enumerations, nullable fields, dates, ids,
// examples on a schema, the error body and the error responses a route documents.
//
// Enumerations are TypeBox schemas with a literal-union static type (`enumOf`): the JSON
// schema is a plain `enum` (one validator error per field, so the 422 names the allowed
// values), and handlers get `'asc' | 'desc'`, `10 | 25 | 50 | 100` … without casts.
import { Type, type TSchema, type TUnsafe } from 'typebox';

/** An enumeration: `{type, enum, default?}` in JSON, a union of its literals in TypeScript. */
export function enumOf<const T extends readonly (string | number)[]>(
  type: 'string' | 'integer',
  values: T,
  options: { default?: T[number]; description?: string } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type, enum: [...values], ...options });
}

/** No NUL character (no host name has one, and PostgreSQL refuses it in text). */
export const NO_NUL = '^[^\\u0000]*$';

/** The largest id a request may name (PostgreSQL `integer`); larger ids answer 404. */
export const MAX_ID = 2_147_483_647;

export const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
export const dateTime = (description: string) => Type.String({ format: 'date-time', description });
export const uri = () => Type.String({ format: 'uri' });

/**
 * The schema with one example (the OpenAPI document shows it as the media type's `example`;
 * the document's lint checks it against the schema). A copy: shared schemas stay as they are.
 */
export const withExample = <T extends TSchema>(schema: T, example: unknown): T =>
  ({ ...schema, examples: [example] }) as T;

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    errors: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Per-field messages (422).' }),
    ),
  },
  { additionalProperties: false },
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

export const Health = Type.Object(
  { status: Type.Literal('ok') },
  { additionalProperties: false, examples: [{ status: 'ok' }] },
);
