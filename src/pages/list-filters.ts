// A dashboard list's filters read from its address, the forgiving way a person's form needs:
// an empty value means "any" (the form's "Any result" sends `result=`), and a value the list
// does not take (a hand-edited `per_page=1000`, `page=abc`) falls back to its default with a
// notice in the form's words. The API keeps its strict 422s; both validate against the same
// schema (src/contract/lists.ts), field by field here.
import type { TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** How the form names a field and its choices (value → label). */
export interface FilterLabels {
  label: string;
  choices?: Record<string, string>;
  /** what is shown when the field is not set, e.g. "any result" */
  unset?: string;
}

export interface ReadFilters<P> {
  /** the valid, non-empty values, as the schema types them */
  params: P;
  /** the same values as strings (to refill the form and build page links) */
  raw: Record<string, string>;
  /** one sentence per value that was reset */
  notices: string[];
}

function coerce(schema: TSchema, value: string): unknown {
  const type = (schema as { type?: string }).type;
  if (type === 'integer' || type === 'number') return /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
  return value;
}

/** Reads `keys` of `query` against `schema`: empty → unset, invalid → unset (its default) with a notice. */
export function readFilters<P>(
  schema: TObject,
  query: URLSearchParams,
  keys: readonly string[],
  labels: Record<string, FilterLabels>,
): ReadFilters<P> {
  const params: Record<string, unknown> = {};
  const raw: Record<string, string> = {};
  const notices: string[] = [];
  for (const key of keys) {
    const value = query.get(key);
    if (value === null || value === '') continue;
    const field = schema.properties[key] as TSchema | undefined;
    if (!field) continue;
    const typed = coerce(field, value);
    if (Value.Check(field, typed)) {
      params[key] = typed;
      raw[key] = value;
      continue;
    }
    const l = labels[key] ?? { label: key };
    const fallback = (field as { default?: unknown }).default;
    const shown =
      fallback !== undefined ? (l.choices?.[String(fallback)] ?? String(fallback)) : (l.unset ?? 'any');
    const shortValue = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    notices.push(`${l.label} cannot be “${shortValue}”, so ${shown} is shown.`);
  }
  return { params: params as P, raw, notices };
}
