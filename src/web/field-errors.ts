// Turns the schema validator's errors (Ajv, run by Fastify with allErrors and verbose) into
// `errors: {field: [message]}`, naming the field and what it allows: the API's 422 body and
// the pages' form messages both start from these.
import type { FastifySchemaValidationError } from 'fastify';
import { didYouMean } from '../analyzer/url.js';
import type { FieldErrors } from '../errors.js';

interface FieldSchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: FieldSchema;
  minItems?: number;
  maxItems?: number;
}

/** Messages for fields whose schema is a choice of forms (anyOf), by field. */
const FIELD_MESSAGES: Record<string, string> = {
  privacy: 'The privacy must be one of: 0, 1, 2 (or the words public, private, password).',
};

/** Messages for `pattern` failures, by field (a regex is no message for a person). */
const PATTERN_MESSAGES: Record<string, string> = {
  url: 'The url must be an http or https URL.',
  status: 'The status must be an HTTP status (404), a class of them (1xx, 2xx, 3xx, 4xx, 5xx) or none.',
};

/** A schema's pattern that asks for an http(s) URL (the url fields of the contract). */
const isHttpUrlPattern = (pattern: string | undefined) =>
  pattern !== undefined &&
  /^\^(?:\\s\*)?(?:\[Hh\]\[Tt\]\[Tt\]\[Pp\]|https?|\(\?:https\?\)|http)/i.test(pattern);

function describe(field: string, keyword: string, schema: FieldSchema): string {
  if (keyword === 'pattern' && !PATTERN_MESSAGES[field] && isHttpUrlPattern(schema.pattern))
    return `The ${field} must be an http or https URL.`;
  if (schema.enum) return `The ${field} must be one of: ${schema.enum.join(', ')}.`;
  if (schema.type === 'array') {
    const of = schema.items?.enum ? ` of: ${schema.items.enum.join(', ')}` : '';
    if (keyword === 'minItems')
      return `The ${field} must list at least ${schema.minItems === 1 ? 'one' : schema.minItems}${of}.`;
    if (keyword === 'maxItems') return `The ${field} must list at most ${schema.maxItems}.`;
    return `The ${field} must be a list${of}.`;
  }
  if (keyword === 'pattern') return PATTERN_MESSAGES[field] ?? `The ${field} format is invalid.`;
  if (schema.type === 'integer' || schema.type === 'number') {
    const kind = schema.type === 'integer' ? 'a whole number' : 'a number';
    // a bound far past any real value (a page number) is said after the lower one
    if (schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum >= 1_000_000)
      return `The ${field} must be ${kind} of at least ${schema.minimum} (at most ${schema.maximum}).`;
    if (schema.minimum !== undefined && schema.maximum !== undefined)
      return `The ${field} must be ${kind} from ${schema.minimum} to ${schema.maximum}.`;
    if (schema.minimum !== undefined) return `The ${field} must be ${kind} of at least ${schema.minimum}.`;
    if (schema.maximum !== undefined) return `The ${field} must be ${kind} of at most ${schema.maximum}.`;
    return `The ${field} must be ${kind}.`;
  }
  if (keyword === 'format') {
    const format = (schema as { format?: string }).format;
    if (format === 'date-time')
      return `The ${field} must be a date-time (ISO 8601, e.g. 2026-12-31T23:59:59Z).`;
    return `The ${field} format is invalid${format ? ` (expected ${format})` : ''}.`;
  }
  if (schema.type === 'string') {
    if (keyword === 'maxLength')
      return `The ${field} must not be longer than ${schema.maxLength} characters.`;
    if (keyword === 'minLength' && schema.minLength === 1) return `The ${field} field is required.`;
    if (keyword === 'minLength') return `The ${field} must be at least ${schema.minLength} characters.`;
    return `The ${field} must be a string.`;
  }
  return `The ${field} is invalid.`;
}

/**
 * The field an error is about: "/per_page" or "/page/0" (a repeated query parameter, a list's
 * item) → the top-level name; deeper in an object ("/schedule/every", "/ignore/0/reason") → the
 * dotted path.
 */
function fieldPath(instancePath: string): string {
  const parts = instancePath.split('/').slice(1);
  if (parts.length <= 1 || (parts.length === 2 && /^\d+$/.test(parts[1]!))) return parts[0] ?? '';
  return parts.join('.');
}

/** Ajv errors → field errors (one message per field, the fields in the order they failed). */
export function fieldErrors(errors: FastifySchemaValidationError[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    let field: string;
    let message: string;
    const at = fieldPath(e.instancePath);
    if (e.keyword === 'required') {
      field = [at, String(e.params.missingProperty ?? '')].filter((x) => x !== '').join('.');
      message = `The ${field} field is required.`;
    } else if (e.keyword === 'additionalProperties') {
      // a body that refuses unknown fields (a project's settings): name the field and the known ones
      field = [at, String(e.params.additionalProperty ?? '')].filter((x) => x !== '').join('.');
      const known = Object.keys(
        (e as { parentSchema?: { properties?: object } }).parentSchema?.properties ?? {},
      );
      message = `The ${field} field is unknown; the fields are: ${known.join(', ')}.`;
    } else {
      field = at;
      const parent = ((e as { parentSchema?: FieldSchema }).parentSchema ?? {}) as FieldSchema;
      // a nullable field's null branch, and the union's own summary, say nothing of use: the
      // other branch's error (a pattern, a length) names what the field allows
      if (parent.type === 'null' || e.keyword === 'anyOf') continue;
      message = FIELD_MESSAGES[field] ?? describe(field, e.keyword, parent);
      // "example.com" → "…; did you mean https://example.com/?"
      const data = (e as { data?: unknown }).data;
      if (
        e.keyword === 'pattern' &&
        typeof data === 'string' &&
        (field === 'url' || isHttpUrlPattern(parent.pattern))
      ) {
        const hint = didYouMean(data);
        if (hint !== '') message = `${message.replace(/\.$/, '')}${hint}`;
      }
    }
    if (!field) {
      field = 'body';
      message = 'The body must be an object of fields.';
    }
    if (!out[field]) out[field] = [message];
  }
  return out;
}
