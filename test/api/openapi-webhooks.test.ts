// The OpenAPI document's webhook parts: every webhook endpoint has an operationId, and the
// OpenAPI 3.1 `webhooks` section describes one POST per event (and the test ping) whose body
// schema accepts the bodies Pagegrade really sends — recorded here from real report changes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { EVENT_NAMES } from '../../src/contract/webhooks/events.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildReport, buildUser } from '../helpers/factories.js';
import { goodPage, html } from '../helpers/fixture-server.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, unknown>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
}

let t: TestApp;
let doc: Doc;
before(async () => {
  t = await buildTestApp(sqliteDialect);
  doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as Doc;
});
after(() => t.close());

test('every webhook endpoint has an operationId, unique in the document', () => {
  const ids: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/v1/webhooks')) continue;
    for (const [m, op] of Object.entries(methods)) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${m} ${path}`);
      ids.push(op.operationId!);
    }
  }
  assert.deepEqual(ids.sort(), [
    'createWebhook',
    'deleteWebhook',
    'listWebhookDeliveries',
    'listWebhooks',
    'redeliverWebhookDelivery',
    'showWebhook',
    'showWebhookDelivery',
    'testWebhook',
    'updateWebhook',
  ]);
  const all = Object.values(doc.paths).flatMap((ms) => Object.values(ms).map((op) => op.operationId));
  const named = all.filter((x): x is string => !!x);
  assert.equal(new Set(named).size, named.length, 'operationIds are unique');
});

test('`webhooks` has one signed POST per event, plus the test ping', () => {
  assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_NAMES, 'webhook.test'].sort());
  for (const [name, { post }] of Object.entries(doc.webhooks)) {
    assert.ok(post.operationId, name);
    assert.deepEqual(
      (post.parameters ?? []).map((p) => `${p.in}:${p.name}`),
      ['header:webhook-id', 'header:webhook-timestamp', 'header:webhook-signature'],
    );
    assert.ok(post.requestBody?.content['application/json']?.schema, name);
    assert.ok(post.responses['2XX'], name);
  }
});

test('the bodies Pagegrade sends validate against their event schema', async () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const user = await buildUser(t.services);
  const { webhook } = await t.services.webhooks.create(user.id, {
    url: `${t.site('receiver')}/hook`,
    events: [...EVENT_NAMES],
  });
  // report.created, then from real re-audits: report.completed, report.regressed (the title
  // is gone: a high-priority check newly fails) and report.failed (the page is not HTML)
  t.fixture.route('/page', html(goodPage(t.fixture.origin)));
  const report = await t.services.reports.create(user.id, { url: `${t.site('events')}/page` });
  t.fixture.route('/page', html(goodPage(t.fixture.origin).replace(/<title>[^<]*<\/title>/, '')));
  await t.services.reports.update(user.id, report.id, { results: true });
  t.fixture.route('/page', { status: 200, headers: { 'content-type': 'text/plain' }, body: 'gone' });
  await assert.rejects(t.services.reports.update(user.id, report.id, { results: true }));
  await t.services.webhooks.test(user.id, webhook.id);
  await buildReport(t.services, user);

  const log = await t.services.webhooks.deliveries(user.id, webhook.id, { page: 1, perPage: 100 });
  const seen = new Set<string>();
  for (const d of log.items) {
    const { payload } = await t.services.webhooks.delivery(user.id, webhook.id, d.id);
    const schema = doc.webhooks[d.event]!.post.requestBody!.content['application/json']!.schema;
    const validate = ajv.compile(schema);
    assert.ok(validate(payload), `${d.event}: ${ajv.errorsText(validate.errors)}`);
    seen.add(d.event);
    if (d.event === 'report.regressed') {
      const diff = (
        payload as { data: { diff: { regression: boolean; checks: { newly_failed: { id: string }[] } } } }
      ).data.diff;
      assert.equal(diff.regression, true);
      assert.ok(
        diff.checks.newly_failed.some((c) => c.id === 'title'),
        'the title check newly failed',
      );
    }
  }
  // every report event and the ping; the batch events need whole batches: their bodies are
  // validated against these schemas in test/sites/truth.test.ts
  assert.deepEqual(
    [...seen].sort(),
    [...EVENT_NAMES.filter((e) => !e.startsWith('batch.')), 'webhook.test'].sort(),
  );
});
