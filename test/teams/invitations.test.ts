// Invitations (issue 22 §3; docs/teams.md "Invitations"), on SQLite and PostgreSQL, with a real
// SMTP server on loopback (smtp-server): admins and owners invite by email and role through the
// API or the members page; the link arrives by email and in the 201 answer only; accepting makes
// the person (or adds the membership of the person who has the email) and signs in; an
// accepted, revoked or expired link is a 410 that changes nothing; another organisation's
// invitation is a 404; the token is never in the logs, the audit log or the list.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp.js';
import { hashPersonPassword } from '../../src/services/signin/signin.service.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

const LIGHT = { N: 2 ** 14, r: 8, p: 1 };

describeEachDialect('invitations', (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let owner: TestUser;
  let other: TestUser;
  const keys = {} as Record<'admin' | 'member', string>;
  const tokens: string[] = [];

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
    owner = await buildUser(t.services, 'inv-acme');
    other = await buildUser(t.services, 'inv-other');
    for (const role of ['admin', 'member'] as const) {
      const { user } = await t.services.users.create(`inv-${role}`);
      await t.services.organizations.addMember('inv-acme', user.name, role);
      keys[role] = (await t.services.keys.create(user.name, { org: 'inv-acme' })).key;
    }
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  const api = (key: string, method: string, url: string, body?: unknown) =>
    t.request({
      method: method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const LIST = '/api/v1/organization/invitations';

  async function invite(key: string, body: Record<string, unknown>) {
    const res = await api(key, 'POST', LIST, body);
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data as { id: number; url: string; email_sent: boolean; state: string };
    const m = /^http:\/\/pagegrade\.test:8080\/invite\/([A-Za-z0-9_-]{43})$/.exec(data.url);
    assert.ok(m, data.url);
    tokens.push(m[1]!);
    return { ...data, path: `/invite/${m[1]!}`, token: m[1]! };
  }
  const membersOf = async (org: string) =>
    (await t.services.organizations.membersOf(org)).map((m) => [m.name, m.role, m.projects]);

  test('roles: a member is refused; an admin invites, lists and revokes; an owner is invited by an owner only', async () => {
    for (const [method, url] of [
      ['GET', LIST],
      ['POST', LIST],
      ['DELETE', `${LIST}/1`],
    ] as const) {
      const res = await api(
        keys.member,
        method,
        url,
        method === 'POST' ? { email: 'x@example.com', role: 'member' } : undefined,
      );
      assert.equal(res.statusCode, 403, `${method} ${url}`);
      assert.match(res.json().message as string, /admin role/);
    }
    const made = await invite(keys.admin, { email: 'Colleague@Example.com', role: 'member' });
    assert.equal(made.state, 'pending');
    assert.equal(made.email_sent, true);
    const refused = await api(keys.admin, 'POST', LIST, { email: 'boss@example.com', role: 'owner' });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.json().message as string, /owner role/);
    await invite(owner.key, { email: 'boss@example.com', role: 'owner' });
    // bad input: 422 naming the field
    const badRole = await api(keys.admin, 'POST', LIST, { email: 'a@example.com', role: 'king' });
    assert.equal(badRole.statusCode, 422);
    assert.ok(badRole.json().errors.role, badRole.body);
    const badEmail = await api(keys.admin, 'POST', LIST, { email: 'not-an-email', role: 'member' });
    assert.equal(badEmail.statusCode, 422);
    assert.ok(badEmail.json().errors.email, badEmail.body);
    const projects = await api(keys.admin, 'POST', LIST, {
      email: 'a@example.com',
      role: 'member',
      projects: ['example.com'],
    });
    assert.equal(projects.statusCode, 422);
    assert.match(projects.json().errors.projects[0] as string, /Only a viewer/);
    // an existing member
    await t.services.users.create('inv-known', { email: 'known@example.com' });
    await t.services.organizations.addMember('inv-acme', 'inv-known', 'viewer');
    const member = await api(keys.admin, 'POST', LIST, { email: 'KNOWN@example.com', role: 'member' });
    assert.equal(member.statusCode, 422);
    assert.match(member.json().errors.email[0] as string, /already a member/);

    // a second invitation for the same email replaces the first
    const again = await invite(keys.admin, { email: 'colleague@example.com', role: 'admin' });
    const list = await api(keys.admin, 'GET', `${LIST}?per_page=10`);
    assert.equal(list.statusCode, 200, list.body);
    const body = list.json() as {
      data: { id: number; email: string; state: string }[];
      meta: { total: number };
    };
    assert.equal(body.meta.total, 3);
    assert.deepEqual(
      body.data.map((i) => [i.id, i.email, i.state]),
      [
        [again.id, 'colleague@example.com', 'pending'],
        [made.id + 1, 'boss@example.com', 'pending'],
        [made.id, 'colleague@example.com', 'revoked'],
      ],
    );
    const firstLink = await t.request({ method: 'GET', url: made.path });
    assert.equal(firstLink.statusCode, 410, 'the replaced link no longer works');

    // revoke: the link is 410; revoking again is 422; another organisation's id is 404
    assert.equal((await api(other.key, 'DELETE', `${LIST}/${again.id}`)).statusCode, 404);
    assert.equal((await api(other.key, 'GET', LIST)).json().meta.total, 0);
    assert.equal((await api(keys.admin, 'DELETE', `${LIST}/${again.id}`)).statusCode, 204);
    assert.equal((await api(keys.admin, 'DELETE', `${LIST}/${again.id}`)).statusCode, 422);
    assert.equal((await api(keys.admin, 'DELETE', `${LIST}/999999`)).statusCode, 404);
    const gone = await t.request({ method: 'GET', url: again.path });
    assert.equal(gone.statusCode, 410);
    assert.match(gone.body, /withdrawn/);
  });

  test('the link arrives by email; accepting as a new person makes the account, a session and the limited viewer', async () => {
    const before = smtp.mails.length;
    const made = await invite(keys.admin, {
      email: 'client@example.com',
      role: 'viewer',
      projects: ['Client.example'],
    });
    assert.equal(smtp.mails.length, before + 1);
    const mail = smtp.mails.at(-1)!;
    assert.deepEqual(mail.to, ['client@example.com']);
    const text = mail.data.replace(/=\r?\n/g, '');
    assert.ok(text.includes(`/invite/${made.token}`), 'the link is in the email');
    assert.match(text, /inv-acme/);

    const b = new Browser(t.app, '10.9.0.1');
    // a planted session id is never adopted
    b.cookies.set('pg_session', { value: 'planted', path: '/' });
    const page = await b.get(made.path);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /class="invite-org">inv-acme</);
    assert.match(page.body, /data-role="viewer"/);
    assert.match(page.body, /client\.example/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    // CSRF: a form without the token is refused, nothing made
    const forged = await b.post(made.path, { name: 'client', password: 'client-password-1' });
    assert.equal(forged.statusCode, 403);
    assert.equal(await t.services.users.find('client'), null);
    // a bad password: 422 naming it, nothing made
    const short = await b.post(made.path, { _csrf: csrf, name: 'client', password: 'short' });
    assert.equal(short.statusCode, 422);
    assert.match(short.body, /8 to 256 characters/);
    assert.equal(await t.services.users.find('client'), null);
    const ok = await b.post(made.path, { _csrf: csrf, name: 'client', password: 'client-password-1' });
    assert.equal(ok.statusCode, 303, ok.body);
    assert.equal(ok.headers.location, '/dashboard');
    assert.notEqual(b.cookies.get('pg_session')?.value, 'planted');
    const dash = await b.get('/dashboard');
    assert.equal(dash.statusCode, 200);
    assert.deepEqual(
      (await membersOf('inv-acme')).find(([name]) => name === 'client'),
      ['client', 'viewer', ['client.example']],
    );
    // the viewer's project limit applies: pages spanning every project are refused
    assert.equal((await b.get('/dashboard/batches')).statusCode, 403);
    // signing in with the new password works
    const c = new Browser(t.app, '10.9.0.2');
    const login = await c.post('/login', {
      _csrf: await c.csrf('/login'),
      email: 'client@example.com',
      password: 'client-password-1',
    });
    assert.equal(login.statusCode, 303);

    // reused: 410, nothing changed
    const count = (await t.services.users.list()).length;
    const reused = new Browser(t.app, '10.9.0.3');
    assert.equal((await reused.get(made.path)).statusCode, 410);
    const replay = await reused.post(made.path, {
      _csrf: await reused.csrf('/login'),
      name: 'client2',
      password: 'client-password-2',
    });
    assert.equal(replay.statusCode, 410);
    assert.match(replay.body, /already used/);
    assert.equal((await t.services.users.list()).length, count);
    const listed = (await api(keys.admin, 'GET', LIST)).json().data as { id: number; state: string }[];
    assert.equal(listed.find((i) => i.id === made.id)?.state, 'accepted');
  });

  test('an existing person signs in, then accepts: the membership is added and the session switches', async () => {
    await t.services.users.create('inv-dana', {
      email: 'dana@example.com',
      passwordHash: await hashPersonPassword('dana-password-1', LIGHT),
    });
    const made = await invite(keys.admin, {
      email: 'dana@example.com',
      role: 'viewer',
      projects: ['dana.example'],
    });
    const b = new Browser(t.app, '10.9.1.1');
    const page = await b.get(made.path);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Sign in to accept/);
    assert.doesNotMatch(page.body, /name="password"/);
    // a POST as a new person is refused: the email has an account
    const asNew = await b.post(made.path, {
      _csrf: await b.csrf('/login'),
      name: 'dana-two',
      password: 'dana-password-2',
    });
    assert.equal(asNew.statusCode, 403);
    const signed = await b.post('/login', {
      _csrf: await b.csrf('/login'),
      email: 'dana@example.com',
      password: 'dana-password-1',
      next: made.path,
    });
    assert.equal(signed.statusCode, 303);
    assert.equal(signed.headers.location, made.path);
    // her own organisation: she is its owner (batches allowed)
    assert.equal((await b.get('/dashboard/batches')).statusCode, 200);
    const accept = await b.get(made.path);
    assert.match(accept.body, /Accept and join inv-acme/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(accept.body)![1]!;
    const joined = await b.post(made.path, { _csrf: csrf, action: 'join' });
    assert.equal(joined.statusCode, 303, joined.body);
    assert.deepEqual(
      (await membersOf('inv-acme')).find(([name]) => name === 'inv-dana'),
      ['inv-dana', 'viewer', ['dana.example']],
    );
    // the session now acts in inv-acme as a limited viewer
    assert.equal((await b.get('/dashboard/batches')).statusCode, 403);
    assert.equal((await b.get(made.path)).statusCode, 410);
  });

  test('someone else signed in cannot accept a person’s invitation', async () => {
    await t.services.users.create('inv-eve', {
      email: 'eve@example.com',
      passwordHash: await hashPersonPassword('eve-password-1', LIGHT),
    });
    await t.services.users.create('inv-fred', {
      email: 'fred@example.com',
      passwordHash: await hashPersonPassword('fred-password-1', LIGHT),
    });
    const made = await invite(keys.admin, { email: 'fred@example.com', role: 'member' });
    const b = new Browser(t.app, '10.9.2.1');
    await b.post('/login', {
      _csrf: await b.csrf('/login'),
      email: 'eve@example.com',
      password: 'eve-password-1',
    });
    const page = await b.get(made.path);
    assert.match(page.body, /This invitation is for fred@example\.com/);
    const csrf = await b.csrf('/logout');
    const res = await b.post(made.path, { _csrf: csrf, action: 'join' });
    assert.equal(res.statusCode, 403);
    assert.equal(
      (await membersOf('inv-acme')).some(([name]) => name === 'inv-eve' || name === 'inv-fred'),
      false,
    );
  });

  test('an expired link is 410 and changes nothing; sign-up mode invite still refuses /signup', async () => {
    await t.services.signin.setSignupMode('invite');
    const made = await invite(keys.admin, { email: 'late@example.com', role: 'member' });
    const b = new Browser(t.app, '10.9.3.1');
    const csrf = await b.csrf(made.path);
    await t.database.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', made.id)
      .execute();
    const page = await b.get(made.path);
    assert.equal(page.statusCode, 410);
    assert.match(page.body, /expired/);
    const count = (await t.services.users.list()).length;
    const res = await b.post(made.path, { _csrf: csrf, name: 'late', password: 'late-password-1' });
    assert.equal(res.statusCode, 410);
    assert.equal((await t.services.users.list()).length, count);
    assert.equal((await b.get('/signup')).statusCode, 403);
    // unknown tokens: the same 410
    assert.equal((await b.get('/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).statusCode, 410);
    assert.equal((await b.get('/invite/x')).statusCode, 410);
    // with sign-up mode invite, a new person joins by invitation
    const fresh = await invite(keys.admin, { email: 'fresh@example.com', role: 'member' });
    const c = new Browser(t.app, '10.9.3.2');
    const ok = await c.post(fresh.path, {
      _csrf: await c.csrf(fresh.path),
      name: 'fresh',
      password: 'fresh-password-1',
    });
    assert.equal(ok.statusCode, 303);
    await t.services.signin.setSignupMode('closed');
  });

  test('the members page: an admin invites and revokes there; a member has no such form', async () => {
    const admin = new Browser(t.app, '10.9.4.1');
    await admin.login(keys.admin);
    const page = await admin.get('/dashboard/members');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /class="settings__form invite-form"/);
    assert.doesNotMatch(page.body, /<option value="owner"/, 'an admin is not offered the owner role');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const made = await admin.post('/dashboard/members/invitations', {
      _csrf: csrf,
      email: 'page@example.com',
      role: 'viewer',
      projects: 'page.example',
    });
    assert.equal(made.statusCode, 200, made.body);
    const url = /class="invitation-url" type="text" readonly value="([^"]+)"/.exec(made.body);
    assert.ok(url, 'the link is shown to the inviter');
    tokens.push(url[1]!.split('/').at(-1)!);
    const row = /id="invitation-(\d+)"[^]*?page@example\.com/.exec(made.body);
    assert.ok(row, 'the pending invitation is listed');
    const refused = await admin.post('/dashboard/members/invitations', {
      _csrf: csrf,
      email: 'own@example.com',
      role: 'owner',
    });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /owner role/);
    const revoked = await admin.post(`/dashboard/members/invitations/${row[1]!}/revoke`, { _csrf: csrf });
    assert.equal(revoked.statusCode, 303);
    assert.equal((await t.request({ method: 'GET', url: new URL(url[1]!).pathname })).statusCode, 410);

    const member = new Browser(t.app, '10.9.4.2');
    await member.login(keys.member);
    assert.equal((await member.get('/dashboard/members')).statusCode, 403);
    const forbidden = await member.post('/dashboard/members/invitations', {
      _csrf: await member.csrf('/dashboard'),
      email: 'm@example.com',
      role: 'member',
    });
    assert.equal(forbidden.statusCode, 403);
  });

  test('accepting is throttled as sign-ups: 5 tries in 15 minutes per address', async () => {
    const made = await invite(keys.admin, { email: 'slow@example.com', role: 'member' });
    const b = new Browser(t.app, '10.9.5.1');
    const csrf = await b.csrf(made.path);
    for (let i = 0; i < 5; i++) {
      const res = await b.post(made.path, { _csrf: csrf, name: 'slow', password: 'short' });
      assert.equal(res.statusCode, 422);
    }
    const blocked = await b.post(made.path, { _csrf: csrf, name: 'slow', password: 'slow-password-1' });
    assert.equal(blocked.statusCode, 429);
    assert.ok(blocked.headers['retry-after']);
    assert.equal(await t.services.users.find('slow'), null);
  });

  test('the audit log records created, revoked and accepted; the token is never in logs, the audit log or lists', async () => {
    const log = await api(owner.key, 'GET', '/api/v1/organization/audit-log?per_page=100');
    assert.equal(log.statusCode, 200);
    const actions = (log.json().data as { action: string }[]).map((e) => e.action);
    for (const a of ['invitation.created', 'invitation.revoked', 'invitation.accepted'])
      assert.ok(actions.includes(a), `${a} in ${actions.join(', ')}`);
    const list = (await api(owner.key, 'GET', `${LIST}?per_page=100`)).body;
    assert.ok(tokens.length >= 8);
    const logs = t.logs.join('\n');
    for (const token of tokens) {
      assert.ok(!log.body.includes(token), 'not in the audit log');
      assert.ok(!list.includes(token), 'not in the list');
      assert.ok(!logs.includes(token), 'not in the logs');
    }
    assert.match(logs, /\/invite\/\[redacted\]/);
    assert.ok(!logs.includes('client-password-1'));
  });
});
