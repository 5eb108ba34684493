// The webhook sender goes through the fetcher's address guard (PAGEGRADE_ALLOW_PRIVATE_HOSTS
// off, as in production): a URL on a loopback, private, link-local (metadata) or otherwise
// reserved address is refused at creation (422 under errors.url) and at delivery, and no
// connection is made — a listener on 127.0.0.1 counts the connections it accepts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyAddress } from '../../src/analyzer/fetch/index.js';
import { webhookDeliverKind } from '../../src/jobs/kinds/webhook-deliver.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { testLookup } from '../helpers/config.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const kind = webhookDeliverKind();

describeEachDialect('webhook address guard', (dialect) => {
  let t: TestApp;
  let rx: WebhookReceiver;
  let user: TestUser;
  // the classification the sender sees: the real guard, or (to stand for a host whose DNS
  // answer changes after creation) one that calls `rebound.test`'s loopback address public
  let rebinding = false;

  before(async () => {
    rx = await startWebhookReceiver();
    t = await buildTestApp(dialect, {
      config: { allowPrivateHosts: false },
      webhookGuard: {
        lookup: testLookup,
        classifyAddress: (ip) => (rebinding ? null : classifyAddress(ip)),
      },
    });
    user = await buildUser(t.services);
  });
  after(async () => {
    await rx.close();
    await t.close();
  });

  const create = (url: string) =>
    t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url, events: ['report.created'] }),
    });

  test('refused at creation: loopback, private, metadata, and names that resolve to them; no connection', async () => {
    const cases: [string, RegExp][] = [
      [
        `${rx.origin}/hook`,
        /The address 127\.0\.0\.1 is a loopback address; Pagegrade does not fetch private or reserved addresses\./,
      ],
      [`http://localhost:${rx.port}/hook`, /The host localhost resolves to 127\.0\.0\.1, a loopback address/],
      [
        `http://hooks.test:${rx.port}/hook`,
        /The host hooks\.test resolves to 127\.0\.0\.1, a loopback address/,
      ],
      [`http://[::1]:${rx.port}/hook`, /The address ::1 is a loopback address/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
      ['http://10.0.0.5/hook', /10\.0\.0\.5 is a private address/],
      ['http://192.168.1.10/hook', /a private address/],
      ['http://[fd00::1]/hook', /a private \(unique local\) address/],
      ['http://0x7f.1/hook', /127\.0\.0\.1 is a loopback address/],
    ];
    for (const [url, reason] of cases) {
      const res = await create(url);
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      const errors = (res.json() as { errors: { url: string[] } }).errors;
      assert.deepEqual(Object.keys(errors), ['url']);
      assert.match(errors.url[0]!, reason, url);
    }
    // so is a change of URL
    rebinding = true;
    const ok = await create(`http://rebound.test:${rx.port}/hook`);
    rebinding = false;
    assert.equal(ok.statusCode, 201);
    const id = (ok.json() as { data: { id: number } }).data.id;
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${id}`,
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `${rx.origin}/other` }),
    });
    assert.equal(patched.statusCode, 422);
    assert.match((patched.json() as { errors: { url: string[] } }).errors.url[0]!, /loopback/);
    await t.services.webhooks.delete(user.id, id);
    assert.equal(rx.connections, 0, 'no connection was made');
    assert.equal(rx.received.length, 0);
  });

  test('refused at delivery (the guard runs on every attempt), with no connection: the delivery fails at once', async () => {
    // created while the name resolved to an address the guard let through …
    rebinding = true;
    const { webhook } = await t.services.webhooks.create(user.id, {
      url: `http://rebound.test:${rx.port}/hook`,
      events: ['report.created'],
    });
    rebinding = false;
    // … delivered after it points at loopback
    await buildReport(t.services, user, { path: '/guarded' });
    const page = await t.services.webhooks.deliveries(user.id, webhook.id, { page: 1, perPage: 10 });
    const d = page.items[0]!;
    await kind.handle(
      {
        id: 'j',
        kind: kind.kind,
        payload: { deliveryId: d.id },
        attempt: 1,
        maxAttempts: 13,
        signal: new AbortController().signal,
      },
      { services: t.services },
    );
    const log = await t.services.webhooks.delivery(user.id, webhook.id, d.id);
    assert.equal(log.status, 'failed', 'a refused address is not retried');
    assert.equal(log.attempts, 1);
    assert.equal(log.responseStatus, null);
    assert.equal(
      log.error,
      'The host rebound.test resolves to 127.0.0.1, a loopback address; Pagegrade does not fetch private or reserved addresses. For intranet use, set PAGEGRADE_ALLOW_PRIVATE_HOSTS=1 where Pagegrade runs.',
    );
    assert.equal(rx.connections, 0, 'no connection was made');
    const w = await t.services.webhooks.get(user.id, webhook.id);
    assert.equal(w.consecutiveFailures, 1);
  });

  test('the same guard allows the receiver with PAGEGRADE_ALLOW_PRIVATE_HOSTS=1 (the control)', async () => {
    const open = await buildTestApp(dialect, { config: { allowPrivateHosts: true } });
    try {
      const u = await buildUser(open.services);
      const { webhook, secret } = await open.services.webhooks.create(u.id, {
        url: `${rx.origin}/allowed`,
        events: ['report.created'],
      });
      rx.secret = secret;
      await buildReport(open.services, u, { path: '/allowed' });
      const d = (await open.services.webhooks.deliveries(u.id, webhook.id, { page: 1, perPage: 10 }))
        .items[0]!;
      await kind.handle(
        {
          id: 'j',
          kind: kind.kind,
          payload: { deliveryId: d.id },
          attempt: 1,
          maxAttempts: 13,
          signal: new AbortController().signal,
        },
        { services: open.services },
      );
      assert.equal(rx.connections, 1);
      assert.equal(rx.received.length, 1);
      assert.equal(rx.received[0]!.verified, true);
    } finally {
      await open.close();
    }
  });
});
