// The dashboard's webhooks page: add a webhook (the secret shown once), the form's 422s, send a
// test, disable and enable, delete; a webhook disabled after failed deliveries says why; another
// user's webhook is a 404 — on SQLite and PostgreSQL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { webhookDeliverKind } from '../../src/jobs/kinds/webhook-deliver.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

describeEachDialect('webhooks page', (dialect) => {
  let t: TestApp;
  let rx: WebhookReceiver;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent', config: { webhookDisableAfter: 1 } });
    rx = await startWebhookReceiver(() => ({ status: 500, body: 'nope' }));
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
  });
  after(async () => {
    await rx.close();
    await t.close();
  });

  test('anonymous visitors are sent to sign in', async () => {
    const res = await t.app.inject({ url: '/dashboard/webhooks' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/login?next=${encodeURIComponent('/dashboard/webhooks')}`);
  });

  test('add (secret once), test, disable with its reason shown, enable, delete', async () => {
    const b = new Browser(t.app);
    await b.login(alice.key);
    let page = await b.get('/dashboard/webhooks');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /No webhooks yet/);
    assert.match(page.body, /<a href="\/dashboard\/webhooks">Webhooks<\/a>/);
    const token = await b.csrf('/dashboard/webhooks');

    // the form's errors name the field and what it allows
    let res = await b.post('/dashboard/webhooks', { _csrf: token, url: `${rx.origin}/hook` });
    assert.equal(res.statusCode, 422);
    assert.ok(res.body.includes('id="webhook-events-error">Choose at least one event to send.'), res.body);
    res = await b.request({
      method: 'POST',
      url: '/dashboard/webhooks',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${token}&url=${encodeURIComponent('http://nowhere.invalid/')}&events=report.created`,
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="webhook-url-error">The host nowhere\.invalid could not be resolved/);
    assert.match(res.body, /value="http:\/\/nowhere\.invalid\/"/, 'the form is refilled');
    // a text field with a URL keyboard: a bare address gets the server's suggestion (issue 23 §5)
    res = await b.post('/dashboard/webhooks', {
      _csrf: token,
      url: 'hooks.example.com/in',
      events: 'report.created',
    });
    assert.equal(res.statusCode, 422);
    assert.ok(res.body.includes('— did you mean https://hooks.example.com/in?'), res.body);
    assert.match(res.body, /<input id="webhook-url" name="url" type="text" inputmode="url"/);
    assert.doesNotMatch(res.body, /type="url"/);

    res = await b.request({
      method: 'POST',
      url: '/dashboard/webhooks',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${token}&url=${encodeURIComponent(`${rx.origin}/hook`)}&events=report.created&events=report.failed&description=Alerts`,
    });
    assert.equal(res.statusCode, 201, res.body);
    const secret = /id="webhook-secret">(whsec_[^<]+)</.exec(res.body)?.[1];
    assert.ok(secret, 'the secret is shown');
    assert.match(res.body, /report\.created, report\.failed/);
    assert.match(res.body, /Enabled/);
    page = await b.get('/dashboard/webhooks');
    assert.ok(!page.body.includes(secret), 'and never again');
    const [hook] = (await t.services.webhooks.list(alice.id, { page: 1, perPage: 10 })).items;

    res = await b.post(`/dashboard/webhooks/${hook!.id}/test`, { _csrf: token });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/webhooks?done=tested');
    page = await b.get('/dashboard/webhooks?done=tested');
    assert.match(page.body, /A test delivery was queued/);
    assert.match(page.body, /<code>webhook\.test<\/code>/);

    // deliveries that fail for good disable it (PAGEGRADE_WEBHOOK_DISABLE_AFTER=1 here)
    await buildReport(t.services, alice, { path: '/failing' });
    const ds = await t.services.webhooks.deliveries(alice.id, hook!.id, {
      status: 'pending',
      page: 1,
      perPage: 10,
    });
    const kind = webhookDeliverKind();
    const d = ds.items.find((x) => x.event === 'report.created')!;
    await kind.handle(
      {
        id: 'j',
        kind: kind.kind,
        payload: { deliveryId: d.id },
        attempt: 1,
        maxAttempts: 1,
        signal: new AbortController().signal,
      },
      { services: t.services },
    );
    page = await b.get('/dashboard/webhooks');
    assert.match(
      page.body,
      /Disabled on [^<]+? UTC: Disabled after 1 delivery in a row failed; the last: The endpoint answered 500: nope/,
    );
    assert.match(page.body, /Enable<span class="visually-hidden"> webhook/);

    res = await b.post(`/dashboard/webhooks/${hook!.id}/enable`, { _csrf: token });
    assert.equal(res.headers.location, '/dashboard/webhooks?done=enabled');
    assert.equal((await t.services.webhooks.get(alice.id, hook!.id)).enabled, true);
    res = await b.post(`/dashboard/webhooks/${hook!.id}/disable`, { _csrf: token });
    assert.equal(res.headers.location, '/dashboard/webhooks?done=disabled');
    page = await b.get('/dashboard/webhooks');
    assert.match(page.body, /Disabled on [^<]+? UTC: Disabled by its owner\./);

    // another user's webhook is a 404, as a missing one
    const bb = new Browser(t.app);
    await bb.login(bob.key);
    const bobToken = await bb.csrf('/dashboard/webhooks');
    for (const path of ['test', 'enable', 'delete']) {
      res = await bb.post(`/dashboard/webhooks/${hook!.id}/${path}`, { _csrf: bobToken });
      assert.equal(res.statusCode, 404, path);
    }
    res = await b.post('/dashboard/webhooks/999999/delete', { _csrf: token });
    assert.equal(res.statusCode, 404);

    res = await b.post(`/dashboard/webhooks/${hook!.id}/delete`, { _csrf: token });
    assert.equal(res.headers.location, '/dashboard/webhooks?done=deleted');
    page = await b.get('/dashboard/webhooks?done=deleted');
    assert.match(page.body, /The webhook was deleted/);
    assert.match(page.body, /No webhooks yet/);
  });
});
