// A tool's arguments checked against its input schema — the API's own TypeBox schemas
// (src/contract), as JSON Schema — by Ajv with the options Fastify gives the API's validator
// (src/app.ts: every error, coercion of scalars and one-item lists), so that an agent gets the
// messages a 422 of the API has: the field and what it allows (src/web/field-errors.ts).
import { Ajv, type ErrorObject } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import type { FieldErrors } from '../errors.js';
import { fieldErrors } from '../web/field-errors.js';

const ajv = new Ajv({
  allErrors: true,
  verbose: true,
  coerceTypes: 'array',
  useDefaults: false,
  removeAdditional: false,
  // the schemas carry OpenAPI's words (examples) that Ajv does not know
  strict: false,
});

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** A checker for one schema: the arguments (a copy, coerced as the API coerces) or the field errors. */
export function checker<T>(schema: TSchema): (input: unknown) => Checked<T> {
  const validate = ajv.compile(schema);
  return (input) => {
    const value: unknown = structuredClone(input ?? {});
    if (validate(value)) return { ok: true, value: value as T };
    const errors = (validate.errors ?? []) as (ErrorObject & FastifySchemaValidationError)[];
    return { ok: false, errors: fieldErrors(errors) };
  };
}
