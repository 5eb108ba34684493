// The instance admin (docs/teams.md "The instance admin"), on SQLite and PostgreSQL:
// - storage per organisation: the bytes (UTF-8) of the stored text of its reports, their runs, its
//   crawls and their pages, shown on the admin page; another organisation's rows are not counted;
// - the instance log: disabling and enabling a person (the page, with the address), resetting a
//   second factor, making an admin (the real CLI process) and the sign-up mode are recorded with
//   who, when and from where; a change to a person is also in the audit log of each of their
//   organisations; a change that changes nothing records nothing; no secret is written;
// - `pagegrade users create` and `users reset-link` (real CLI processes) are recorded; a person's
//   own reset link is not.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';

const bytes = (...texts: (string | null)[]) =>
  texts.reduce((n, t) => n + (t === null ? 0 : Buffer.byteLength(t)), 0);

interface Entry {
  actor: string;
  actor_user_id: number | null;
  ip: string | null;
  action: string;
  target: { type: string; id: string | null };
  changes: Record<string, unknown>;
}

describeEachDialect('the instance admin', (dialect) => {
  let t: TestApp;
  let root: TestUser;
  let acme: TestUser;
  let empty: TestUser;

  before(async () => {
    // a secret key: the second factor's secret is stored encrypted
    t = await buildTestApp(dialect, { logLevel: 'silent', config: { secretKey: 'b'.repeat(64) } });
    // the first person is the instance admin
    root = await buildUser(t.services, 'admin-root');
    acme = await buildUser(t.services, 'admin-acme');
    empty = await buildUser(t.services, 'admin-empty');
  });
  after(() => t?.close());

  const orgLog = async (user: TestUser, query = '') => {
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/organization/audit-log${query}`,
      headers: user.auth,
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { data: Entry[] }).data;
  };

  test('storage: the bytes of the stored text of reports, runs, crawls and their pages', async () => {
    const db = t.database.db;
    const report = await buildReport(t.services, acme, { path: '/storage' });
    // text beyond ASCII: bytes, not characters
    await db
      .updateTable('reports')
      .set({ final_url: 'http://canned.test/straße-é' })
      .where('id', '=', report.id)
      .execute();
    await db
      .insertInto('report_runs')
      .values({
        report_id: report.id,
        number: 99,
        status: 'failed',
        source: 'api',
        error: 'Zeitüberschreitung ✓',
        final_url: null,
        result: null,
        score: null,
        categories: null,
        results: null,
        page: null,
        generated_at: new Date().toISOString(),
      })
      .execute();
    const now = new Date().toISOString();
    const batch = await db
      .insertInto('batches')
      .values({
        org_id: acme.id,
        mode: 'crawl',
        url: 'http://canned.test/',
        project: 'canned.test',
        options: '{"max_pages":10}',
        summary: null,
        findings: '[{"id":"ünïcode"}]',
        diff: null,
        error: null,
        robots_txt: 'User-agent: *',
        site_files: null,
        created_at: now,
        updated_at: now,
        started_at: null,
        finished_at: null,
        site_score: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('batch_pages')
      .values({
        batch_id: batch.id,
        url: 'http://canned.test/ü',
        report_id: null,
        status_code: null,
        final_url: null,
        canonical_key: null,
        error: 'Redirects to http://canned.test/',
        facts: '{"title":"Café"}',
        created_at: now,
        updated_at: now,
      })
      .execute();

    // what the rows hold, measured here
    const reports = await db.selectFrom('reports').selectAll().where('org_id', '=', acme.id).execute();
    const runs = await db
      .selectFrom('report_runs')
      .innerJoin('reports', 'reports.id', 'report_runs.report_id')
      .selectAll('report_runs')
      .where('reports.org_id', '=', acme.id)
      .execute();
    const batches = await db.selectFrom('batches').selectAll().where('org_id', '=', acme.id).execute();
    const pages = await db.selectFrom('batch_pages').selectAll().where('batch_id', '=', batch.id).execute();
    const expected =
      reports.reduce((n, r) => n + bytes(r.url, r.final_url, r.categories, r.results, r.page, r.render), 0) +
      runs.reduce((n, r) => n + bytes(r.final_url, r.error, r.categories, r.results, r.page, r.render), 0) +
      batches.reduce(
        (n, b) =>
          n + bytes(b.url, b.options, b.summary, b.findings, b.diff, b.robots_txt, b.site_files, b.error),
        0,
      ) +
      pages.reduce((n, p) => n + bytes(p.url, p.final_url, p.error, p.facts), 0);
    assert.ok(expected > 1000, String(expected));

    const orgs = await t.services.admin.organizations();
    const mine = orgs.find((o) => o.name === 'admin-acme')!;
    assert.equal(mine.storageBytes, expected);
    assert.equal(orgs.find((o) => o.name === 'admin-empty')!.storageBytes, 0);

    // the page shows it
    const browser = new Browser(t.app);
    assert.equal((await browser.login(root.key)).statusCode, 303);
    const page = await browser.get('/dashboard/admin');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<th scope="col">Storage<\/th>/);
    assert.ok(page.body.includes(`data-bytes="${expected}"`), 'the figure is on the page');
  });

  test("the instance log and the organisations' audit logs: who, when, from where, what", async () => {
    // anna belongs to two organisations: her own and acme
    const anna = await buildUser(t.services, 'admin-anna');
    await t.services.organizations.addMember('admin-acme', 'admin-anna', 'member');
    const browser = new Browser(t.app);
    assert.equal((await browser.login(root.key)).statusCode, 303);
    const csrf = await browser.csrf('/dashboard/admin');
    const post = (url: string, body: Record<string, string> = {}) =>
      browser.request({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf, ...body }).toString(),
        remoteAddress: '203.0.113.9',
      });
    assert.equal((await post(`/dashboard/admin/users/${anna.userId}/disable`)).statusCode, 303);
    // disabling again changes nothing and records nothing
    assert.equal((await post(`/dashboard/admin/users/${anna.userId}/disable`)).statusCode, 303);
    assert.equal((await post(`/dashboard/admin/users/${anna.userId}/enable`)).statusCode, 303);
    assert.equal((await post('/dashboard/admin/signup', { mode: 'open' })).statusCode, 303);
    assert.equal((await post('/dashboard/admin/signup', { mode: 'open' })).statusCode, 303);
    await t.services.signin.setSignupMode('closed');
    // the CLI, a real process on the same database
    const cli = await runCli(['users', 'admin', 'admin-anna', '--on'], {
      DATABASE_URL: t.database.databaseUrl,
    });
    assert.equal(cli.code, 0, cli.stderr);

    const log = await t.services.admin.log();
    const mine = log.filter((e) => e.targetId === String(anna.userId) || e.targetType === 'instance');
    assert.deepEqual(
      mine.map((e) => [e.action, e.actor, e.ip]),
      [
        ['user.admin_granted', 'cli', null],
        ['instance.signup_mode_changed', 'system', null],
        ['instance.signup_mode_changed', 'member', '203.0.113.9'],
        ['user.enabled', 'member', '203.0.113.9'],
        ['user.disabled', 'member', '203.0.113.9'],
      ],
    );
    const disabled = mine.at(-1)!;
    assert.equal(disabled.actorUserId, root.userId);
    assert.equal(disabled.actorName, 'admin-root');
    assert.deepEqual(disabled.changes, { name: 'admin-anna' });
    assert.deepEqual(mine[2]!.changes, { signup_mode: { from: 'closed', to: 'open' } });
    assert.ok(Date.now() - Date.parse(disabled.at) < 600_000);

    // in the audit log of each of anna's organisations, not in another's
    for (const owner of [anna, acme]) {
      const entries = await orgLog(owner, '?target_type=user');
      assert.deepEqual(
        entries.map((e) => [e.action, e.actor]),
        [
          ['user.admin_granted', 'cli'],
          ['user.enabled', 'member'],
          ['user.disabled', 'member'],
        ],
      );
      assert.equal(entries[2]!.ip, '203.0.113.9');
      assert.equal(entries[2]!.actor_user_id, root.userId);
      assert.deepEqual(entries[2]!.target, { type: 'user', id: String(anna.userId) });
    }
    assert.deepEqual(await orgLog(empty, '?target_type=user'), []);

    // the page shows the log
    const page = await browser.get('/dashboard/admin');
    assert.match(page.body, /Instance log/);
    assert.match(page.body, /disabled a person: admin-anna/);
    assert.match(page.body, /changed the sign-up mode: closed → open/);
    assert.ok(page.body.includes('203.0.113.9'));
    assert.ok(!page.body.includes(root.key) && !JSON.stringify(log).includes(root.key));
  });

  test('a second factor reset is recorded; resetting one that is off records nothing', async () => {
    const bob = await buildUser(t.services, 'admin-bob');
    await t.services.admin.resetSecondFactor('admin-bob');
    assert.equal((await t.services.admin.log()).filter((e) => e.targetId === String(bob.userId)).length, 0);
    // bob turns it on through the sign-in service's own enrolment
    const { secret } = await t.services.signin.totpBegin(bob.userId);
    const code = new TOTP({
      secret: Secret.fromBase32(secret),
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    }).generate();
    await t.services.signin.totpConfirm(bob.userId, code);
    assert.equal((await t.services.admin.users()).find((u) => u.name === 'admin-bob')!.totpEnabled, true);
    await t.services.admin.resetSecondFactor('admin-bob');
    const entries = (await t.services.admin.log()).filter((e) => e.targetId === String(bob.userId));
    assert.deepEqual(
      entries.map((e) => e.action),
      ['user.second_factor_reset'],
    );
    assert.deepEqual(
      (await orgLog(bob, '?action=user.second_factor_reset')).map((e) => e.target.id),
      [String(bob.userId)],
    );
  });

  test('`users create` and `users reset-link` from the command line are recorded, never the link', async () => {
    const env = { DATABASE_URL: t.database.databaseUrl };
    const created = await runCli(['users', 'create', 'admin-carla', '--email', 'carla@example.test'], env);
    assert.equal(created.code, 0, created.stderr);
    const carla = (await t.services.users.find('admin-carla'))!;
    const link = await runCli(['users', 'reset-link', 'carla@example.test'], env);
    assert.equal(link.code, 0, link.stderr);
    const url = link.stdout.trim().split('\n').at(-1)!;
    assert.match(url, /\/reset-password\//);
    // the person's own "forgot password" is not the admin's change
    await t.services.signin.resetLink('carla@example.test');
    const entries = (await t.services.admin.log()).filter((e) => e.targetId === String(carla.id));
    assert.deepEqual(
      entries.map((e) => [e.action, e.actor]),
      [
        ['user.reset_link_issued', 'cli'],
        ['user.created', 'cli'],
      ],
    );
    assert.ok(!JSON.stringify(entries).includes(url.split('/').at(-1)!), 'the token is never written');
    const own = (await t.services.users.find('admin-carla'))!;
    const carlaOrg = await t.database.db
      .selectFrom('memberships')
      .select('org_id')
      .where('user_id', '=', own.id)
      .executeTakeFirstOrThrow();
    const orgEntries = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('org_id', '=', carlaOrg.org_id)
      .where('target_type', '=', 'user')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      orgEntries.map((e) => e.action),
      ['user.created', 'user.reset_link_issued'],
    );
  });
});
