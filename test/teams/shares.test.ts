// Share links (issue 22 §4; docs/teams.md "Share links"), on SQLite and PostgreSQL: a member
// shares a private or password-protected report, or a project's latest crawl, by a link that
// works without an account until it expires or is revoked; the shared page links to nothing
// else of the owner's; another organisation can neither list nor revoke it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';

describeEachDialect('share links', (dialect) => {
  let t: TestApp;
  let acme: TestUser;
  let other: TestUser;
  let memberKey: string;
  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    acme = await buildUser(t.services, 'share-acme');
    other = await buildUser(t.services, 'share-other');
    const { user } = await t.services.users.create('share-member');
    await t.services.organizations.addMember('share-acme', user.name, 'member');
    memberKey = (await t.services.keys.create(user.name, { org: 'share-acme' })).key;
  });
  after(() => t?.close());

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
  const path = (url: string) => new URL(url).pathname;

  test('a password-protected report shared: the link shows it, read-only, linking to nothing of the owner', async () => {
    const secret = await buildReport(t.services, acme, {
      path: '/secret',
      privacy: 2,
      password: 'pw-123456',
    });
    const sibling = await buildReport(t.services, acme, { path: '/sibling' });
    // without the link: the password form, not the report
    const plain = await t.request({ method: 'GET', url: `/reports/${secret.id}` });
    assert.doesNotMatch(plain.body, /canned\.test\/secret<\/h1>|Fix first/i);
    const res = await api(memberKey, 'POST', `/api/v1/reports/${secret.id}/shares`, {});
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data as {
      id: number;
      url: string;
      expires_at: string;
      kind: string;
      report_id: number;
    };
    assert.equal(data.kind, 'report');
    assert.equal(data.report_id, secret.id);
    assert.match(data.url, /^http:\/\/pagegrade\.test:8080\/s\/[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(data.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `7 days by default (${days})`);

    const page = await t.request({ method: 'GET', url: path(data.url) });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /canned\.test\/secret/);
    assert.equal(page.headers['cache-control'], 'no-store');
    const hrefs = [...page.body.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    const inside = hrefs.filter((h) => h.startsWith('/') && !h.startsWith('/assets/') && h !== '#main');
    assert.deepEqual(inside, [], `no link into the site: ${inside.join(', ')}`);
    assert.doesNotMatch(page.body, /\/dashboard|\/login|\/reports\//);
    assert.ok(!page.body.includes('canned.test/sibling'), 'never another report');
    assert.ok(sibling.id > 0);
    // the token is stored hashed only
    const rows = await t.database.db.selectFrom('shares').select('token_hash').execute();
    const token = path(data.url).slice(3);
    assert.ok(rows.every((r) => r.token_hash !== token && r.token_hash.length === 64));
  });

  test('expires_in_days 1–90; 422 naming the field otherwise; another organisation’s report is 404', async () => {
    const r = await buildReport(t.services, acme, { path: '/days' });
    for (const bad of [0, 91, 'x']) {
      const res = await api(memberKey, 'POST', `/api/v1/reports/${r.id}/shares`, { expires_in_days: bad });
      assert.equal(res.statusCode, 422, res.body);
      assert.match(res.body, /expires_in_days/);
    }
    const ok = await api(memberKey, 'POST', `/api/v1/reports/${r.id}/shares`, { expires_in_days: 90 });
    assert.equal(ok.statusCode, 201);
    const theirs = await api(other.key, 'POST', `/api/v1/reports/${r.id}/shares`, {});
    assert.equal(theirs.statusCode, 404);
  });

  test('revoked or expired: the same 404 as an unknown link; another organisation cannot revoke or list it', async () => {
    const r = await buildReport(t.services, acme, { path: '/revoke' });
    const made = (await api(memberKey, 'POST', `/api/v1/reports/${r.id}/shares`, {})).json().data as {
      id: number;
      url: string;
    };
    assert.equal((await t.request({ method: 'GET', url: path(made.url) })).statusCode, 200);

    const foreign = await api(other.key, 'DELETE', `/api/v1/shares/${made.id}`);
    assert.equal(foreign.statusCode, 404);
    const theirList = await api(other.key, 'GET', '/api/v1/organization/shares');
    assert.deepEqual(theirList.json().data, []);
    const ourList = await api(acme.key, 'GET', '/api/v1/organization/shares');
    assert.ok((ourList.json().data as { id: number }[]).some((s) => s.id === made.id));

    const revoked = await api(memberKey, 'DELETE', `/api/v1/shares/${made.id}`);
    assert.equal(revoked.statusCode, 204);
    const gone = await t.request({ method: 'GET', url: path(made.url) });
    assert.equal(gone.statusCode, 404);
    const unknown = await t.request({ method: 'GET', url: `/s/${'A'.repeat(43)}` });
    assert.equal(unknown.statusCode, 404);
    const strip = (body: string) => body.replace(/(\/|%2F)s(\/|%2F)[A-Za-z0-9_-]*/g, '');
    assert.equal(strip(gone.body), strip(unknown.body), 'the same page as an unknown link');
    const listed = (await api(acme.key, 'GET', '/api/v1/organization/shares')).json().data as {
      id: number;
      revoked_at: string | null;
    }[];
    assert.ok(listed.find((s) => s.id === made.id)?.revoked_at);

    // expired: its expires_at in the past
    const later = (await api(memberKey, 'POST', `/api/v1/reports/${r.id}/shares`, {})).json().data as {
      id: number;
      url: string;
    };
    assert.equal((await t.request({ method: 'GET', url: path(later.url) })).statusCode, 200);
    await t.database.db
      .updateTable('shares')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', later.id)
      .execute();
    assert.equal((await t.request({ method: 'GET', url: path(later.url) })).statusCode, 404);
  });

  test("a project's latest crawl shared; an unknown project is 404; a viewer may not share", async () => {
    const put = await api(acme.key, 'PUT', '/api/v1/projects/shared-site.test', {
      start_url: 'http://shared-site.test/',
    });
    assert.equal(put.statusCode, 201, put.body);
    const res = await api(memberKey, 'POST', '/api/v1/projects/shared-site.test/shares', {});
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data as { kind: string; project: string; url: string };
    assert.equal(data.kind, 'project');
    assert.equal(data.project, 'shared-site.test');
    const page = await t.request({ method: 'GET', url: path(data.url) });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>shared-site\.test<\/h1>/);
    assert.doesNotMatch(page.body, /href="\/(dashboard|reports|login)/);
    const missing = await api(memberKey, 'POST', '/api/v1/projects/nowhere.test/shares', {});
    assert.equal(missing.statusCode, 404);
    const { user } = await t.services.users.create('share-viewer');
    await t.services.organizations.addMember('share-acme', user.name, 'viewer');
    const viewerKey = (await t.services.keys.create(user.name, { org: 'share-acme' })).key;
    const refused = await api(viewerKey, 'POST', '/api/v1/projects/shared-site.test/shares', {});
    assert.equal(refused.statusCode, 403);
    assert.match(refused.json().message, /member role/);
  });
});
