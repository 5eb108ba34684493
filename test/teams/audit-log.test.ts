// The audit log (issue 22 §5; docs/teams.md "Audit log"), on SQLite and PostgreSQL: changes made
// through the API, the dashboard, the CLI's services and by the system are recorded with who,
// when, from where and what — never a secret; GET /organization/audit-log pages and filters
// them for admins and owners only; another organisation's entries are never listed; entries
// past PAGEGRADE_AUDIT_LOG_RETENTION_DAYS are pruned by the workers' recurring task.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditLogPrune } from '../../src/jobs/kinds/audit-log-prune.js';
import { actingAs, recordChange } from '../../src/services/shared/audit-log.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';

const SECRET_KEY = 'a'.repeat(64);
const HEADER_VALUE = 'header-value-never-logged';
const PASSWORD = 'basic-password-never-logged';

interface Entry {
  id: number;
  at: string;
  actor: string;
  actor_user_id: number | null;
  actor_key_id: number | null;
  ip: string | null;
  action: string;
  target: { type: string; id: string | null };
  changes: Record<string, unknown>;
}

describeEachDialect('the audit log', (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  const keys: Record<'admin' | 'member' | 'viewer', string> = { admin: '', member: '', viewer: '' };
  const ids: Record<string, number> = {};

  const log = async (key: string, query = '') => {
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/organization/audit-log${query}`,
      headers: { authorization: `Bearer ${key}` },
    });
    return res;
  };
  const entries = async (key: string, query = '') => {
    const res = await log(key, query);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { data: Entry[]; meta: { total: number; per_page: number; last_page: number } };
  };

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent', config: { secretKey: SECRET_KEY } });
    owner = await buildUser(t.services, 'audit-acme');
    other = await buildUser(t.services, 'audit-globex');
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const { user } = await t.services.users.create(`audit-${role}`);
      ids[role] = user.id;
      await t.services.organizations.addMember('audit-acme', user.name, role);
      keys[role] = (await t.services.keys.create(user.name, { org: 'audit-acme' })).key;
    }
  });
  after(() => t?.close());

  test('a role change through the API: who (member and key), from where, what', async () => {
    const res = await t.request({
      method: 'PATCH',
      url: `/api/v1/organization/members/${ids.member}`,
      headers: { authorization: `Bearer ${keys.admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ role: 'viewer' }),
      remoteAddress: '198.51.100.7',
    });
    assert.equal(res.statusCode, 200, res.body);
    // back to member for the tests below
    await t.services.organizations.setMemberOf('audit-acme', 'audit-member', { role: 'member' });
    const { data } = await entries(owner.key, '?action=member.role_changed');
    // the change, then the CLI's change back (newest first)
    assert.deepEqual(
      data.map((e) => e.actor),
      ['system', 'key'],
    );
    const e = data[1]!;
    const adminKey = (await t.services.keys.list('audit-admin')).find((k) => k.orgName === 'audit-acme')!;
    assert.equal(e.actor, 'key');
    assert.equal(e.actor_user_id, ids.admin);
    assert.equal(e.actor_key_id, adminKey.id);
    assert.equal(e.ip, '198.51.100.7');
    assert.deepEqual(e.target, { type: 'member', id: String(ids.member) });
    assert.deepEqual(e.changes, { name: 'audit-member', role: { from: 'member', to: 'viewer' } });
    assert.ok(Math.abs(Date.parse(e.at) - Date.now()) < 60_000);
  });

  test('project settings, ignore rules and deletions are recorded; secrets only as set or cleared', async () => {
    const auth = { authorization: `Bearer ${keys.member}`, 'content-type': 'application/json' };
    const put = await t.request({
      method: 'PUT',
      url: '/api/v1/projects/audited.test',
      headers: auth,
      payload: JSON.stringify({
        start_url: 'http://audited.test/',
        max_pages: 50,
        headers: { 'X-Token': HEADER_VALUE },
        basic_auth: { username: 'staging', password: PASSWORD },
      }),
    });
    assert.equal(put.statusCode, 201, put.body);
    const patch = await t.request({
      method: 'PATCH',
      url: '/api/v1/projects/audited.test',
      headers: auth,
      payload: JSON.stringify({ max_pages: 80, headers: {} }),
    });
    assert.equal(patch.statusCode, 200, patch.body);
    const rule = await t.request({
      method: 'POST',
      url: '/api/v1/projects/audited.test/ignore-rules',
      headers: auth,
      payload: JSON.stringify({ id: 'title', reason: 'the titles are set by the CMS' }),
    });
    assert.ok(rule.statusCode < 300, rule.body);
    const report = await buildReport(t.services, owner);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/v1/reports/${report.id}`,
      headers: { authorization: `Bearer ${keys.member}` },
    });
    assert.equal(del.statusCode, 200, del.body);
    const hook = await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: `Bearer ${keys.admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `${t.site('hooks')}/secret-path-token`, events: ['report.created'] }),
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const webhookSecret = (hook.json() as { data: { secret: string } }).data.secret;

    const all = await entries(owner.key, '?per_page=100');
    const byAction = (a: string) => all.data.filter((e) => e.action === a);
    const created = byAction('project.created')[0]!;
    assert.equal(created.target.id, 'audited.test');
    assert.deepEqual((created.changes as { max_pages: unknown }).max_pages, { from: 100, to: 50 });
    assert.equal(created.changes.headers_values, 'set');
    assert.equal(created.changes.basic_auth_values, 'set');
    const changed = byAction('project.settings_changed')[0]!;
    assert.deepEqual(changed.changes.max_pages, { from: 50, to: 80 });
    assert.equal(changed.changes.headers_values, 'set', 'an empty map still says the headers were sent');
    assert.equal(byAction('project.ignore_rule_added').length, 1);
    const deleted = byAction('report.deleted')[0]!;
    assert.deepEqual(deleted.target, { type: 'report', id: String(report.id) });
    assert.equal(deleted.actor_user_id, ids.member);
    const wh = byAction('webhook.created')[0]!;
    assert.equal(wh.changes.secret, 'set');
    assert.equal(wh.changes.url, t.site('hooks'), 'only the origin of the URL');

    const text = JSON.stringify(all);
    for (const secret of [
      HEADER_VALUE,
      PASSWORD,
      webhookSecret,
      'secret-path-token',
      keys.member,
      keys.admin,
    ])
      assert.ok(!text.includes(secret), `the audit log holds no secret (${secret.slice(0, 12)}…)`);
  });

  test('keys made and revoked; the CLI is "cli"; work with no requester is "system"', async () => {
    // the CLI's services run inside actingAs({actor: 'cli'}) (src/cli/accounts.ts withServices)
    const made = await actingAs({ actor: 'cli', userId: null, keyId: null, ip: null }, () =>
      t.services.keys.create('audit-viewer', { org: 'audit-acme' }),
    );
    const first = await t.services.keys.revoke(made.info.id);
    // revoking it again answers the same key (its first revocation's date) and records nothing
    const again = await t.services.keys.revoke(made.info.id);
    assert.ok(first.revokedAt);
    assert.deepEqual(again, first);
    const { data } = await entries(owner.key, '?target_type=key&per_page=100');
    const mine = data.filter((e) => e.target.id === String(made.info.id));
    assert.deepEqual(
      mine.map((e) => [e.action, e.actor]),
      [
        ['key.revoked', 'system'],
        ['key.created', 'cli'],
      ],
    );
    assert.deepEqual(mine[1]!.changes, {
      user_id: ids.viewer,
      scopes: ['read'],
      projects: null,
      expires_at: null,
    });
    assert.ok(!JSON.stringify(mine).includes(made.key));
  });

  test('the dashboard: a signed-in member is "member" with the session key; the page lists for admins', async () => {
    const browser = new Browser(t.app);
    assert.equal((await browser.login(keys.member)).statusCode, 303);
    const token = await browser.csrf('/dashboard/keys');
    const res = await browser.post('/dashboard/keys', { _csrf: token, scope: 'read', expires: 'never' });
    assert.ok(res.statusCode < 400, String(res.statusCode));
    const { data } = await entries(owner.key, '?action=key.created&per_page=100');
    const fromPage = data.find((e) => e.actor === 'member');
    assert.ok(fromPage, 'a key made on the dashboard is recorded as the member');
    assert.equal(fromPage.actor_user_id, ids.member);
    assert.ok(fromPage.ip);

    const admin = new Browser(t.app);
    assert.equal((await admin.login(keys.admin)).statusCode, 303);
    const page = await admin.get('/dashboard/audit-log?action=key.created');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Audit log<\/h1>/);
    assert.match(page.body, /key\.created/);
    assert.doesNotMatch(page.body, /report\.deleted/, 'the filter applies');
    const bad = await admin.get('/dashboard/audit-log?action=DROP%20TABLE');
    assert.equal(bad.statusCode, 422);
    const asMember = await browser.get('/dashboard/audit-log');
    assert.equal(asMember.statusCode, 403);
    assert.match(asMember.body, /admin role/);
  });

  test('paged with the envelope; filtered by actor, since and until; bad filters are 422', async () => {
    const page1 = await entries(owner.key, '?per_page=10&page=1');
    assert.ok(page1.meta.total > 10, `${page1.meta.total} entries`);
    assert.equal(page1.data.length, 10);
    const ids1 = page1.data.map((e) => e.id);
    assert.deepEqual(
      ids1,
      [...ids1].sort((a, b) => b - a),
      'newest first',
    );
    const page2 = await entries(owner.key, '?per_page=10&page=2');
    assert.ok(page2.data.every((e) => e.id < ids1.at(-1)!));
    const byAdmin = await entries(owner.key, `?actor_user_id=${ids.admin}&per_page=100`);
    assert.ok(byAdmin.data.length > 0 && byAdmin.data.every((e) => e.actor_user_id === ids.admin));
    const future = await entries(owner.key, '?since=2999-01-01T00:00:00Z');
    assert.equal(future.meta.total, 0);
    const past = await entries(owner.key, '?until=2000-01-01T00:00:00Z');
    assert.equal(past.meta.total, 0);
    const bad = await log(owner.key, '?since=yesterday&per_page=7');
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /since|per_page/);
  });

  test('admins and owners only; another organisation never sees the entries', async () => {
    for (const role of ['member', 'viewer'] as const) {
      const res = await log(keys[role]);
      assert.equal(res.statusCode, 403);
      assert.match(res.json().message, /admin role/);
    }
    assert.ok((await entries(keys.admin)).meta.total > 0);
    const theirs = await entries(other.key, '?per_page=100');
    // their own key's creation (users.create makes no entry): nothing of audit-acme
    assert.ok(theirs.data.every((e) => e.target.type !== 'member' && e.target.id !== 'audited.test'));
    assert.equal(theirs.meta.total, 0);
  });

  test('retention: the recurring task deletes entries older than PAGEGRADE_AUDIT_LOG_RETENTION_DAYS', async () => {
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    const db = t.database.db;
    await recordChange(db, days(400), other.id, {
      action: 'report.deleted',
      target: { type: 'report', id: 1 },
    });
    await recordChange(db, days(200), other.id, {
      action: 'report.deleted',
      target: { type: 'report', id: 2 },
    });
    await recordChange(db, days(1), other.id, {
      action: 'report.deleted',
      target: { type: 'report', id: 3 },
    });
    assert.equal((await entries(other.key)).meta.total, 3);
    const lines: unknown[] = [];
    const logger = { info: (o: unknown) => lines.push(o), debug() {}, warn() {}, error() {} };
    // the default: a year
    await auditLogPrune().run({ services: t.services, log: logger as never }, new AbortController().signal);
    assert.deepEqual(
      (await entries(other.key)).data.map((e) => e.target.id),
      ['3', '2'],
    );
    assert.deepEqual(lines, [{ deleted: 1 }]);
    // a shorter retention, configured
    const short = await buildTestApp(dialect, { logLevel: 'silent', config: { auditLogRetentionDays: 30 } });
    try {
      const u = await buildUser(short.services, 'audit-short');
      await recordChange(short.database.db, days(45), u.id, {
        action: 'report.deleted',
        target: { type: 'report', id: 9 },
      });
      await recordChange(short.database.db, days(5), u.id, {
        action: 'report.deleted',
        target: { type: 'report', id: 8 },
      });
      assert.equal(await short.services.auditLog.prune(), 1);
    } finally {
      await short.close();
    }
  });
});
