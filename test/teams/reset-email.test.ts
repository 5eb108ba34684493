// Password reset links by email (docs/teams.md "Password reset"): with PAGEGRADE_SMTP_URL set,
// "Forgot password" sends the link through a real SMTP server on loopback (smtp-server); the
// link sets the password once. The page says the same for an unknown address (nothing sent).
import assert from 'node:assert/strict';
import { before, after, test } from 'node:test';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp.js';
import { hashPersonPassword } from '../../src/services/signin/signin.service.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';

const LIGHT = { N: 2 ** 14, r: 8, p: 1 };

describeEachDialect('reset links by email (SMTP on loopback)', (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver;

  before(async () => {
    smtp = await startSmtpReceiver();
    t = await buildTestApp(dialect, {
      logLevel: 'info',
      config: {
        smtpUrl: smtp.url,
        smtpFrom: 'Pagegrade <noreply@pagegrade.test>',
        passwordScrypt: LIGHT,
      },
    });
    await t.services.users.create('dana', {
      email: 'dana@example.com',
      passwordHash: await hashPersonPassword('dana-old-password', LIGHT),
    });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  test('the link arrives by email, works once, and is never logged', async () => {
    const b = new Browser(t.app, '10.8.0.1');
    const form = await b.get('/forgot-password');
    assert.match(form.body, /we send a link/);
    const csrf = await b.csrf('/forgot-password');
    const sent = await b.post('/forgot-password', { _csrf: csrf, email: 'Dana@Example.com' });
    assert.equal(sent.statusCode, 200);
    const none = await b.post('/forgot-password', { _csrf: csrf, email: 'nobody@example.com' });
    assert.equal(sent.body.replace(/value="[^"]+"/g, ''), none.body.replace(/value="[^"]+"/g, ''));
    assert.equal(smtp.mails.length, 1, 'one email: none for an unknown address');
    assert.deepEqual(smtp.mails[0]!.to, ['dana@example.com']);
    const text = smtp.mails[0]!.data.replace(/=\r?\n/g, '');
    const link = /http:\/\/pagegrade\.test:8080\/reset-password\/([\w-]{43})/.exec(text);
    assert.ok(link, text);
    const path = `/reset-password/${link[1]!}`;
    const c = new Browser(t.app, '10.8.0.2');
    const token = await c.csrf(path);
    assert.equal((await c.post(path, { _csrf: token, password: 'dana-new-password' })).statusCode, 303);
    assert.equal((await c.post(path, { _csrf: token, password: 'dana-third-password' })).statusCode, 410);
    const login = await c.csrf('/login');
    const signed = await c.post('/login', {
      _csrf: login,
      email: 'dana@example.com',
      password: 'dana-new-password',
    });
    assert.equal(signed.statusCode, 303);
    const logs = t.logs.join('\n');
    assert.ok(!logs.includes(link[1]!), 'the token is not in the logs');
    assert.ok(!logs.includes('dana-new-password'));
  });
});
