// A project's own PDF branding (docs/teams.md, "What a client sees"), on SQLite and PostgreSQL:
// GET/PUT/DELETE /api/v1/projects/{project}/branding for admins and owners (a viewer or member:
// 403 naming the admin role), 404 for a project missing or another organisation's, 422 naming
// the field; a report's PDF branding is the organisation's with each field its project sets in
// its place (services.branding.ofReport); the project row stays while it has a branding.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describeEachDialect('a project’s own branding (API)', (dialect) => {
  let t: TestApp;
  let agency: TestUser;
  let other: TestUser;
  const keys: Record<'viewer' | 'member' | 'admin', string> = { viewer: '', member: '', admin: '' };
  const A = 'client-a.canned.test';
  const B = 'client-b.canned.test';
  const ids: Record<string, number> = {};

  const call = (method: 'GET' | 'PUT' | 'DELETE', project: string, key: string, body?: unknown) =>
    t.request({
      method,
      url: `/api/v1/projects/${project}/branding`,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    agency = await buildUser(t.services, 'agency');
    other = await buildUser(t.services, 'other');
    for (const role of ['viewer', 'member', 'admin'] as const) {
      await t.services.users.create(`${role}-x`);
      await t.services.organizations.addMember('agency', `${role}-x`, role);
      keys[role] = (await t.services.keys.create(`${role}-x`, { org: 'agency' })).key;
    }
    for (const [who, host] of [
      [agency, A],
      [agency, B],
      [other, 'other-site.canned.test'],
    ] as const) {
      const r = await t.request({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { ...who.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: `http://${host}/` }),
      });
      assert.equal(r.statusCode, 201, r.body);
      ids[host] = r.json().data.id;
    }
    const org = await t.request({
      method: 'PUT',
      url: '/api/v1/account/branding',
      headers: { ...agency.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Acme Agency', prepared_for: 'Every client', accent_color: '#0f766e' }),
    });
    assert.equal(org.statusCode, 200, org.body);
  });
  after(() => t?.close());

  test('empty until set; PUT sets (admin), GET reads; fields over the organisation’s on the PDF', async () => {
    let res = await call('GET', A, keys.admin);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.prepared_for, null);
    res = await call('PUT', A, keys.admin, {
      prepared_for: 'Client A Ltd',
      logo: `data:image/png;base64,${PNG_1X1}`,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.prepared_for, 'Client A Ltd');
    assert.equal(res.json().data.logo.type, 'image/png');
    assert.equal(res.json().data.name, null, "the project's own fields only");
    res = await call('GET', 'Client-A.canned.test', agency.key);
    assert.equal(res.json().data.prepared_for, 'Client A Ltd', 'the project name is normalised');

    const a = await t.services.branding.ofReport(ids[A]!);
    assert.equal(a.preparedFor, 'Client A Ltd');
    assert.equal(a.name, 'Acme Agency', "the organisation's where the project sets nothing");
    assert.equal(a.accentColor, '#0f766e');
    assert.equal(a.logo?.type, 'image/png');
    const b = await t.services.branding.ofReport(ids[B]!);
    assert.equal(b.preparedFor, 'Every client');
    assert.equal(b.logo, null);
  });

  test('422 names the field; 404 for a missing project and another organisation’s', async () => {
    let res = await call('PUT', A, keys.admin, { accent_color: 'teal' });
    assert.equal(res.statusCode, 422);
    assert.match(res.json().errors.accent_color[0], /#rrggbb/);
    res = await call('PUT', 'nowhere.canned.test', keys.admin, { name: 'x' });
    assert.equal(res.statusCode, 404);
    res = await call('GET', 'other-site.canned.test', agency.key);
    assert.equal(res.statusCode, 404);
    res = await call('PUT', 'other-site.canned.test', agency.key, { name: 'x' });
    assert.equal(res.statusCode, 404);
    // the other organisation's own is untouched (and its PDF shows none of ours)
    assert.equal((await t.services.branding.ofReport(ids['other-site.canned.test']!)).name, null);
  });

  test('a viewer and a member are refused (403 naming the admin role)', async () => {
    for (const role of ['viewer', 'member'] as const) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await call(method, A, keys[role], method === 'PUT' ? { name: 'x' } : undefined);
        assert.equal(res.statusCode, 403, `${role} ${method}`);
        assert.match(res.json().message, /needs the admin role or higher/);
      }
    }
  });

  test('the project stays while it has a branding; DELETE clears it (the organisation’s again)', async () => {
    const del = await t.request({
      method: 'DELETE',
      url: `/api/v1/reports/${ids[A]}`,
      headers: agency.auth,
    });
    assert.ok(del.statusCode === 204 || del.statusCode === 200, del.body);
    let res = await call('GET', A, keys.admin);
    assert.equal(res.statusCode, 200, 'the project with a branding is kept at 0 reports');
    res = await call('DELETE', A, keys.admin);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { object: 'branding', deleted: true });
    res = await call('GET', A, keys.admin);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.prepared_for, null);
  });
});
