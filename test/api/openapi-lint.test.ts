// The served OpenAPI document passes Redocly's recommended rules with no error and no warning
// (`redocly lint`, the CLI from node_modules, on the document written to a temp file), and
// follows the house rules the linter does not know: every operation has a camelCase
// operationId, a summary, tags, security (`[]` only where public), an example for its request
// body and for every JSON response. Routes added later are held to the same rules here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { sqliteDialect } from '../helpers/db.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

interface Media {
  schema?: unknown;
  example?: unknown;
  examples?: unknown;
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface Doc {
  info: { license?: { name: string } };
  paths: Record<string, Record<string, Operation>>;
}

/** the public operations (no API key) */
const PUBLIC = new Set(['GET /healthz']);

describe('OpenAPI document: lint', () => {
  let t: TestApp;
  let doc: Doc;
  let text: string;
  before(async () => {
    t = await buildTestApp(sqliteDialect);
    const res = await t.app.inject({ url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    text = res.body;
    doc = JSON.parse(text) as Doc;
  });
  after(() => t.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([m, op]) => ({ name: `${m.toUpperCase()} ${path}`, op })),
    );

  test("Redocly's recommended rules: 0 errors, 0 warnings", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrade-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, text);
      // the repository's redocly.yaml: `extends: [recommended]`, telemetry off
      const { stdout } = await run(
        join(root, 'node_modules/.bin/redocly'),
        ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json'],
        {
          cwd: root,
          env: {
            ...process.env,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          },
          maxBuffer: 64 * 1024 * 1024,
        },
      ).catch((err: { stdout?: string; stderr?: string }) => {
        // exit 1 on errors: the JSON report is still on stdout
        if (err.stdout) return { stdout: err.stdout };
        throw new Error(`redocly lint did not run: ${err.stderr ?? String(err)}`);
      });
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number; ignored: number };
        problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
      };
      const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      assert.deepEqual(problems, []);
      assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('has a license', () => {
    assert.equal(doc.info.license?.name, 'MIT');
  });

  test('every operation: a camelCase operationId (unique), a summary, tags and security', () => {
    const ids = new Set<string>();
    for (const { name, op } of operations()) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z0-9]*$/, `${name}: operationId`);
      assert.ok(!ids.has(op.operationId!), `${name}: operationId ${op.operationId} is unique`);
      ids.add(op.operationId!);
      assert.ok(op.summary, `${name}: summary`);
      assert.ok(op.tags && op.tags.length > 0, `${name}: tags`);
      assert.deepEqual(op.security, PUBLIC.has(name) ? [] : [{ bearerAuth: [] }], `${name}: security`);
    }
  });

  test('every request body and every JSON response has an example', () => {
    const missing: string[] = [];
    for (const { name, op } of operations()) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
        if (media.example === undefined && media.examples === undefined) missing.push(`${name} body ${type}`);
      for (const [status, r] of Object.entries(op.responses))
        for (const [type, media] of Object.entries(r.content ?? {}))
          if (media.example === undefined && media.examples === undefined)
            missing.push(`${name} ${status} ${type}`);
    }
    assert.deepEqual(missing, []);
  });

  test('the operation ids of the reports and projects', () => {
    const id = (path: string, m: string) => doc.paths[path]?.[m]?.operationId;
    assert.equal(id('/api/v1/reports', 'get'), 'listReports');
    assert.equal(id('/api/v1/reports', 'post'), 'storeReport');
    assert.equal(id('/api/v1/reports/{id}', 'get'), 'showReport');
    assert.equal(id('/api/v1/reports/{id}', 'put'), 'updateReport');
    assert.equal(id('/api/v1/reports/{id}', 'patch'), 'patchReport');
    assert.equal(id('/api/v1/reports/{id}', 'delete'), 'deleteReport');
    assert.equal(id('/api/v1/projects', 'get'), 'listProjects');
    assert.equal(id('/api/v1/projects/{project}', 'delete'), 'deleteProject');
    assert.equal(id('/healthz', 'get'), 'getHealth');
  });
});
