// Sending: each attempt of the webhook.deliver job kind (its real handler, over the real
// services and database) POSTs to a receiver on 127.0.0.1 that verifies the signature with the
// standardwebhooks verifier. Retries keep the webhook-id; the last failed attempt fails the
// delivery for good; N such failures in a row disable the webhook, which says so. Redirects are
// not followed; an attempt stops at the timeout. Report changes emit their events.
// (Private hosts are allowed here: the receiver is on loopback. The guard has its own file.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { webhookDeliverKind } from '../../src/jobs/kinds/webhook-deliver.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';
import { html } from '../helpers/fixture-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const kind = webhookDeliverKind();

describeEachDialect('webhook deliveries', (dialect) => {
  let t: TestApp;
  let rx: WebhookReceiver;
  let user: TestUser;

  before(async () => {
    t = await buildTestApp(dialect, { config: { webhookDisableAfter: 2, webhookTimeoutMs: 500 } });
    rx = await startWebhookReceiver();
    user = await buildUser(t.services);
  });
  after(async () => {
    await rx.close();
    await t.close();
  });

  /** One attempt of the job, as the engine runs it; returns the error it threw (a retry), if any. */
  async function attempt(deliveryId: number, n: number, of = 3): Promise<Error | null> {
    try {
      await kind.handle(
        {
          id: `job-${deliveryId}`,
          kind: kind.kind,
          payload: { deliveryId },
          attempt: n,
          maxAttempts: of,
          signal: new AbortController().signal,
        },
        { services: t.services },
      );
      return null;
    } catch (err) {
      return err as Error;
    }
  }

  async function newHook(path: string, events = ['report.created'] as const) {
    const { webhook, secret } = await t.services.webhooks.create(user.id, {
      url: `${rx.origin}${path}`,
      events: [...events],
    });
    rx.secret = secret;
    return webhook;
  }

  async function onlyDelivery(webhookId: number) {
    const page = await t.services.webhooks.deliveries(user.id, webhookId, { page: 1, perPage: 100 });
    assert.equal(page.total, 1);
    return page.items[0]!;
  }

  test('a delivery is signed (Standard Webhooks): the verifier accepts it, a tampered body fails', async () => {
    rx.respond = () => ({ status: 204 });
    const hook = await newHook('/signed');
    const report = await buildReport(t.services, user, { path: '/signed' });
    const d = await onlyDelivery(hook.id);
    const before = rx.received.length;
    assert.equal(await attempt(d.id, 1), null);
    const got = rx.received[before]!;
    assert.equal(got.path, '/signed');
    assert.equal(got.method, 'POST');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['webhook-id'], d.messageId);
    assert.match(got.headers['webhook-timestamp']!, /^\d{10}$/);
    assert.match(got.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]+=*$/);
    assert.equal(got.verified, true, got.verifyError);
    const body = JSON.parse(got.body) as {
      type: string;
      timestamp: string;
      data: { report: { id: number; score: number } };
    };
    assert.equal(body.type, 'report.created');
    assert.equal(body.data.report.id, report.id);
    assert.equal(body.data.report.score, report.score);

    const verifier = new Webhook(rx.secret!);
    assert.throws(
      () => verifier.verify(got.body.replace(`"score":${report.score}`, '"score":100'), got.headers),
      {
        message: /No matching signature found/,
      },
    );
    assert.throws(
      () => verifier.verify(got.body, { ...got.headers, 'webhook-id': 'msg_other' }),
      /signature/,
    );
    const wrong = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    assert.throws(() => wrong.verify(got.body, got.headers), /signature/);

    const after = await onlyDelivery(hook.id);
    assert.equal(after.status, 'delivered');
    assert.equal(after.attempts, 1);
    assert.equal(after.responseStatus, 204);
    assert.ok(after.durationMs !== null && after.durationMs >= 0);
    assert.ok(after.deliveredAt);
    // run again (at least once: a job may run twice): delivered stays delivered, nothing is sent
    assert.equal(await attempt(d.id, 2), null);
    assert.equal(rx.received.length, before + 1);
    await t.services.webhooks.update(user.id, hook.id, { enabled: false });
  });

  test('retries keep the webhook-id; the attempt that gets a 2xx delivers', async () => {
    let n = 0;
    rx.respond = () => (++n <= 2 ? { status: 500, body: 'database down' } : { status: 200 });
    const hook = await newHook('/retry');
    await buildReport(t.services, user, { path: '/retry' });
    const d = await onlyDelivery(hook.id);
    const before = rx.received.length;
    const e1 = await attempt(d.id, 1);
    assert.match(e1!.message, /The endpoint answered 500: database down/);
    let log = await onlyDelivery(hook.id);
    assert.equal(log.status, 'pending');
    assert.equal(log.attempts, 1);
    assert.equal(log.responseStatus, 500);
    assert.equal(log.error, 'The endpoint answered 500: database down');
    assert.ok(await attempt(d.id, 2));
    assert.equal(await attempt(d.id, 3), null);
    log = await onlyDelivery(hook.id);
    assert.equal(log.status, 'delivered');
    assert.equal(log.attempts, 3);
    assert.equal(log.responseStatus, 200);
    const got = rx.received.slice(before);
    assert.equal(got.length, 3);
    assert.deepEqual(new Set(got.map((g) => g.headers['webhook-id'])), new Set([d.messageId]));
    assert.ok(got.every((g) => g.verified === true));
    assert.equal((await t.services.webhooks.get(user.id, hook.id)).consecutiveFailures, 0);
    await t.services.webhooks.update(user.id, hook.id, { enabled: false });
  });

  test('N deliveries failed for good in a row disable the webhook, which says so; a success resets the count', async () => {
    rx.respond = () => ({ status: 503 });
    const hook = await newHook('/down');
    const fail = async (path: string) => {
      await buildReport(t.services, user, { path });
      const page = await t.services.webhooks.deliveries(user.id, hook.id, {
        status: 'pending',
        page: 1,
        perPage: 10,
      });
      const d = page.items[0]!;
      assert.ok(await attempt(d.id, 1, 2), 'the first attempt is retried');
      assert.equal(await attempt(d.id, 2, 2), null, 'the last attempt ends the job');
      return d.id;
    };
    const first = await fail('/down-1');
    let w = await t.services.webhooks.get(user.id, hook.id);
    assert.equal(w.consecutiveFailures, 1);
    assert.equal(w.enabled, true);
    const log = await t.services.webhooks.delivery(user.id, hook.id, first);
    assert.equal(log.status, 'failed');
    assert.equal(log.attempts, 2);

    // a delivery that arrives ends the run of failures
    rx.respond = () => ({ status: 200 });
    await buildReport(t.services, user, { path: '/up' });
    const up = (
      await t.services.webhooks.deliveries(user.id, hook.id, { status: 'pending', page: 1, perPage: 10 })
    ).items[0]!;
    assert.equal(await attempt(up.id, 1), null);
    assert.equal((await t.services.webhooks.get(user.id, hook.id)).consecutiveFailures, 0);

    rx.respond = () => ({ status: 503 });
    await buildReport(t.services, user, { path: '/queued' }); // pending while the others fail
    const queued = (
      await t.services.webhooks.deliveries(user.id, hook.id, { status: 'pending', page: 1, perPage: 10 })
    ).items[0]!;
    await fail('/down-2');
    await fail('/down-3');
    w = await t.services.webhooks.get(user.id, hook.id);
    assert.equal(w.enabled, false);
    assert.equal(w.consecutiveFailures, 2);
    assert.equal(
      w.disabledReason,
      'Disabled after 2 deliveries in a row failed; the last: The endpoint answered 503.',
    );
    // the API says so
    const res = await t.request({ url: `/api/v1/webhooks/${hook.id}`, headers: user.auth });
    const json = (res.json() as { data: { enabled: boolean; disabled_reason: string; disabled_at: string } })
      .data;
    assert.equal(json.enabled, false);
    assert.match(json.disabled_reason, /^Disabled after 2 deliveries in a row failed/);
    assert.ok(json.disabled_at);

    // a delivery still queued is not sent to a disabled webhook, and no new ones are recorded
    const before = rx.received.length;
    assert.equal(await attempt(queued.id, 1), null);
    assert.equal(rx.received.length, before);
    const q = await t.services.webhooks.delivery(user.id, hook.id, queued.id);
    assert.equal(q.status, 'failed');
    assert.equal(q.error, 'Not sent: the webhook is disabled.');
    const total = (await t.services.webhooks.deliveries(user.id, hook.id, { page: 1, perPage: 100 })).total;
    await buildReport(t.services, user, { path: '/ignored' });
    assert.equal(
      (await t.services.webhooks.deliveries(user.id, hook.id, { page: 1, perPage: 100 })).total,
      total,
    );
  });

  test('redirects are not followed: a 3xx is a failed attempt that names it', async () => {
    rx.respond = (req) =>
      req.path === '/moved'
        ? { status: 302, headers: { location: `${rx.origin}/new-home` } }
        : { status: 200 };
    const hook = await newHook('/moved');
    await buildReport(t.services, user, { path: '/moved' });
    const d = await onlyDelivery(hook.id);
    const err = await attempt(d.id, 1);
    assert.equal(
      err?.message,
      `The endpoint answered 302, a redirect to ${rx.origin}/new-home; redirects are not followed.`,
    );
    assert.equal(rx.received.filter((r) => r.path === '/new-home').length, 0);
    await t.services.webhooks.update(user.id, hook.id, { enabled: false });
  });

  test('an attempt stops at the timeout (PAGEGRADE_WEBHOOK_TIMEOUT_MS)', async () => {
    rx.respond = () => 'hang';
    const hook = await newHook('/slow');
    await buildReport(t.services, user, { path: '/slow' });
    const d = await onlyDelivery(hook.id);
    const t0 = Date.now();
    const err = await attempt(d.id, 1);
    const took = Date.now() - t0;
    assert.match(err!.message, /did not answer within 0\.5 seconds/);
    assert.ok(took >= 450 && took < 3000, `took ${took} ms`);
    const log = await onlyDelivery(hook.id);
    assert.equal(log.responseStatus, null);
    assert.equal(log.status, 'pending');
    await t.services.webhooks.update(user.id, hook.id, { enabled: false });
  });

  test('report events: a re-audit emits report.completed; one that cannot fetch the page, report.failed', async () => {
    rx.respond = () => ({ status: 200 });
    const hook = await newHook('/events', ['report.completed', 'report.failed'] as never);
    t.fixture.route('/flaky', html('<!doctype html><html lang="en"><title>Flaky</title><p>up</p></html>'));
    const report = await t.services.reports.create(user.id, { url: `${t.site('events')}/flaky` });
    assert.equal((await t.services.webhooks.deliveries(user.id, hook.id, { page: 1, perPage: 10 })).total, 0);

    const res = await t.request({
      method: 'PATCH',
      url: `/api/v1/reports/${report.id}`,
      headers: { ...user.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'results=1',
    });
    assert.equal(res.statusCode, 200);
    t.fixture.route('/flaky', { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' });
    const failed = await t.request({
      method: 'PATCH',
      url: `/api/v1/reports/${report.id}`,
      headers: { ...user.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'results=1',
    });
    assert.equal(failed.statusCode, 422);
    const reason = (failed.json() as { errors: { url: string[] } }).errors.url[0]!;

    const log = await t.services.webhooks.deliveries(user.id, hook.id, { page: 1, perPage: 10 });
    assert.deepEqual(
      log.items.map((d) => d.event),
      ['report.failed', 'report.completed'],
    );
    const before = rx.received.length;
    for (const d of [...log.items].reverse()) assert.equal(await attempt(d.id, 1), null);
    const [completed, fail] = rx.received.slice(before).map((r) => {
      assert.equal(r.verified, true);
      return JSON.parse(r.body) as {
        type: string;
        data: { report: { id: number; generated_at: string }; reason?: string };
      };
    });
    assert.equal(completed!.type, 'report.completed');
    assert.equal(completed!.data.report.id, report.id);
    assert.equal(fail!.type, 'report.failed');
    assert.equal(fail!.data.reason, reason);
    assert.match(reason, /not an HTML page/);
    assert.equal(
      fail!.data.report.generated_at,
      completed!.data.report.generated_at,
      'the report as it stands',
    );
  });
});
