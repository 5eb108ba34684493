// Numbers in a query string or a body are decimal and finite. The validator coerces a string
// with `+value`, so `Infinity`, `1e309`, `-Infinity`, `0x10` or ` 12` would otherwise pass as a
// number (Ajv skips minimum/maximum for an infinite one) and reach the database — a 500 where
// the API promises a 422. Such a value is swapped for one the validator refuses as not a
// number, so the 422 names the field in the same words as any other wrong type, beside the
// other fields' errors.
import type { FastifyInstance, RouteOptions } from 'fastify';

const DECIMAL = /^-?[0-9]{1,20}(\.[0-9]{1,20})?$/;
/** A value `+value` turns into NaN: the validator answers "must be a number" for it. */
const REFUSED = 'NaN';

type Fields = Record<string, unknown>;

/** The names of an object schema's number and integer properties. */
function numericFields(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  if (!props) return [];
  return Object.entries(props)
    .filter(([, p]) => p.type === 'integer' || p.type === 'number')
    .map(([name]) => name);
}

const acceptable = (v: unknown) =>
  typeof v === 'number' ? Number.isFinite(v) : typeof v !== 'string' || DECIMAL.test(v);

function guard(fields: Fields | undefined, names: string[]): void {
  if (!fields || typeof fields !== 'object') return;
  for (const name of names) {
    const v = fields[name];
    if (Array.isArray(v)) fields[name] = v.map((x) => (acceptable(x) ? x : REFUSED));
    else if (v !== undefined && !acceptable(v)) fields[name] = REFUSED;
  }
}

/** Every route registered in `scope` after this call gets the guard for its numeric fields. */
export function registerFiniteNumbers(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const inQuery = numericFields(route.schema?.querystring);
    const inBody = numericFields(route.schema?.body);
    if (inQuery.length === 0 && inBody.length === 0) return;
    const hook: NonNullable<RouteOptions['preValidation']> = (request, _reply, done) => {
      guard(request.query as Fields, inQuery);
      guard(request.body as Fields, inBody);
      done();
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [hook] : [hook, ...[existing].flat()];
  });
}
