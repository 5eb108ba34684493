// The OpenAPI 3.1 document (generated from the route schemas) and the interactive reference at
// /docs (swagger-ui's own bundled assets). Every API suite also validates all of its responses
// against this document (test/helpers/api-harness.ts → openapi-check.ts); this file checks the document itself.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { DIALECTS, createHarness, type Harness } from '../helpers/api-harness.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';

interface Doc {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<
    string,
    Record<
      string,
      {
        security?: unknown[];
        parameters?: { name: string; in: string; schema: { enum?: unknown[] } }[];
        requestBody?: {
          content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }>;
        };
        responses: Record<string, { content?: Record<string, { schema: object }> }>;
      }
    >
  >;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
}

describe('OpenAPI document and /docs', () => {
  let h: Harness;
  let doc: Doc;
  before(async () => {
    h = await createHarness(DIALECTS[0]!);
    const res = await h.request({ url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json() as Doc;
  });
  after(() => h.close());

  test('is OpenAPI 3.1 with every endpoint of SPEC §3, and nothing else', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'Pagegrade API');
    assert.equal(doc.servers[0]?.url, 'http://pagegrade.test:8080');
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    assert.deepEqual(ops.sort(), [
      'DELETE /api/v1/account/branding',
      'DELETE /api/v1/batches/{id}',
      'DELETE /api/v1/organization/invitations/{id}',
      'DELETE /api/v1/organization/members/{user_id}',
      'DELETE /api/v1/projects/{project}',
      'DELETE /api/v1/projects/{project}/branding',
      'DELETE /api/v1/projects/{project}/ignore-rules/{rule_id}',
      'DELETE /api/v1/reports/{id}',
      'DELETE /api/v1/reports/{id}/schedule',
      'DELETE /api/v1/shares/{id}',
      'DELETE /api/v1/webhooks/{id}',
      'GET /api/v1/account',
      'GET /api/v1/account/branding',
      'GET /api/v1/batches',
      'GET /api/v1/batches/{id}',
      'GET /api/v1/batches/{id}/diff',
      'GET /api/v1/batches/{id}/events',
      'GET /api/v1/batches/{id}/export',
      'GET /api/v1/batches/{id}/failures',
      'GET /api/v1/batches/{id}/links',
      'GET /api/v1/batches/{id}/links/page',
      'GET /api/v1/batches/{id}/pages',
      'GET /api/v1/builds/{id}',
      'GET /api/v1/organization',
      'GET /api/v1/organization/audit-log',
      'GET /api/v1/organization/invitations',
      'GET /api/v1/organization/members',
      'GET /api/v1/organization/shares',
      'GET /api/v1/projects',
      'GET /api/v1/projects/{project}',
      'GET /api/v1/projects/{project}/branding',
      'GET /api/v1/projects/{project}/builds',
      'GET /api/v1/projects/{project}/ignore-rules',
      'GET /api/v1/projects/{project}/issues',
      'GET /api/v1/reports',
      'GET /api/v1/reports/{id}',
      'GET /api/v1/reports/{id}/diff',
      'GET /api/v1/reports/{id}/pdf',
      'GET /api/v1/reports/{id}/runs',
      'GET /api/v1/reports/{id}/runs/{run}',
      'GET /api/v1/reports/{id}/schedule',
      'GET /api/v1/schedules',
      'GET /api/v1/webhooks',
      'GET /api/v1/webhooks/{id}',
      'GET /api/v1/webhooks/{id}/deliveries',
      'GET /api/v1/webhooks/{id}/deliveries/{delivery}',
      'GET /healthz',
      'PATCH /api/v1/organization/members/{user_id}',
      'PATCH /api/v1/projects/{project}',
      'PATCH /api/v1/reports/{id}',
      'PATCH /api/v1/webhooks/{id}',
      'POST /api/v1/batches',
      'POST /api/v1/batches/{id}/cancel',
      'POST /api/v1/builds',
      'POST /api/v1/organization/invitations',
      'POST /api/v1/projects/{project}/crawls',
      'POST /api/v1/projects/{project}/ignore-rules',
      'POST /api/v1/projects/{project}/shares',
      'POST /api/v1/reports',
      'POST /api/v1/reports/{id}/shares',
      'POST /api/v1/webhooks',
      'POST /api/v1/webhooks/{id}/deliveries/{delivery}/redeliver',
      'POST /api/v1/webhooks/{id}/test',
      'PUT /api/v1/account/branding',
      'PUT /api/v1/projects/{project}',
      'PUT /api/v1/projects/{project}/branding',
      'PUT /api/v1/reports/{id}',
      'PUT /api/v1/reports/{id}/schedule',
    ]);
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key.',
    });
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(methods)) {
        if (path === '/healthz') continue;
        assert.deepEqual(op.security, [{ bearerAuth: [] }], `${m} ${path}`);
        assert.ok(op.responses['401'], `${m} ${path} documents 401`);
        assert.ok(op.responses['429'], `${m} ${path} documents 429`);
      }
    }
  });

  test('the history operations have their operation ids', () => {
    const ids = (path: string) => (doc.paths[path]!.get as { operationId?: string }).operationId;
    assert.equal(ids('/api/v1/reports/{id}/runs'), 'listReportRuns');
    assert.equal(ids('/api/v1/reports/{id}/runs/{run}'), 'showReportRun');
    assert.equal(ids('/api/v1/reports/{id}/diff'), 'diffReport');
  });

  test('the schedule operations have their operation ids', () => {
    const op = (path: string, m: string) =>
      (doc.paths[path]![m as 'get'] as { operationId?: string }).operationId;
    assert.equal(op('/api/v1/reports/{id}/schedule', 'put'), 'putReportSchedule');
    assert.equal(op('/api/v1/reports/{id}/schedule', 'get'), 'showReportSchedule');
    assert.equal(op('/api/v1/reports/{id}/schedule', 'delete'), 'deleteReportSchedule');
    assert.equal(op('/api/v1/schedules', 'get'), 'listSchedules');
  });

  test('documents every list parameter with its allowed values', () => {
    const params = (path: string) =>
      Object.fromEntries(
        (doc.paths[path]!.get!.parameters ?? []).map((p) => [p.name, p.schema.enum ?? null]),
      );
    assert.deepEqual(params('/api/v1/reports'), {
      search: null,
      search_by: ['url'],
      project: null,
      result: ['good', 'decent', 'bad'],
      sort_by: ['id', 'generated_at', 'url', 'result', 'score'],
      sort: ['desc', 'asc'],
      per_page: [10, 25, 50, 100],
      page: null,
      batch: null,
      format: ['json', 'csv'],
    });
    assert.deepEqual(params('/api/v1/projects'), {
      search: null,
      search_by: ['project'],
      sort_by: ['created_at', 'project'],
      sort: ['desc', 'asc'],
      per_page: [10, 25, 50, 100],
      page: null,
    });
  });

  test('documents the bodies as form and JSON', () => {
    const store = doc.paths['/api/v1/reports']!.post!.requestBody!.content;
    assert.deepEqual(Object.keys(store), ['application/x-www-form-urlencoded', 'application/json']);
    assert.deepEqual(store['application/json']!.schema.required, ['url']);
    assert.deepEqual(Object.keys(store['application/json']!.schema.properties), [
      'url',
      'privacy',
      'password',
      'render',
    ]);
    const update = doc.paths['/api/v1/reports/{id}']!.patch!.requestBody!.content;
    assert.deepEqual(Object.keys(update), ['application/x-www-form-urlencoded', 'application/json']);
    assert.deepEqual(Object.keys(update['application/json']!.schema.properties), [
      'privacy',
      'password',
      'results',
      'render',
    ]);
  });

  test('every response schema compiles', () => {
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    let n = 0;
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        for (const [status, r] of Object.entries(op.responses)) {
          // /healthz's 4XX: Node's HTTP server answers a malformed request itself, without a body
          if (status === '4XX' && !r.content) continue;
          // a 204 (DELETE …/ignore-rules/{rule_id}) has no body
          if (status === '204' && !r.content) continue;
          // JSON where the operation answers JSON; otherwise its one media type (CSV, event streams)
          const content = r.content?.['application/json'] ?? Object.values(r.content ?? {})[0];
          const schema = content?.schema;
          assert.ok(schema, `${status} has a schema`);
          ajv.compile(schema);
          n++;
        }
      }
    }
    assert.ok(n > 30);
  });

  test('the checker rejects a response that does not match the document', async () => {
    h.recorded.push({
      method: 'GET',
      url: '/api/v1/reports/1',
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: { data: { id: 'one' } },
    });
    await assert.rejects(checkAgainstOpenApi(h), /GET \/api\/v1\/reports\/\{id\} 200/);
    h.recorded.pop();
    h.recorded.push({
      method: 'GET',
      url: '/api/v1/reports',
      status: 418,
      contentType: 'application/json; charset=utf-8',
      body: {},
    });
    await assert.rejects(checkAgainstOpenApi(h), /does not document/);
    h.recorded.pop();
  });

  test('/docs serves the interactive reference from its own assets (no CDN)', async () => {
    const page = await h.app.inject({ url: '/docs' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const srcs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(srcs.length > 0);
    for (const src of srcs) {
      assert.ok(!/^(https?:)?\/\//.test(src), `no external asset: ${src}`);
      const asset = await h.app.inject({ url: new URL(src, 'http://x/docs/').pathname });
      assert.equal(asset.statusCode, 200, src);
    }
    const json = await h.app.inject({ url: '/docs/json' });
    assert.equal(json.statusCode, 200);
    assert.equal((json.json() as Doc).openapi, '3.1.0');
  });
});
