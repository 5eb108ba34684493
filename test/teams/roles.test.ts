// Every role × every API route and dashboard page, generated from the access table
// (src/services/access/table.ts; docs/teams.md), on SQLite and PostgreSQL: an organisation with
// an owner, an admin, a member and a viewer (each with the key `pagegrade keys create --org`
// would make), every route the app registered (app.accessRoutes: each with its operation)
// asked by each of them. Where the table says the role (or the key's scope) is not enough the
// answer is 403 naming the role or scope needed; elsewhere it is never 403 (a placeholder id
// answers 404, an empty body 422 — the rule let it through). The dashboard's pages are asked
// the same way from a signed-in browser (a 403 page says "Not allowed", never "Form expired").
import assert from 'node:assert/strict';
import { before, after, test } from 'node:test';
import { ACCESS, denial } from '../../src/services/access/table.js';
import { ROLES, type Role } from '../../src/services/accounts/types.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildUser } from '../helpers/factories.js';

/** a value for each path parameter that names nothing (the rule runs before the look-up) */
const PLACEHOLDER: Record<string, string> = {
  id: '999999',
  user_id: '999999',
  delivery_id: '999999',
  run: '999',
  number: '999',
  project: 'nowhere.example',
  rule_id: 'no-such-rule',
  rule: 'no-such-rule',
};
const fill = (url: string) =>
  url.replace(/:([a-z_]+)/g, (_m, name: string) => PLACEHOLDER[name] ?? '999999').replace(/\*$/, 'x');

describeEachDialect('roles × every route (the access table)', (dialect) => {
  let t: TestApp;
  const keys = {} as Record<Role, string>;

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    const owner = await buildUser(t.services, 'acme');
    keys.owner = owner.key;
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const { user } = await t.services.users.create(`${role}-of-acme`);
      await t.services.organizations.addMember('acme', user.name, role);
      // the default scope: write, read for a viewer
      keys[role] = (await t.services.keys.create(user.name, { org: 'acme' })).key;
    }
  });
  after(() => t?.close());

  const scopesOf = (role: Role) => (role === 'viewer' ? ['read'] : ['read', 'write']);

  test('the first person made on the instance is its admin; the others are not', async () => {
    const people = await t.services.users.list();
    assert.deepEqual(
      people.map((u) => [u.name, (u as { isAdmin?: boolean }).isAdmin]),
      [
        ['acme', true],
        ['admin-of-acme', false],
        ['member-of-acme', false],
        ['viewer-of-acme', false],
      ],
    );
  });

  test('the table names a rule for every operation a route uses, and every route has one', () => {
    const routes = t.app.accessRoutes;
    assert.ok(routes.length > 60, `${routes.length} routes recorded`);
    const none = routes.filter((r) => r.operation === null);
    assert.deepEqual(none, [], 'every route and dashboard page names an operation of the table');
    const used = new Set(routes.map((r) => r.operation));
    // every rule is used by some route (no dead rows in the printed table), but owners.write:
    // the members service's own check (an admin's change that touches an owner)
    for (const op of Object.keys(ACCESS))
      if (op !== 'owners.write') assert.ok(used.has(op as keyof typeof ACCESS), `${op} is used`);
  });

  test('API: every role × every route is refused exactly where the table says', async () => {
    const api = t.app.accessRoutes.filter((r) => r.url.startsWith('/api/'));
    assert.ok(api.length > 40);
    let refused = 0;
    let allowed = 0;
    for (const r of api) {
      for (const role of ROLES) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: fill(r.url),
          headers: {
            authorization: `Bearer ${keys[role]}`,
            ...(['POST', 'PUT', 'PATCH'].includes(r.method) ? { 'content-type': 'application/json' } : {}),
          },
          ...(['POST', 'PUT', 'PATCH'].includes(r.method) ? { payload: '{}' } : {}),
        });
        const expected = denial({ role, scopes: scopesOf(role) as ['read'], isAdmin: role === 'owner' }, r.operation);
        const where = `${role} ${r.method} ${r.url} (${r.operation}): ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (expected !== null) {
          assert.equal(res.statusCode, 403, where);
          // HEAD (Fastify's for every GET) has no body
          if (r.method !== 'HEAD') assert.equal(res.json().message, expected, where);
          refused++;
        } else {
          assert.notEqual(res.statusCode, 403, where);
          assert.ok(res.statusCode < 500, where);
          allowed++;
        }
      }
    }
    assert.ok(refused > 20 && allowed > 100, `${refused} refused, ${allowed} allowed`);
  });

  test('dashboard: every role × every page is refused exactly where the table says ("Not allowed", not "Form expired")', async () => {
    const pages = t.app.accessRoutes.filter((r) => !r.url.startsWith('/api/'));
    assert.ok(pages.length > 20);
    for (const role of ROLES) {
      const browser = new Browser(t.app);
      const signedIn = await browser.login(keys[role]);
      assert.equal(signedIn.statusCode, 303, signedIn.body);
      // a valid CSRF token of this browser's session (the sign-out form of any page)
      const token = await browser.csrf('/logout');
      for (const r of pages) {
        const url = fill(r.url);
        const res = r.method === 'POST' ? await browser.post(url, { _csrf: token }) : await browser.get(url);
        const expected = denial({ role, scopes: scopesOf(role) as ['read'], isAdmin: role === 'owner' }, r.operation);
        const where = `${role} ${r.method} ${r.url} (${r.operation}): ${res.statusCode}`;
        if (expected !== null) {
          assert.equal(res.statusCode, 403, where);
          assert.match(res.body, /Not allowed/, where);
          assert.doesNotMatch(res.body, /Form expired/, where);
        } else {
          assert.notEqual(res.statusCode, 403, `${where} ${res.body.slice(0, 300)}`);
          assert.ok(res.statusCode < 500, where);
        }
      }
    }
  });
});

describeEachDialect('a viewer limited to a project', (dialect) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
  });
  after(() => t?.close());

  test("sees that project's reports only; a role lowered or a member removed reaches their key at once", async () => {
    const owner = await buildUser(t.services, 'agency');
    for (const site of ['client-a', 'client-b']) {
      const r = await t.request({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: `http://${site}.canned.test/` }),
      });
      assert.equal(r.statusCode, 201, r.body);
    }
    const { user } = await t.services.users.create('client-anna');
    await t.services.organizations.addMember('agency', 'client-anna', 'viewer', ['client-a.canned.test']);
    const key = (await t.services.keys.create('client-anna', { org: 'agency' })).key;
    const auth = { authorization: `Bearer ${key}` };

    const list = await t.request({ url: '/api/v1/reports', headers: auth });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json().data.map((r: { url: string }) => new URL(r.url).hostname),
      ['client-a.canned.test'],
    );
    const account = await t.request({ url: '/api/v1/account', headers: auth });
    assert.deepEqual(account.json().data.organization, { id: owner.id, name: 'agency', role: 'viewer' });
    assert.deepEqual(account.json().data.key.scopes, ['read']);
    // a viewer's key cannot write, whatever it was made with
    await assert.rejects(t.services.keys.create('client-anna', { org: 'agency', scope: 'write' }), {
      status: 422,
    });
    const write = await t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'http://client-a.canned.test/new' }),
    });
    assert.equal(write.statusCode, 403);
    assert.match(write.json().message, /member role or higher/);

    // the owner makes them a member: their key may write at once (and sees every project)
    const members = await t.request({ url: '/api/v1/organization/members', headers: owner.auth });
    assert.equal(members.statusCode, 200);
    assert.deepEqual(
      members
        .json()
        .data.map((m: { name: string; role: string; projects: string[] | null }) => [
          m.name,
          m.role,
          m.projects,
        ]),
      [
        ['agency', 'owner', null],
        ['client-anna', 'viewer', ['client-a.canned.test']],
      ],
    );
    const promoted = await t.request({
      method: 'PATCH',
      url: `/api/v1/organization/members/${user.id}`,
      headers: { ...owner.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ role: 'member', projects: null }),
    });
    assert.equal(promoted.statusCode, 200, promoted.body);
    assert.equal(promoted.json().data.role, 'member');
    // the key was made read-only (a viewer's): it stays read-only, now over every project
    const all = await t.request({ url: '/api/v1/reports', headers: auth });
    assert.equal(all.json().meta.total, 2);

    // projects are for viewers only; the last owner stays one
    const bad = await t.request({
      method: 'PATCH',
      url: `/api/v1/organization/members/${user.id}`,
      headers: { ...owner.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ projects: ['client-a.canned.test'] }),
    });
    assert.equal(bad.statusCode, 422);
    assert.match(JSON.stringify(bad.json().errors.projects), /Only a viewer/);
    const ownerId = members.json().data[0].user_id as number;
    const lastOwner = await t.request({
      method: 'PATCH',
      url: `/api/v1/organization/members/${ownerId}`,
      headers: { ...owner.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ role: 'admin' }),
    });
    assert.equal(lastOwner.statusCode, 422);
    assert.match(JSON.stringify(lastOwner.json().errors.role), /last owner/);

    // removed: the key stops at once
    const removed = await t.request({
      method: 'DELETE',
      url: `/api/v1/organization/members/${user.id}`,
      headers: owner.auth,
    });
    assert.equal(removed.statusCode, 204);
    assert.equal((await t.request({ url: '/api/v1/reports', headers: auth })).statusCode, 401);
    // another organisation's member is the same 404 as none
    const other = await buildUser(t.services, 'other-agency');
    const stranger = await t.request({
      method: 'DELETE',
      url: `/api/v1/organization/members/${other.userId}`,
      headers: owner.auth,
    });
    assert.equal(stranger.statusCode, 404);
  });

  test('an admin cannot make, change or remove an owner (403 naming the owner role)', async () => {
    const owner = await buildUser(t.services, 'studio');
    const { user: adm } = await t.services.users.create('studio-admin');
    await t.services.organizations.addMember('studio', 'studio-admin', 'admin');
    const admKey = (await t.services.keys.create('studio-admin', { org: 'studio' })).key;
    const h = { authorization: `Bearer ${admKey}`, 'content-type': 'application/json' };
    const self = await t.request({
      method: 'PATCH',
      url: `/api/v1/organization/members/${adm.id}`,
      headers: h,
      payload: JSON.stringify({ role: 'owner' }),
    });
    assert.equal(self.statusCode, 403);
    assert.match(self.json().message, /owner role/);
    const demote = await t.request({
      method: 'PATCH',
      url: `/api/v1/organization/members/${owner.userId}`,
      headers: h,
      payload: JSON.stringify({ role: 'viewer' }),
    });
    assert.equal(demote.statusCode, 403);
    const remove = await t.request({
      method: 'DELETE',
      url: `/api/v1/organization/members/${owner.userId}`,
      headers: { authorization: `Bearer ${admKey}` },
    });
    assert.equal(remove.statusCode, 403);
  });
});
