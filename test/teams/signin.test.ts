// Signing in (docs/teams.md "Signing in"), on SQLite and PostgreSQL, through the real pages
// (app.inject with a cookie jar): email and password, server-side sessions (fixation, sign-out,
// a disabled person, a removed membership, a password change), the organisation switcher, reset
// links (replay, expiry), the TOTP second factor (a wrong code, a replayed code, recovery codes
// used once), the throttles per account and per address, sign-up modes, the instance admin's
// page, CSRF on every new form, and no password or secret in the logs or the API's answers.
import assert from 'node:assert/strict';
import { before, after, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { createSignInServices, hashPersonPassword } from '../../src/services/signin/signin.service.js';
import { createAccountServices } from '../../src/services/accounts/accounts.service.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { testServicesConfig } from '../helpers/config.js';
import { CookieKit } from '../../src/pages/session.js';
import { verifyPassword } from '../../src/services/shared/secrets.js';

const SECRET_KEY = 'ab'.repeat(32);
const PASSWORDS = {
  anna: 'anna-correct-horse-1',
  bob: 'bob-battery-staple-2',
};

/** a lighter scrypt than the service's (N=2^14 instead of 2^17): these tests sign in many times */
const LIGHT = { N: 2 ** 14, r: 8, p: 1 };

async function signIn(b: Browser, email: string, password: string, next = '/dashboard') {
  // a browser signed in already takes its token from a signed-in page
  const token = await b.csrf('/login').catch(() => b.csrf('/dashboard'));
  return b.post('/login', { _csrf: token, email, password, next });
}

const codeFor = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at,
  });

describeEachDialect('signing in with a password', (dialect) => {
  let t: TestApp;
  const secrets: string[] = [];
  let ip = 0;
  const browser = () => new Browser(t.app, `10.9.${dialect.name === 'sqlite' ? 1 : 2}.${++ip}`);

  before(async () => {
    t = await buildTestApp(dialect, {
      logLevel: 'info',
      config: { secretKey: SECRET_KEY, passwordScrypt: LIGHT },
    });
    // the first person: the instance admin, made without a password (as the bootstrap is)
    await t.services.users.create('root');
    for (const name of ['anna', 'bob'] as const)
      await t.services.users.create(name, {
        email: `${name.toUpperCase()}@Example.com`.toLowerCase(),
        passwordHash: await hashPersonPassword(PASSWORDS[name], LIGHT),
      });
    await t.services.organizations.create('beta', 'bob');
    await t.services.organizations.addMember('beta', 'anna', 'viewer');
    secrets.push(...Object.values(PASSWORDS));
  });
  after(() => t?.close());

  test('email and password: a wrong one is refused; a new session id at every sign-in, a planted cookie never adopted', async () => {
    const b = browser();
    const wrong = await signIn(b, 'anna@example.com', 'not-the-password');
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, /That email and password do not match an account/);
    assert.equal(b.cookies.has('pg_session'), false);

    // an attacker plants a session id of their choosing (signed as the app signs: they know
    // the cookie format, not the secret — the test does) hoping the victim signs it in
    const kit = new CookieKit(await t.services.settings.sessionSecret(), false);
    const annaId = (await t.services.users.find('anna'))!.id;
    const chosen = 'attacker-chosen-session-id-0123456789';
    let planted = '';
    kit.startSession(
      {
        header: (_n: string, v: string) => (planted = decodeURIComponent(v.split(';')[0]!.split('=')[1]!)),
      } as never,
      annaId,
      chosen,
    );
    b.cookies.set('pg_session', { value: planted, path: '/' });
    assert.equal((await b.get('/dashboard')).statusCode, 303, 'the planted id is no session');
    const ok = await signIn(b, 'ANNA@example.com ', PASSWORDS.anna);
    assert.equal(ok.statusCode, 303);
    assert.equal(ok.headers.location, '/dashboard');
    const mine = b.cookies.get('pg_session')!.value;
    assert.notEqual(mine, planted, 'the session id changes at sign-in');
    assert.ok(!mine.includes(chosen), 'the chosen id is not adopted');
    const dash = await b.get('/dashboard');
    assert.equal(dash.statusCode, 200);
    assert.match(dash.body, /anna/);
    // the attacker's cookie is still nobody's session
    const attacker = await t.app.inject({ url: '/dashboard', headers: { cookie: `pg_session=${planted}` } });
    assert.equal(attacker.statusCode, 303);

    // a second sign-in in the same browser: another new id, the previous one ends
    await signIn(b, 'anna@example.com', PASSWORDS.anna);
    assert.notEqual(b.cookies.get('pg_session')!.value, mine);
    const previous = await t.app.inject({ url: '/dashboard', headers: { cookie: `pg_session=${mine}` } });
    assert.equal(previous.statusCode, 303);

    // a made-up (unsigned) cookie is no session and not kept
    const forged = browser();
    forged.cookies.set('pg_session', { value: 's2.2.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', path: '/' });
    assert.equal((await forged.get('/dashboard')).statusCode, 303);
  });

  test("people's passwords: scrypt with OWASP's parameters (N=2^17, r=8, p=1, 16-byte salt), stored with them", async () => {
    const stored = await hashPersonPassword('a-password-0');
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    assert.deepEqual([scheme, n, r, p], ['scrypt', '131072', '8', '1']);
    assert.equal(Buffer.from(salt!, 'base64url').length, 16);
    assert.equal(Buffer.from(hash!, 'base64url').length, 32);
    assert.equal(await verifyPassword('a-password-0', stored), true);
    assert.equal(await verifyPassword('a-password-1', stored), false);
  });

  test('sign-out ends the session on the server (the old cookie no longer works)', async () => {
    const b = browser();
    await signIn(b, 'anna@example.com', PASSWORDS.anna);
    const cookie = b.cookies.get('pg_session')!.value;
    const out = await b.post('/logout', { _csrf: await b.csrf('/dashboard') });
    assert.equal(out.statusCode, 303);
    const replay = await t.app.inject({ url: '/dashboard', headers: { cookie: `pg_session=${cookie}` } });
    assert.equal(replay.statusCode, 303);
    assert.match(String(replay.headers.location), /^\/login/);
  });

  test('the organisation switcher: the session acts in the chosen organisation with that role', async () => {
    const b = browser();
    await signIn(b, 'anna@example.com', PASSWORDS.anna);
    const dash = await b.get('/dashboard');
    assert.match(dash.body, /action="\/dashboard\/organization"/, 'the header has the switcher');
    const orgs = await t.services.signin.organizationsOf((await t.services.users.find('anna'))!.id);
    const beta = orgs.find((o) => o.name === 'beta')!;
    assert.equal(beta.role, 'viewer');
    // CSRF: no token, no switch
    assert.equal((await b.post('/dashboard/organization', { org: String(beta.id) })).statusCode, 403);
    const token = await b.csrf('/dashboard');
    const sw = await b.post('/dashboard/organization', { _csrf: token, org: String(beta.id) });
    assert.equal(sw.statusCode, 303);
    // a viewer in beta: auditing is refused by the table, naming the role
    const audit = await b.post('/dashboard/reports', { _csrf: token, url: 'http://canned.test/' });
    assert.equal(audit.statusCode, 403);
    assert.match(audit.body, /Not allowed/);
    assert.match(audit.body, /member role/);
    // not a member: 404
    const other = await b.post('/dashboard/organization', { _csrf: token, org: '999999' });
    assert.equal(other.statusCode, 404);

    // removing the membership ends the session at the next request
    await t.services.organizations.removeFrom('beta', 'anna');
    assert.equal((await b.get('/dashboard')).statusCode, 303);
    await t.services.organizations.addMember('beta', 'anna', 'viewer');
  });

  test('a disabled person: sessions and keys stop at once; enabled again, the key works', async () => {
    const b = browser();
    await signIn(b, 'bob@example.com', PASSWORDS.bob);
    assert.equal((await b.get('/dashboard')).statusCode, 200);
    const key = await t.services.keys.create('bob');
    const auth = { authorization: `Bearer ${key.key}` };
    assert.equal((await t.app.inject({ url: '/api/v1/account', headers: auth })).statusCode, 200);
    await t.services.admin.setDisabled('bob', true);
    assert.equal((await b.get('/dashboard')).statusCode, 303);
    assert.equal((await t.app.inject({ url: '/api/v1/account', headers: auth })).statusCode, 401);
    assert.equal((await signIn(browser(), 'bob@example.com', PASSWORDS.bob)).statusCode, 401);
    await t.services.admin.setDisabled('bob', false);
    assert.equal((await t.app.inject({ url: '/api/v1/account', headers: auth })).statusCode, 200);
    // the sessions ended by the disabling stay ended
    assert.equal((await b.get('/dashboard')).statusCode, 303);
  });

  test("a password change ends the person's other sessions, not this one", async () => {
    const a = browser();
    const other = browser();
    await signIn(a, 'bob@example.com', PASSWORDS.bob);
    await signIn(other, 'bob@example.com', PASSWORDS.bob);
    const token = await a.csrf('/dashboard/account');
    const wrong = await a.post('/dashboard/account/password', {
      _csrf: token,
      current: 'wrong-password',
      password: 'a-new-password-3',
    });
    assert.equal(wrong.statusCode, 422);
    assert.match(wrong.body, /The current password is not right/);
    const short = await a.post('/dashboard/account/password', {
      _csrf: token,
      current: PASSWORDS.bob,
      password: 'short',
    });
    assert.equal(short.statusCode, 422);
    assert.match(short.body, /8 to 256 characters/);
    const ok = await a.post('/dashboard/account/password', {
      _csrf: token,
      current: PASSWORDS.bob,
      password: 'bob-new-password-4',
    });
    assert.equal(ok.statusCode, 303);
    PASSWORDS.bob = 'bob-new-password-4';
    secrets.push(PASSWORDS.bob);
    assert.equal((await a.get('/dashboard')).statusCode, 200);
    assert.equal((await other.get('/dashboard')).statusCode, 303);
    assert.equal((await signIn(browser(), 'bob@example.com', PASSWORDS.bob)).statusCode, 303);
  });

  test('password reset: a single-use link; replay and expiry refused; every session ends', async () => {
    const signedIn = browser();
    await signIn(signedIn, 'anna@example.com', PASSWORDS.anna);
    const link = await t.services.signin.resetLink('Anna@Example.com');
    const token = link.url.split('/reset-password/')[1]!;
    secrets.push(token);
    assert.ok(link.url.startsWith('http://pagegrade.test:8080/reset-password/'), link.url);
    const path = `/reset-password/${token}`;
    const b = browser();
    const form = await b.get(path);
    assert.equal(form.statusCode, 200);
    // CSRF on the form
    assert.equal((await b.post(path, { password: 'whatever-123' })).statusCode, 403);
    const csrf = await b.csrf(path);
    const short = await b.post(path, { _csrf: csrf, password: 'short' });
    assert.equal(short.statusCode, 422);
    const done = await b.post(path, { _csrf: csrf, password: 'anna-reset-password-5' });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, '/login?done=reset');
    PASSWORDS.anna = 'anna-reset-password-5';
    secrets.push(PASSWORDS.anna);
    // replayed: refused, the password stays
    const replay = await b.post(path, { _csrf: csrf, password: 'attacker-password-6' });
    assert.equal(replay.statusCode, 410);
    assert.match(replay.body, /already used/);
    assert.equal((await b.get(path)).statusCode, 410);
    assert.equal((await signedIn.get('/dashboard')).statusCode, 303, 'the reset ended every session');
    assert.equal((await signIn(browser(), 'anna@example.com', PASSWORDS.anna)).statusCode, 303);

    // a link made more than an hour ago has expired
    const accounts = createAccountServices({
      db: t.database.db,
      config: testServicesConfig(),
      now: () => new Date(),
    });
    const past = createSignInServices(
      {
        db: t.database.db,
        config: testServicesConfig({ passwordScrypt: LIGHT }),
        now: () => new Date(Date.now() - 61 * 60_000),
      },
      accounts,
    );
    const old = await past.resetLink('anna@example.com');
    const oldPath = new URL(old.url).pathname;
    const gone = await b.get(oldPath);
    assert.equal(gone.statusCode, 410);
    assert.match(gone.body, /expired/);
    assert.equal(
      await t.services.signin.resetPassword(oldPath.split('/').pop()!, 'anna-late-password-7'),
      false,
    );
    // an unknown token
    assert.equal((await b.get(`/reset-password/${'x'.repeat(43)}`)).statusCode, 410);
    // the forgot-password form never says whether an account has the email (no SMTP here)
    const f = browser();
    const fc = await f.csrf('/forgot-password');
    const known = await f.post('/forgot-password', { _csrf: fc, email: 'anna@example.com' });
    const unknown = await f.post('/forgot-password', { _csrf: fc, email: 'nobody@example.com' });
    assert.equal(known.statusCode, 200);
    assert.equal(known.body.replace(/value="[^"]+"/g, ''), unknown.body.replace(/value="[^"]+"/g, ''));
    assert.match(known.body, /pagegrade users reset-link/);
  });

  test('TOTP: set up with a code, asked after the password; a wrong or replayed code is refused; recovery codes work once', async () => {
    const b = browser();
    await signIn(b, 'anna@example.com', PASSWORDS.anna);
    let csrf = await b.csrf('/dashboard/account');
    const setup = await b.post('/dashboard/account/totp', { _csrf: csrf });
    assert.equal(setup.statusCode, 200);
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(setup.body)![1]!;
    assert.match(setup.body, /otpauth:\/\/totp\/Pagegrade:anna%40example.com\?/);
    secrets.push(secret);
    const bad = await b.post('/dashboard/account/totp/confirm', {
      _csrf: csrf,
      code: '000000' === codeFor(secret) ? '111111' : '000000',
    });
    assert.equal(bad.statusCode, 422);
    // the very code the set-up used is replayed below (a code made again later may be of the next
    // 30-second step, a fresh code: on a loaded CI machine it was)
    const confirmCode = codeFor(secret);
    const confirmed = await b.post('/dashboard/account/totp/confirm', { _csrf: csrf, code: confirmCode });
    assert.equal(confirmed.statusCode, 200);
    const codes = [...confirmed.body.matchAll(/<li><code>([0-9a-f-]{19})<\/code><\/li>/g)].map((m) => m[1]!);
    assert.equal(codes.length, 10);
    secrets.push(...codes);
    csrf = await b.csrf('/dashboard');
    await b.post('/logout', { _csrf: csrf });

    // the password alone: the second step, nothing else
    const c = browser();
    const first = await signIn(c, 'anna@example.com', PASSWORDS.anna);
    assert.equal(first.statusCode, 303);
    assert.match(String(first.headers.location), /^\/login\/second-factor/);
    const pendingCookie = c.cookies.get('pg_session')!.value;
    assert.equal((await c.get('/dashboard')).statusCode, 303, 'a pending session does nothing');
    const step = await c.csrf('/login/second-factor');
    const wrong = await c.post('/login/second-factor', { _csrf: step, code: '123456', next: '/dashboard' });
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, /not right/);
    // the code used to confirm the set-up is not accepted again (replay)
    const replayed = await c.post('/login/second-factor', {
      _csrf: step,
      code: confirmCode,
      next: '/dashboard',
    });
    assert.equal(replayed.statusCode, 401);
    // a recovery code: in, with a new session id
    const rec = await c.post('/login/second-factor', {
      _csrf: step,
      code: codes[0]!.toUpperCase(),
      next: '/dashboard',
    });
    assert.equal(rec.statusCode, 303);
    assert.notEqual(c.cookies.get('pg_session')!.value, pendingCookie);
    assert.equal((await c.get('/dashboard')).statusCode, 200);
    // the same recovery code again: refused
    const d = browser();
    await signIn(d, 'anna@example.com', PASSWORDS.anna);
    const dstep = await d.csrf('/login/second-factor');
    assert.equal(
      (await d.post('/login/second-factor', { _csrf: dstep, code: codes[0]!, next: '/dashboard' }))
        .statusCode,
      401,
    );
    assert.equal(
      (await d.post('/login/second-factor', { _csrf: dstep, code: codes[1]!, next: '/dashboard' }))
        .statusCode,
      303,
    );

    // the instance admin resets it: the password alone signs in again
    await t.services.admin.resetSecondFactor('anna');
    assert.equal(
      (await signIn(browser(), 'anna@example.com', PASSWORDS.anna)).headers.location,
      '/dashboard',
    );
  });

  test('wrong codes are throttled per person', async () => {
    const secret = (await t.services.signin.totpBegin((await t.services.users.find('bob'))!.id)).secret;
    secrets.push(secret);
    await t.services.signin.totpConfirm((await t.services.users.find('bob'))!.id, codeFor(secret));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const b = browser();
      await signIn(b, 'bob@example.com', PASSWORDS.bob);
      const step = await b.csrf('/login/second-factor');
      statuses.push(
        (await b.post('/login/second-factor', { _csrf: step, code: '000001', next: '/' })).statusCode,
      );
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    await t.services.admin.resetSecondFactor('bob');
  });

  test('throttles: per account whatever the address, and per address whatever the account', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await signIn(browser(), 'root-less@example.com', 'guess-1234')).statusCode);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.equal(statuses[10], 429);
    const one = browser();
    const fromOne: number[] = [];
    for (let i = 0; i < 11; i++)
      fromOne.push((await signIn(one, `someone-${i}@example.com`, 'guess-1234')).statusCode);
    assert.equal(fromOne[10], 429);
    assert.ok(fromOne.slice(0, 10).every((s) => s === 401));
  });

  test('the bootstrap person (no password) signs in with the key and is offered to set one', async () => {
    const root = await t.services.keys.create('root');
    const b = browser();
    assert.equal((await b.login(root.key)).statusCode, 303);
    const page = await b.get('/dashboard/account');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /You have no password yet/);
    const csrf = await b.csrf('/dashboard/account');
    const bad = await b.post('/dashboard/account/password', {
      _csrf: csrf,
      email: 'not-an-email',
      password: 'root-password-8',
    });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /email must be an email address/);
    const set = await b.post('/dashboard/account/password', {
      _csrf: csrf,
      email: 'Root@Example.com',
      password: 'root-password-8',
    });
    assert.equal(set.statusCode, 303);
    secrets.push('root-password-8');
    assert.equal((await signIn(browser(), 'root@example.com', 'root-password-8')).statusCode, 303);
  });

  test('sign-up: closed by default, invite as closed, open makes a person and an organisation of their own', async () => {
    const b = browser();
    assert.equal(await t.services.signin.signupMode(), 'closed');
    const closed = await b.get('/signup');
    assert.equal(closed.statusCode, 403);
    assert.match(closed.body, /Sign-up is closed/);
    // the admin sets it on the admin page (root is the instance admin)
    const admin = browser();
    await signIn(admin, 'root@example.com', 'root-password-8');
    const csrf = await admin.csrf('/dashboard/admin');
    assert.equal((await admin.post('/dashboard/admin/signup', { mode: 'open' })).statusCode, 403, 'CSRF');
    const bad = await admin.post('/dashboard/admin/signup', { _csrf: csrf, mode: 'wide-open' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /closed, invite, open/);
    assert.equal(
      (await admin.post('/dashboard/admin/signup', { _csrf: csrf, mode: 'invite' })).statusCode,
      303,
    );
    assert.equal(
      (
        await b.post('/signup', {
          _csrf: await b.csrf('/login'),
          email: 'x@example.com',
          name: 'x',
          password: 'x-password-9',
        })
      ).statusCode,
      403,
    );
    assert.equal(
      (await admin.post('/dashboard/admin/signup', { _csrf: csrf, mode: 'open' })).statusCode,
      303,
    );
    const form = await b.csrf('/signup');
    assert.equal(
      (await b.post('/signup', { email: 'carol@example.com', name: 'carol', password: 'carol-password-10' }))
        .statusCode,
      403,
      'CSRF',
    );
    const invalid = await b.post('/signup', {
      _csrf: form,
      email: 'carol',
      name: 'carol',
      password: 'short',
    });
    assert.equal(invalid.statusCode, 422);
    assert.match(invalid.body, /email must be an email address/);
    assert.match(invalid.body, /8 to 256 characters/);
    const made = await b.post('/signup', {
      _csrf: form,
      email: 'carol@example.com',
      name: 'carol',
      password: 'carol-password-10',
    });
    assert.equal(made.statusCode, 303);
    secrets.push('carol-password-10');
    const dash = await b.get('/dashboard');
    assert.equal(dash.statusCode, 200);
    const carol = (await t.services.admin.users()).find((u) => u.name === 'carol')!;
    assert.deepEqual(carol.organizations, [{ name: 'carol', role: 'owner' }]);
    assert.equal(carol.isAdmin, false);
    const taken = await browser().post('/signup', {
      _csrf: form,
      email: 'carol@example.com',
      name: 'carol2',
      password: 'carol-password-10',
    });
    assert.ok([403, 422].includes(taken.statusCode));
    await t.services.signin.setSignupMode('closed');
  });

  test("the instance admin's page: only for the instance admin; people, organisations and usage; disabling", async () => {
    const anna = browser();
    await signIn(anna, 'anna@example.com', PASSWORDS.anna);
    const refused = await anna.get('/dashboard/admin');
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /instance admin/);
    const admin = browser();
    await signIn(admin, 'root@example.com', 'root-password-8');
    const page = await admin.get('/dashboard/admin');
    assert.equal(page.statusCode, 200);
    for (const text of ['anna@example.com', 'beta (owner)', 'Pages audited this month'])
      assert.ok(page.body.includes(text), text);
    const orgs = await t.services.admin.organizations();
    assert.deepEqual(
      orgs.map((o) => o.name),
      ['anna', 'beta', 'bob', 'carol', 'root'],
    );
    const annaId = (await t.services.users.find('anna'))!.id;
    const csrf = await admin.csrf('/dashboard/admin');
    assert.equal((await admin.post(`/dashboard/admin/users/${annaId}/disable`, {})).statusCode, 403, 'CSRF');
    assert.equal(
      (await admin.post(`/dashboard/admin/users/${annaId}/disable`, { _csrf: csrf })).statusCode,
      303,
    );
    assert.equal((await anna.get('/dashboard')).statusCode, 303);
    assert.equal(
      (await admin.post(`/dashboard/admin/users/${annaId}/enable`, { _csrf: csrf })).statusCode,
      303,
    );
  });

  test('CSRF on every new form; no password or secret in the logs or the API', async () => {
    const b = browser();
    await signIn(b, 'anna@example.com', PASSWORDS.anna);
    for (const url of [
      '/login',
      '/login/second-factor',
      '/forgot-password',
      '/signup',
      '/dashboard/account/password',
      '/dashboard/account/totp',
      '/dashboard/account/totp/confirm',
      '/dashboard/account/totp/disable',
      '/dashboard/organization',
    ]) {
      const res = await b.post(url, { _csrf: 'x'.repeat(43) });
      assert.equal(res.statusCode, 403, url);
      assert.match(res.body, /Form expired/, url);
    }
    const bob = await t.services.keys.create('bob');
    const account = await t.app.inject({
      url: '/api/v1/account',
      headers: { authorization: `Bearer ${bob.key}` },
    });
    assert.doesNotMatch(account.body, /scrypt|password|totp/i);
    const logs = t.logs.join('\n');
    assert.ok(
      logs.includes('/reset-password/[redacted]'),
      'the reset requests were logged, without their token',
    );
    for (const s of secrets) assert.ok(!logs.includes(s), `a secret is in the logs: ${s.slice(0, 4)}…`);
    assert.doesNotMatch(logs, /scrypt\$/);
  });
});
