// Body parsing: application/x-www-form-urlencoded and application/json only (anything else is
// 415); JSON must be an object (else 400); the 1 MB limit is the server's bodyLimit (413).
import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { badRequest } from '../../errors.js';

export const BODY_LIMIT = 1024 * 1024;

/** Stands for a JSON null field: no schema type accepts (or coerces) an object, so it fails. */
const NULL_FIELD = Object.freeze({});

/**
 * For the few bodies where `null` means "clear this field" (PUT /account/branding): the JSON
 * nulls the parser replaced, back to null — a route's own preValidation hook.
 */
export function restoreNulls(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (fields[key] === NULL_FIELD) fields[key] = null;
}

export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();

  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(badRequest('The JSON body is empty.'), undefined);
    defaultJson(request, text, (err, value) => {
      if (err) return done(badRequest('The body is not valid JSON.'), undefined);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(badRequest('The JSON body must be an object.'), undefined);
      }
      // The validator coerces null to 0 or "" (`"privacy": null` would become the default 0):
      // a null field is instead a value of the wrong type, which validation answers with 422.
      const fields = value as Record<string, unknown>;
      for (const key of Object.keys(fields)) if (fields[key] === null) fields[key] = NULL_FIELD;
      done(null, value);
    });
  });

  await app.register(formbody, { bodyLimit: BODY_LIMIT });

  // A POST, PUT or PATCH without a body is an empty set of fields (then validated as such).
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined || request.body === null) request.body = {};
    done();
  });
}
