// Validates recorded responses against the response schemas of the served OpenAPI document
// (GET /api/v1/openapi.json), with Ajv. A response to a documented operation must have a
// documented status whose schema it satisfies; undocumented operations (405 answers, unknown
// routes) are not checked here.
import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Harness } from './api-harness.js';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

export async function checkAgainstOpenApi(h: Harness): Promise<number> {
  const res = await h.app.inject({ url: '/api/v1/openapi.json' });
  assert.equal(res.statusCode, 200);
  const doc = res.json() as Doc;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const routes = Object.entries(doc.paths).map(([path, ops]) => ({
    re: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    path,
    ops,
  }));
  const cache = new Map<string, ValidateFunction>();
  let checked = 0;
  for (const r of h.recorded) {
    const pathname = r.url.split('?')[0]!.replace(/\/+$/, '') || '/';
    const route = routes.find((x) => x.re.test(pathname));
    const op = route?.ops[r.method.toLowerCase()];
    if (!route || !op) continue;
    const documented = op.responses?.[String(r.status)];
    assert.ok(documented, `${r.method} ${r.url} answered ${r.status}, which ${route.path} does not document`);
    // a 204 has no body to check
    if (r.status === 204) continue;
    const schema = documented.content?.['application/json']?.schema;
    assert.ok(schema, `${r.method} ${route.path} ${r.status} has no JSON schema`);
    assert.match(r.contentType, /^application\/json; charset=utf-8$/, `${r.method} ${r.url} content type`);
    const key = `${r.method} ${route.path} ${r.status}`;
    const validate = cache.get(key) ?? ajv.compile(schema);
    cache.set(key, validate);
    const ok = validate(r.body);
    assert.ok(ok, `${key}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(r.body).slice(0, 500)}`);
    checked++;
  }
  return checked;
}
