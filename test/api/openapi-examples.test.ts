// Every example in the served OpenAPI document is valid against the schema it illustrates —
// request bodies, JSON responses and the webhook events' bodies — with Ajv, the validator the
// response checks use (test/helpers/openapi-check.ts). An example that drifts from its schema
// (a field renamed, a shape flattened) fails here, not in a reader's client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { sqliteDialect } from '../helpers/db.js';

interface Media {
  schema?: object;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
interface Operation {
  requestBody?: { content: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
}

describe('OpenAPI document: examples', () => {
  let t: TestApp;
  let doc: Doc;
  before(async () => {
    t = await buildTestApp(sqliteDialect);
    const res = await t.app.inject({ url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json() as Doc;
  });
  after(() => t.close());

  test('every JSON example validates against its schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const failures: string[] = [];
    let checked = 0;
    const check = (where: string, media: Media) => {
      if (!media.schema) return;
      const values = [
        ...(media.example !== undefined ? [['example', media.example] as const] : []),
        ...Object.entries(media.examples ?? {}).map(([name, e]) => [name, e.value] as const),
      ];
      if (values.length === 0) return;
      const validate = ajv.compile(media.schema);
      for (const [name, value] of values) {
        checked++;
        if (!validate(value)) failures.push(`${where} (${name}): ${ajv.errorsText(validate.errors)}`);
      }
    };
    const operations = [
      ...Object.entries(doc.paths).map(([path, ops]) => [path, ops] as const),
      ...Object.entries(doc.webhooks ?? {}).map(([name, ops]) => [`webhook ${name}`, ops] as const),
    ];
    for (const [path, ops] of operations) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
          if (type.includes('json')) check(`${method.toUpperCase()} ${path} body ${type}`, media);
        for (const [status, r] of Object.entries(op.responses ?? {}))
          for (const [type, media] of Object.entries(r.content ?? {}))
            if (type.includes('json')) check(`${method.toUpperCase()} ${path} ${status} ${type}`, media);
      }
    }
    assert.deepEqual(failures, [], 'examples that do not match their schema');
    assert.ok(checked > 40, `only ${checked} examples checked`);
  });

  test("the batch events stream's example: progress events, then end, each with a batch as GET /batches/{id} has it", () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const show = doc.paths['/api/v1/batches/{id}']!.get!.responses!['200']!.content!['application/json']!;
    const batchSchema = (show.schema as { properties: { data: object } }).properties.data;
    const validate = ajv.compile(batchSchema);
    const media =
      doc.paths['/api/v1/batches/{id}/events']!.get!.responses!['200']!.content!['text/event-stream']!;
    const events = String(media.example)
      .split('\n\n')
      .filter((e) => e !== '')
      .map((e) => /^event: (\w+)\ndata: (.*)$/s.exec(e));
    assert.ok(
      events.every((e) => e !== null),
      String(media.example),
    );
    assert.deepEqual(
      events.map((e) => e![1]),
      ['progress', 'end'],
    );
    for (const e of events) assert.ok(validate(JSON.parse(e![2]!)), ajv.errorsText(validate.errors));
  });
});
