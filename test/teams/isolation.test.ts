// Cross-organisation isolation on every route (issue 22, Security; docs/teams.md), generated from
// the routes the app registered (app.accessRoutes), on SQLite and PostgreSQL: organisation A has
// one of everything — a report (private) with a run and a schedule, a project with an ignore
// rule and a branding, a batch, a webhook with a delivery, a share link, an invitation, a member,
// a key. The owner of organisation B (who may do everything in B) asks every API route and every
// dashboard page that names one of A's things by its id or name, with every method; each answer
// must be the same as for a thing that does not exist (status, and the API's message with the id
// put aside), never one of A's data; and afterwards A's things are all still there, unchanged.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { testAnalyze } from '../helpers/config.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';
import { goodPage, html } from '../helpers/fixture-server.js';

/** what names nothing, per path parameter */
const MISSING: Record<string, string> = {
  id: '999999',
  user_id: '999999',
  delivery: '999999',
  run: '999',
  project: 'nowhere.example',
  rule_id: 'no-such-rule',
  rule: 'no-such-rule',
};

/** routes whose ids are not an organisation's: the instance admin acts on people across organisations */
const INSTANCE_ROUTES = /^\/dashboard\/admin\//;

describeEachDialect('cross-organisation isolation on every route', (dialect) => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;
  /** A's ids, by the route prefix before `:id`, and its other parameters */
  const ids: Record<string, string> = {};
  const SECRET_PATH = '/iso-secret-page';

  const api = (user: TestUser, method: string, url: string, body?: unknown) =>
    t.request({
      method: method as 'GET',
      url,
      headers: { ...user.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    await buildUser(t.services, 'iso-root'); // the instance admin: neither A nor B
    a = await buildUser(t.services, 'iso-a');
    b = await buildUser(t.services, 'iso-b');
    const report = await buildReport(t.services, a, { path: SECRET_PATH, privacy: 1 });
    ids.report = String(report.id);
    const ok = (res: { statusCode: number; body: string }, status: number) =>
      assert.equal(res.statusCode, status, res.body);
    ok(
      await api(a, 'PUT', `/api/v1/reports/${report.id}/schedule`, { every: 'daily', timezone: 'UTC' }),
      201,
    );
    const rule = await api(a, 'POST', '/api/v1/projects/canned.test/ignore-rules', {
      id: 'broken_links',
      reason: 'ours',
    });
    ok(rule, 201);
    ids.rule = (rule.json().data as { rule_id: string }).rule_id;
    ok(await api(a, 'PUT', '/api/v1/projects/canned.test/branding', { name: 'Iso Agency' }), 200);
    const batch = await t.services.batches.create(a.id, {
      url: 'http://canned.test/',
      mode: 'list',
      urls: ['http://canned.test/x'],
    });
    ids.batch = String(batch.id);
    const hook = await api(a, 'POST', '/api/v1/webhooks', {
      url: 'http://iso-hook.test/hook',
      events: ['report.created'],
    });
    ok(hook, 201);
    ids.webhook = String((hook.json().data as { id: number }).id);
    await api(a, 'POST', `/api/v1/webhooks/${ids.webhook}/test`, {});
    const deliveries = await api(a, 'GET', `/api/v1/webhooks/${ids.webhook}/deliveries`);
    ids.delivery = String((deliveries.json().data as { id: number }[])[0]!.id);
    const share = await api(a, 'POST', `/api/v1/reports/${report.id}/shares`, {});
    ok(share, 201);
    ids.share = String((share.json().data as { id: number }).id);
    const invitation = await api(a, 'POST', '/api/v1/organization/invitations', {
      email: 'iso@example.com',
      role: 'member',
    });
    ok(invitation, 201);
    ids.invitation = String((invitation.json().data as { id: number }).id);
    const { user } = await t.services.users.create('iso-a-member');
    await t.services.organizations.addMember('iso-a', user.name, 'member');
    ids.member = String(user.id);
    ids.key = String((await t.services.keys.list('iso-a'))[0]!.id);
    t.fixture.route('/iso-build', html(goodPage(t.fixture.origin)));
    const buildUrl = `${t.site('isobuild')}/iso-build`;
    const built = await api(a, 'POST', '/api/v1/builds', {
      project: 'isobuild.test',
      branch: 'main',
      commit_sha: 'a1b2c3d4',
      pages: [
        {
          url: buildUrl,
          report: await testAnalyze(buildUrl, {
            allowPrivateHosts: true,
            timeoutMs: 5000,
            maxBytes: 5_000_000,
          }),
        },
      ],
    });
    ok(built, 201);
    ids.build = String((built.json().data as { id: number }).id);
  });
  after(() => t?.close());

  /** A's value for parameter `name` of `url` */
  function aValue(url: string, name: string): string {
    if (name === 'project') return 'canned.test';
    if (name === 'rule_id' || name === 'rule') return ids.rule!;
    if (name === 'run') return '1';
    if (name === 'delivery') return ids.delivery!;
    if (name === 'user_id') return ids.member!;
    const before = url.slice(0, url.indexOf(':id')).split('/').filter(Boolean).at(-1);
    const byPrefix: Record<string, string | undefined> = {
      reports: ids.report,
      batches: ids.batch,
      webhooks: ids.webhook,
      shares: ids.share,
      invitations: ids.invitation,
      keys: ids.key,
      builds: ids.build,
    };
    const v = byPrefix[before ?? ''];
    if (v === undefined) throw new Error(`no id of A for ${url}`);
    return v;
  }

  const fill = (url: string, value: (name: string) => string) =>
    url.replace(/:([a-z_]+)/g, (_m, name: string) => value(name));

  /** the answer with the id or name asked for put aside */
  const normal = (body: string, used: string[]) => {
    let out = body;
    for (const v of used) out = out.replaceAll(v, '<ref>');
    return out;
  };

  const named = () =>
    t.app.accessRoutes.filter(
      (r) => r.url.includes(':') && r.method !== 'HEAD' && !INSTANCE_ROUTES.test(r.url),
    );

  test("API: every route naming one of A's things answers B as for a missing one", async () => {
    const routes = named().filter((r) => r.url.startsWith('/api/'));
    assert.ok(routes.length > 35, `${routes.length} routes`);
    let notFound = 0;
    for (const r of routes) {
      const body = ['POST', 'PUT', 'PATCH'].includes(r.method) ? {} : undefined;
      const theirsUsed: string[] = [];
      const missingUsed: string[] = [];
      const theirs = await api(
        b,
        r.method,
        fill(r.url, (n) => {
          const v = aValue(r.url, n);
          theirsUsed.push(v);
          return v;
        }),
        body,
      );
      const missing = await api(
        b,
        r.method,
        fill(r.url, (n) => {
          const v = MISSING[n] ?? '999999';
          missingUsed.push(v);
          return v;
        }),
        body,
      );
      const where = `${r.method} ${r.url}: ${theirs.statusCode} ${theirs.body.slice(0, 200)}`;
      assert.equal(theirs.statusCode, missing.statusCode, where);
      assert.ok(!theirs.body.includes(SECRET_PATH), `${where}: none of A's data`);
      assert.ok(!theirs.body.includes('iso-hook.test') && !theirs.body.includes('Iso Agency'), where);
      if (theirs.headers['content-type']?.toString().startsWith('application/json'))
        assert.equal(
          normal(String((theirs.json() as { message?: string }).message ?? ''), theirsUsed),
          normal(String((missing.json() as { message?: string }).message ?? ''), missingUsed),
          where,
        );
      if (theirs.statusCode === 404) notFound++;
    }
    assert.ok(notFound > 30, `${notFound} answered 404`);
  });

  test("dashboard: every page and form naming one of A's things answers B as for a missing one", async () => {
    const routes = named().filter((r) => !r.url.startsWith('/api/'));
    assert.ok(routes.length > 25, `${routes.length} pages`);
    const browser = new Browser(t.app);
    assert.equal((await browser.login(b.key)).statusCode, 303);
    const token = await browser.csrf('/logout');
    let notFound = 0;
    for (const r of routes) {
      const ask = (url: string) =>
        r.method === 'POST' ? browser.post(url, { _csrf: token }) : browser.get(url);
      const theirs = await ask(fill(r.url, (n) => aValue(r.url, n)));
      const missing = await ask(fill(r.url, (n) => MISSING[n] ?? '999999'));
      const where = `${r.method} ${r.url}: ${theirs.statusCode}`;
      assert.equal(theirs.statusCode, missing.statusCode, where);
      assert.ok(
        !theirs.body.includes(SECRET_PATH) && !theirs.body.includes('iso-hook.test'),
        `${where}: none of A's data`,
      );
      if (theirs.statusCode === 404) notFound++;
    }
    assert.ok(notFound > 20, `${notFound} answered 404`);
  });

  test("afterwards A's things are all there, unchanged", async () => {
    assert.equal((await api(a, 'GET', `/api/v1/reports/${ids.report}`)).statusCode, 200);
    assert.equal((await api(a, 'GET', `/api/v1/reports/${ids.report}/schedule`)).statusCode, 200);
    assert.equal((await api(a, 'GET', `/api/v1/batches/${ids.batch}`)).statusCode, 200);
    assert.equal((await api(a, 'GET', `/api/v1/webhooks/${ids.webhook}`)).json().data.enabled, true);
    assert.equal(
      (await api(a, 'GET', '/api/v1/projects/canned.test/branding')).json().data.name,
      'Iso Agency',
    );
    const rules = (await api(a, 'GET', '/api/v1/projects/canned.test/ignore-rules')).json().data as {
      rules: { rule_id: string }[];
    };
    assert.deepEqual(
      rules.rules.map((r) => r.rule_id),
      [ids.rule],
    );
    const shares = (await api(a, 'GET', '/api/v1/organization/shares')).json().data as {
      revoked_at: string | null;
    }[];
    assert.equal(shares[0]!.revoked_at, null);
    const invitations = (await api(a, 'GET', '/api/v1/organization/invitations')).json().data as {
      state: string;
    }[];
    assert.equal(invitations[0]!.state, 'pending');
    const members = (await api(a, 'GET', '/api/v1/organization/members')).json().data as {
      user_id: number;
      role: string;
    }[];
    assert.equal(members.find((m) => String(m.user_id) === ids.member)?.role, 'member');
    assert.equal((await api(a, 'GET', '/api/v1/account')).statusCode, 200, "A's key still works");
    // and B's own lists hold none of A's
    for (const url of [
      '/api/v1/reports',
      '/api/v1/projects',
      '/api/v1/batches',
      '/api/v1/webhooks',
      '/api/v1/schedules',
    ]) {
      const res = await api(b, 'GET', url);
      assert.equal(res.statusCode, 200, url);
      assert.deepEqual(res.json().data, [], url);
    }
    // B acted on nothing of A's: A's audit log has only A's own changes
    const log = (await api(a, 'GET', '/api/v1/organization/audit-log?per_page=100')).json().data as {
      actor_user_id: number | null;
    }[];
    assert.ok(log.every((e) => e.actor_user_id !== b.userId));
  });
});
