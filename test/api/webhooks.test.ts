// /api/v1/webhooks: create (secret once), list, show, update, delete, the delivery log, one
// delivery with its body, redeliver, test ping, 422s that name the field and its allowed
// values, isolation between users — over every dialect, every response checked against the
// OpenAPI document. (Sending is tested in test/webhooks/; here the API runs with private hosts
// allowed, as its receiver-less URLs point at a fixture site on 127.0.0.1.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildReport } from '../helpers/factories.js';
import { PUBLIC_URL, forEachDialect, withBody } from '../helpers/api-harness.js';

interface WebhookJson {
  id: number;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabled_at: string | null;
  disabled_reason: string | null;
  consecutive_failures: number;
  secret?: string;
  links: { self: string; deliveries: string };
}

interface DeliveryJson {
  id: number;
  webhook_id: number;
  event: string;
  webhook_message_id: string;
  status: string;
  attempts: number;
  response_status: number | null;
  redelivery_of: number | null;
  payload?: {
    type: string;
    timestamp: string;
    data: { report: { id: number; url: string; links: { self: string } } };
  };
}

const EVENTS = [
  'report.created',
  'report.completed',
  'report.regressed',
  'report.failed',
  'batch.completed',
  'batch.regressed',
  'batch.failed',
  'batch.cancelled',
  'batch.page.completed',
];

forEachDialect('webhooks API', (h) => {
  let hook: WebhookJson;
  const target = () => `${h().site('hooks')}/receive`;

  test('create (form body, repeated events): 201, Location, the secret shown once', async () => {
    const res = await h().request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { ...h().alice.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `url=${encodeURIComponent(target())}&events=report.created&events=report.completed&description=CI`,
    });
    assert.equal(res.statusCode, 201, res.body);
    hook = (res.json() as { data: WebhookJson }).data;
    assert.equal(res.headers.location, `${PUBLIC_URL}/api/v1/webhooks/${hook.id}`);
    assert.equal(hook.url, target());
    assert.deepEqual(hook.events, ['report.created', 'report.completed']);
    assert.equal(hook.description, 'CI');
    assert.equal(hook.enabled, true);
    assert.equal(hook.consecutive_failures, 0);
    assert.match(hook.secret!, /^whsec_[A-Za-z0-9+/]{43}=$/, '32 random bytes, base64');
    assert.deepEqual(hook.links, {
      self: `${PUBLIC_URL}/api/v1/webhooks/${hook.id}`,
      deliveries: `${PUBLIC_URL}/api/v1/webhooks/${hook.id}/deliveries`,
    });
    const shown = await h().request({ url: `/api/v1/webhooks/${hook.id}`, headers: h().alice.auth });
    assert.equal(shown.statusCode, 200);
    assert.equal('secret' in (shown.json() as { data: object }).data, false, 'never shown again');
    const listed = await h().request({ url: '/api/v1/webhooks', headers: h().alice.auth });
    assert.equal(JSON.stringify(listed.json()).includes(hook.secret!), false);
  });

  test('create (JSON body, comma-separated events in a form field too)', async () => {
    const json = await h().request(
      withBody('POST', '/api/v1/webhooks', h().alice.auth, { url: target() }, 'json'),
    );
    assert.equal(json.statusCode, 422, 'events is required');
    const res = await h().request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { ...h().alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: target(), events: ['report.failed', 'report.failed'] }),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      (res.json() as { data: WebhookJson }).data.events,
      ['report.failed'],
      'duplicates dropped',
    );
    const form = await h().request(
      withBody('POST', '/api/v1/webhooks', h().alice.auth, {
        url: target(),
        events: 'report.regressed, report.failed',
      }),
    );
    assert.equal(form.statusCode, 201, form.body);
    assert.deepEqual((form.json() as { data: WebhookJson }).data.events, [
      'report.regressed',
      'report.failed',
    ]);
  });

  test('422s name the field and the allowed values', async () => {
    const post = (fields: Record<string, string>) =>
      h().request(withBody('POST', '/api/v1/webhooks', h().alice.auth, fields));
    let res = await post({ url: target(), events: 'report.deleted' });
    assert.equal(res.statusCode, 422);
    assert.deepEqual((res.json() as { errors: object }).errors, {
      events: [`The events must be one of: ${EVENTS.join(', ')}.`],
    });
    res = await post({ events: 'report.created' });
    assert.deepEqual((res.json() as { errors: object }).errors, { url: ['The url field is required.'] });
    res = await post({ url: 'ftp://example.com/', events: 'report.created' });
    assert.deepEqual((res.json() as { errors: object }).errors, {
      url: ['The url must be an http or https URL.'],
    });
    res = await post({ url: 'http://user:pw@hooks.test/', events: 'report.created' });
    assert.deepEqual((res.json() as { errors: object }).errors, {
      url: ['The URL must not contain a user name or password.'],
    });
    res = await post({ url: 'http://nowhere.invalid/', events: 'report.created' });
    assert.equal(res.statusCode, 422);
    assert.match((res.json() as { errors: { url: string[] } }).errors.url[0]!, /could not be resolved/);
    res = await h().request(
      withBody('PATCH', `/api/v1/webhooks/${hook.id}`, h().alice.auth, { enabled: '2' }),
    );
    assert.deepEqual((res.json() as { errors: object }).errors, {
      enabled: ['The enabled must be one of: 0, 1.'],
    });
    res = await h().request({
      url: `/api/v1/webhooks/${hook.id}/deliveries?status=sent`,
      headers: h().alice.auth,
    });
    assert.deepEqual((res.json() as { errors: object }).errors, {
      status: ['The status must be one of: pending, delivered, failed.'],
    });
    res = await h().request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { ...h().alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: target(), events: [] }),
    });
    assert.equal(res.statusCode, 422);
    assert.deepEqual((res.json() as { errors: object }).errors, {
      events: [`The events must list at least one of: ${EVENTS.join(', ')}.`],
    });
  });

  test('a report stored is a report.created delivery, pending until its job sends it', async () => {
    const report = await buildReport(h().services, h().alice, { path: '/hooked' });
    const res = await h().request({ url: `/api/v1/webhooks/${hook.id}/deliveries`, headers: h().alice.auth });
    assert.equal(res.statusCode, 200);
    const list = res.json() as { data: DeliveryJson[]; meta: { total: number } };
    assert.equal(list.meta.total, 1);
    const d = list.data[0]!;
    assert.equal(d.event, 'report.created');
    assert.equal(d.status, 'pending');
    assert.equal(d.attempts, 0);
    assert.match(d.webhook_message_id, /^msg_[A-Za-z0-9_-]{22}$/);
    const one = await h().request({
      url: `/api/v1/webhooks/${hook.id}/deliveries/${d.id}`,
      headers: h().alice.auth,
    });
    assert.equal(one.statusCode, 200, one.body);
    const payload = (one.json() as { data: DeliveryJson }).data.payload!;
    assert.equal(payload.type, 'report.created');
    assert.equal(payload.data.report.id, report.id);
    assert.equal(payload.data.report.links.self, `${PUBLIC_URL}/api/v1/reports/${report.id}`);
    // the webhook that takes only report.failed got nothing
    const all = await h().request({ url: '/api/v1/webhooks?per_page=10', headers: h().alice.auth });
    for (const w of (all.json() as { data: WebhookJson[] }).data) {
      const ds = await h().request({ url: `/api/v1/webhooks/${w.id}/deliveries`, headers: h().alice.auth });
      const total = (ds.json() as { meta: { total: number } }).meta.total;
      assert.equal(
        total,
        w.events.includes('report.created') ? 1 : 0,
        `webhook ${w.id} (${w.events.join()})`,
      );
    }

    // redeliver: a new delivery with the same webhook-id and body
    const again = await h().request({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`,
      headers: h().alice.auth,
    });
    assert.equal(again.statusCode, 202, again.body);
    const r = (again.json() as { data: DeliveryJson }).data;
    assert.notEqual(r.id, d.id);
    assert.equal(r.webhook_message_id, d.webhook_message_id);
    assert.equal(r.redelivery_of, d.id);
    assert.equal(r.status, 'pending');
    const rShown = await h().request({
      url: `/api/v1/webhooks/${hook.id}/deliveries/${r.id}`,
      headers: h().alice.auth,
    });
    assert.deepEqual((rShown.json() as { data: DeliveryJson }).data.payload, payload);

    // status filter and pagination
    const pending = await h().request({
      url: `/api/v1/webhooks/${hook.id}/deliveries?status=pending&per_page=10&page=1`,
      headers: h().alice.auth,
    });
    assert.equal((pending.json() as { meta: { total: number } }).meta.total, 2);
    const delivered = await h().request({
      url: `/api/v1/webhooks/${hook.id}/deliveries?status=delivered`,
      headers: h().alice.auth,
    });
    assert.equal((delivered.json() as { meta: { total: number } }).meta.total, 0);
  });

  test('test ping: a webhook.test delivery whatever the events', async () => {
    const res = await h().request({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/test`,
      headers: h().alice.auth,
    });
    assert.equal(res.statusCode, 202, res.body);
    const d = (res.json() as { data: DeliveryJson }).data;
    assert.equal(d.event, 'webhook.test');
    assert.equal(d.status, 'pending');
  });

  test('update: url, events, description; disable and enable again', async () => {
    let res = await h().request(
      withBody('PATCH', `/api/v1/webhooks/${hook.id}`, h().alice.auth, {
        events: 'report.failed,report.regressed',
        description: 'alerts',
        enabled: '0',
      }),
    );
    assert.equal(res.statusCode, 200, res.body);
    let w = (res.json() as { data: WebhookJson }).data;
    assert.deepEqual(w.events, ['report.failed', 'report.regressed']);
    assert.equal(w.description, 'alerts');
    assert.equal(w.enabled, false);
    assert.equal(w.disabled_reason, 'Disabled by its owner.');
    assert.ok(w.disabled_at);
    // a disabled webhook takes no redelivery and no test ping
    res = await h().request({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/test`,
      headers: h().alice.auth,
    });
    assert.equal(res.statusCode, 422);
    assert.match(
      (res.json() as { errors: { enabled: string[] } }).errors.enabled[0]!,
      /disabled .*enable it/,
    );
    // and no events
    await buildReport(h().services, h().alice, { path: '/while-disabled' });
    res = await h().request(
      withBody('PATCH', `/api/v1/webhooks/${hook.id}`, h().alice.auth, {
        enabled: '1',
        url: `${h().site('other')}/x`,
      }),
    );
    w = (res.json() as { data: WebhookJson }).data;
    assert.equal(w.enabled, true);
    assert.equal(w.disabled_reason, null);
    assert.equal(w.url, `${h().site('other')}/x`);
    const log = await h().request({ url: `/api/v1/webhooks/${hook.id}/deliveries`, headers: h().alice.auth });
    assert.equal(
      (log.json() as { meta: { total: number } }).meta.total,
      3,
      'nothing was recorded while disabled',
    );
  });

  test("another user's webhook answers 404, as a missing one", async () => {
    for (const req of [
      { url: `/api/v1/webhooks/${hook.id}` },
      { url: `/api/v1/webhooks/${hook.id}/deliveries` },
      { method: 'POST' as const, url: `/api/v1/webhooks/${hook.id}/test` },
      { method: 'DELETE' as const, url: `/api/v1/webhooks/${hook.id}` },
      { url: '/api/v1/webhooks/999999' },
      { url: '/api/v1/webhooks/0x1' },
      { url: `/api/v1/webhooks/${hook.id}/deliveries/1e0` },
    ]) {
      const res = await h().request({ ...req, headers: h().bob.auth });
      assert.equal(res.statusCode, 404, `${req.url}: ${res.body}`);
    }
    const res = await h().request({ url: '/api/v1/webhooks', headers: h().bob.auth });
    assert.equal((res.json() as { meta: { total: number } }).meta.total, 0);
  });

  test('list: paginated like the other lists, newest first', async () => {
    const res = await h().request({ url: '/api/v1/webhooks?per_page=10&page=1', headers: h().alice.auth });
    const list = res.json() as {
      data: WebhookJson[];
      meta: { total: number; per_page: number };
      links: { first: string };
    };
    assert.equal(list.meta.total, 3);
    assert.deepEqual(
      list.data.map((w) => w.id),
      [...list.data.map((w) => w.id)].sort((a, b) => b - a),
    );
    assert.equal(list.links.first, `${PUBLIC_URL}/api/v1/webhooks?per_page=10&page=1`);
    const past = await h().request({ url: '/api/v1/webhooks?page=5', headers: h().alice.auth });
    assert.deepEqual((past.json() as { data: unknown[] }).data, []);
  });

  test('delete: 200, gone with its delivery log', async () => {
    const res = await h().request({
      method: 'DELETE',
      url: `/api/v1/webhooks/${hook.id}`,
      headers: h().alice.auth,
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { id: hook.id, object: 'webhook', deleted: true });
    const gone = await h().request({
      url: `/api/v1/webhooks/${hook.id}/deliveries`,
      headers: h().alice.auth,
    });
    assert.equal(gone.statusCode, 404);
    const n = await h()
      .database.db.selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('webhook_id', '=', hook.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n.n), 0);
  });
});
