// Scoped API keys and GET /api/v1/account, on SQLite and PostgreSQL (the real app over the
// real services; reports from the canned audit of test/helpers/factories.ts, or fetched from
// the fixture site for POST). Read keys: 403 naming the scope on writes; project-limited keys:
// only their projects (404 for others' reports and projects, 403 for storing elsewhere and for
// webhooks); expired keys: 401. The rules live in the services (src/services/access/rules.ts): the
// last tests call the services directly with an Actor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { buildReport, type TestUser } from '../helpers/factories.js';
import { forEachDialect, withBody, type Harness } from '../helpers/api-harness.js';

async function keyFor(
  h: Harness,
  user: TestUser,
  options: Parameters<Harness['services']['keys']['create']>[1],
) {
  const issued = await h.services.keys.create(user.id, options);
  return { id: issued.info.id, info: issued.info, auth: { authorization: `Bearer ${issued.key}` } };
}

const ids = (body: unknown) =>
  (body as { data: { id: number }[] }).data.map((r) => r.id).sort((a, b) => a - b);

forEachDialect('scoped API keys', (h) => {
  let carol: TestUser;
  const reports: Record<string, number> = {};

  test('setup: carol has reports on three projects', async () => {
    const { buildUser } = await import('../helpers/factories.js');
    carol = await buildUser(h().services, 'carol');
    for (const site of ['one', 'one', 'two', 'three']) {
      const r = await buildReport(h().services, carol, {
        site,
        path: `/${site}-${Object.keys(reports).length}`,
      });
      reports[`${site}-${r.id}`] = r.id;
    }
  });

  const of = (site: string) =>
    Object.entries(reports)
      .filter(([k]) => k.startsWith(`${site}-`))
      .map(([, id]) => id)
      .sort((a, b) => a - b);

  test('GET /account: the user, the counts and the calling key', async () => {
    const res = await h().request({ url: '/api/v1/account', headers: carol.auth });
    assert.equal(res.statusCode, 200);
    const data = res.json().data as Record<string, unknown> & { key: Record<string, unknown> };
    assert.equal(data.id, carol.id);
    assert.equal(data.name, 'carol');
    assert.match(String(data.created_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(data.reports_count, 4);
    assert.equal(data.projects_count, 3);
    assert.equal(data.key.prefix, carol.key.slice(0, 10));
    assert.deepEqual(data.key.scopes, ['read', 'write']);
    assert.equal(data.key.projects, null);
    assert.equal(data.key.expires_at, null);
    assert.ok(data.key.last_used_at, 'the request itself was a use');
    assert.ok(!JSON.stringify(data).includes(carol.key), 'never the secret');
  });

  test('a read key: GET works, every write is 403 naming the write scope', async () => {
    const k = await keyFor(h(), carol, { scope: 'read' });
    const list = await h().request({ url: '/api/v1/reports', headers: k.auth });
    assert.equal(list.statusCode, 200);
    assert.equal(ids(list.json()).length, 4);
    const account = await h().request({ url: '/api/v1/account', headers: k.auth });
    assert.deepEqual(account.json().data.key.scopes, ['read']);
    const id = of('one')[0]!;
    const writes = [
      withBody('POST', '/api/v1/reports', k.auth, { url: `${h().site('a')}/` }),
      withBody('PATCH', `/api/v1/reports/${id}`, k.auth, { privacy: 1 }),
      withBody('PUT', `/api/v1/reports/${id}`, k.auth, { privacy: 1 }),
      { method: 'DELETE' as const, url: `/api/v1/reports/${id}`, headers: k.auth },
      { method: 'DELETE' as const, url: '/api/v1/projects/one.canned.test', headers: k.auth },
      withBody('POST', '/api/v1/webhooks', k.auth, {
        url: 'https://hooks.canned.test/x',
        events: 'report.created',
      }),
    ];
    for (const w of writes) {
      const res = await h().request(w);
      assert.equal(res.statusCode, 403, `${w.method} ${w.url}`);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      assert.match(res.json().message, /lacks the write scope/);
    }
    // nothing changed
    const again = await h().request({ url: `/api/v1/reports/${id}`, headers: carol.auth });
    assert.equal(again.json().data.privacy, 0);
  });

  test('the services refuse a read actor too (the rule is theirs)', async () => {
    const actor = { orgId: carol.id, memberId: null, role: 'owner' as const, scopes: ['read'] as const, projects: null };
    await assert.rejects(h().services.reports.delete(actor, of('two')[0]!), { status: 403 });
    await assert.rejects(h().services.projects.delete(actor, 'two.canned.test'), { status: 403 });
    const listed = await h().services.reports.list(actor, {});
    assert.equal(listed.total, 4);
  });

  test('a key limited to one project sees only it; others are 404', async () => {
    const k = await keyFor(h(), carol, { scope: 'write', projects: ['WWW.One.Canned.Test'] });
    assert.deepEqual(k.info.projects, ['one.canned.test']);
    const list = await h().request({ url: '/api/v1/reports', headers: k.auth });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(ids(list.json()), of('one'));
    assert.equal(list.json().meta.total, 2);
    const filtered = await h().request({ url: '/api/v1/reports?project=two.canned.test', headers: k.auth });
    assert.deepEqual(filtered.json().data, []);
    assert.equal(filtered.json().meta.total, 0);
    const projects = await h().request({ url: '/api/v1/projects', headers: k.auth });
    assert.deepEqual(
      projects.json().data.map((p: { project: string }) => p.project),
      ['one.canned.test'],
    );
    const mine = await h().request({ url: `/api/v1/reports/${of('one')[0]}`, headers: k.auth });
    assert.equal(mine.statusCode, 200);
    const other = of('two')[0]!;
    for (const url of [
      `/api/v1/reports/${other}`,
      `/api/v1/reports/${other}/runs`,
      `/api/v1/reports/${other}/diff`,
    ]) {
      const res = await h().request({ url, headers: k.auth });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().message, 'No such report.');
    }
    const del = await h().request({ method: 'DELETE', url: `/api/v1/reports/${other}`, headers: k.auth });
    assert.equal(del.statusCode, 404);
    const delProject = await h().request({
      method: 'DELETE',
      url: '/api/v1/projects/two.canned.test',
      headers: k.auth,
    });
    assert.equal(delProject.statusCode, 404);
    assert.equal(delProject.json().message, 'No such project.');
    // storing a page of another project: 403 before anything is fetched
    const store = await h().request(
      withBody('POST', '/api/v1/reports', k.auth, { url: 'https://two.canned.test/new' }),
    );
    assert.equal(store.statusCode, 403);
    assert.match(store.json().message, /limited to projects \(one\.canned\.test\)/);
    // webhooks carry every project's events: not for this key
    const hooks = await h().request({ url: '/api/v1/webhooks', headers: k.auth });
    assert.equal(hooks.statusCode, 403);
    const account = await h().request({ url: '/api/v1/account', headers: k.auth });
    assert.equal(account.json().data.reports_count, 2);
    assert.equal(account.json().data.projects_count, 1);
    assert.deepEqual(account.json().data.key.projects, ['one.canned.test']);
    // the other reports are untouched
    const all = await h().request({ url: '/api/v1/reports', headers: carol.auth });
    assert.equal(all.json().meta.total, 4);
  });

  test('a key limited to two projects lists both (sorted, paged, filtered, counted)', async () => {
    const k = await keyFor(h(), carol, { scope: 'read', projects: ['one.canned.test', 'three.canned.test'] });
    const list = await h().request({
      url: '/api/v1/reports?per_page=10&sort_by=id&sort=asc',
      headers: k.auth,
    });
    assert.deepEqual(
      ids(list.json()),
      [...of('one'), ...of('three')].sort((a, b) => a - b),
    );
    assert.equal(list.json().meta.total, 3);
    const search = await h().request({ url: '/api/v1/reports?search=three', headers: k.auth });
    assert.deepEqual(ids(search.json()), of('three'));
    const projects = await h().request({ url: '/api/v1/projects?sort_by=project&sort=asc', headers: k.auth });
    assert.deepEqual(
      projects.json().data.map((p: { project: string }) => p.project),
      ['one.canned.test', 'three.canned.test'],
    );
    assert.equal(projects.json().meta.total, 2);
  });

  test('an expired key answers 401', async () => {
    const k = await keyFor(h(), carol, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const ok = await h().request({ url: '/api/v1/account', headers: k.auth });
    assert.equal(ok.statusCode, 200);
    assert.ok(ok.json().data.key.expires_at);
    // an hour later (the row's expiry moved into the past rather than waiting; a revocation
    // clears the key cache, as time would have let the key expire in it)
    await sql`update api_keys set expires_at = ${new Date(Date.now() - 1000).toISOString()} where id = ${k.id}`.execute(
      h().database.db,
    );
    await h().services.keys.revoke((await keyFor(h(), carol, {})).id);
    const res = await h().request({ url: '/api/v1/reports', headers: k.auth });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['www-authenticate'], 'Bearer');
    assert.equal(res.json().message, 'Unauthenticated: the API key has expired.');
  });

  test('invalid key options are 422 naming the field', async () => {
    await assert.rejects(
      h().services.keys.create(carol.id, { scope: 'admin' as 'read' }),
      (err: { status: number; fields: Record<string, string[]> }) =>
        err.status === 422 && /one of: read, write/.test(err.fields.scope![0]!),
    );
    await assert.rejects(
      h().services.keys.create(carol.id, { expiresAt: '2000-01-01T00:00:00Z' }),
      (err: { status: number; fields: Record<string, string[]> }) =>
        err.status === 422 && err.fields.expires_at !== undefined,
    );
  });

  test("revokeOwn: another user's key is 404, one's own is revoked at once", async () => {
    const k = await keyFor(h(), carol, {});
    await assert.rejects(h().services.keys.revokeOwn(h().alice.id, k.id), { status: 404 });
    const revoked = await h().services.keys.revokeOwn(carol.id, k.id);
    assert.ok(revoked.revokedAt);
    const res = await h().request({ url: '/api/v1/account', headers: k.auth });
    assert.equal(res.statusCode, 401);
  });
});
