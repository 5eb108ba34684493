// The dashboard's API keys page: the user's keys, create one (the secret shown once, with its
// scope, projects and expiry), revoke one (requests with it answer 401 at once); another
// user's key is a 404; a session opened with a read key cannot create or revoke keys (403) —
// on SQLite and PostgreSQL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

describeEachDialect('API keys page', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
  });
  after(() => t.close());

  test('anonymous visitors are sent to sign in', async () => {
    const res = await t.app.inject({ url: '/dashboard/keys' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/login?next=${encodeURIComponent('/dashboard/keys')}`);
  });

  test('list, create (secret once), use, revoke', async () => {
    const b = new Browser(t.app);
    await b.login(alice.key);
    let page = await b.get('/dashboard/keys');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<a href="\/dashboard\/keys">API keys<\/a>/);
    assert.ok(page.body.includes(`${alice.key.slice(0, 10)}…`), 'the first key by its prefix');
    assert.match(page.body, /\(this session\)/);
    assert.ok(!page.body.includes(alice.key), 'never a secret');
    const token = await b.csrf('/dashboard/keys');

    let res = await b.post('/dashboard/keys', {
      _csrf: token,
      scope: 'admin',
      projects: '',
      expires: 'never',
    });
    assert.equal(res.statusCode, 422);
    // in the form's words, once, next to its field
    assert.match(res.body, /id="key-scope-error">Choose Write or Read\.</);
    assert.doesNotMatch(res.body, /alert--error|The scope must/);
    res = await b.post('/dashboard/keys', { _csrf: token, scope: 'read', projects: 'not a host!', expires: 'never' });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="key-projects-error">List up to 100 host names separated by commas/);
    assert.doesNotMatch(res.body, /alert--error/);

    res = await b.post('/dashboard/keys', {
      _csrf: token,
      scope: 'read',
      projects: 'www.Example.com, blog.example.com',
      expires: '30d',
    });
    assert.equal(res.statusCode, 201, res.body);
    const secret = /id="key-secret">(pg_[^<]+)</.exec(res.body)?.[1];
    assert.ok(secret, 'the secret is shown');
    assert.match(res.body, /read · example\.com, blog\.example\.com/);
    page = await b.get('/dashboard/keys');
    assert.ok(!page.body.includes(secret), 'and never again');

    // the key works, as a read key for those projects
    const auth = { authorization: `Bearer ${secret}` };
    const account = await t.app.inject({ url: '/api/v1/account', headers: auth });
    assert.equal(account.statusCode, 200);
    const key = account.json().data.key as {
      id: number;
      scopes: string[];
      projects: string[];
      expires_at: string;
    };
    assert.deepEqual(key.scopes, ['read']);
    assert.deepEqual(key.projects, ['example.com', 'blog.example.com']);
    const days = (Date.parse(key.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, String(days));

    // bob's keys are not alice's to revoke
    const bobKey = (await t.services.keys.list(bob.id))[0]!;
    res = await b.post(`/dashboard/keys/${bobKey.id}/revoke`, { _csrf: token });
    assert.equal(res.statusCode, 404);
    assert.equal((await t.app.inject({ url: '/api/v1/account', headers: bob.auth })).statusCode, 200);

    res = await b.post(`/dashboard/keys/${key.id}/revoke`, { _csrf: token });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/keys?done=revoked');
    page = await b.get('/dashboard/keys?done=revoked');
    assert.match(page.body, /The key was revoked\./);
    assert.match(page.body, /Revoked on/);
    assert.equal((await t.app.inject({ url: '/api/v1/account', headers: auth })).statusCode, 401);
  });

  test('a session opened with a read key cannot manage keys (403)', async () => {
    const read = await t.services.keys.create(alice.id, { scope: 'read' });
    const b = new Browser(t.app);
    await b.login(read.key);
    const page = await b.get('/dashboard/keys');
    assert.equal(page.statusCode, 200);
    const token = await b.csrf('/dashboard/keys');
    const res = await b.post('/dashboard/keys', {
      _csrf: token,
      scope: 'write',
      projects: '',
      expires: 'never',
    });
    assert.equal(res.statusCode, 403);
    const keys = await t.services.keys.list(alice.id);
    assert.ok(
      keys.every((k) => k.id <= read.info.id),
      'no key was made',
    );
  });
});
