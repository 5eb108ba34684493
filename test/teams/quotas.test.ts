// Quotas per organisation (issue 22 §5; docs/teams.md "Quotas"), on SQLite and PostgreSQL: set
// by the instance admin with `pagegrade orgs quota` (a real process on the test app's database),
// shown in GET /organization, enforced — the month's reports (429 naming the quota and when it
// resets), a crawl's pages (422 max_pages naming the limit), the schedules (422) — and only for
// the organisation they are set on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { monthOf } from '../../src/services/shared/quotas.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

describeEachDialect('quotas', (dialect) => {
  let t: TestApp;
  let acme: TestUser;
  let other: TestUser;
  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    acme = await buildUser(t.services, 'quota-acme');
    other = await buildUser(t.services, 'quota-other');
  });
  after(() => t?.close());

  const json = (user: TestUser, method: string, url: string, body?: unknown) =>
    t.request({
      method: method as 'GET',
      url,
      headers: { ...user.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  test('unset: no limit, shown as null; the CLI sets them (none clears) and GET /organization shows them', async () => {
    const before = await json(acme, 'GET', '/api/v1/organization');
    assert.deepEqual(before.json().data.quotas, {
      reports_per_month: null,
      pages_per_crawl: null,
      schedules: null,
    });
    const env = { DATABASE_URL: t.database.databaseUrl };
    const set = await runCli(
      [
        'orgs',
        'quota',
        'quota-acme',
        '--reports-per-month',
        '2',
        '--pages-per-crawl',
        '5',
        '--schedules',
        '1',
      ],
      env,
    );
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /reports per month 2, pages per crawl 5, schedules 1/);
    const bad = await runCli(['orgs', 'quota', 'quota-acme', '--schedules', '0'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--schedules must be a whole number from 1, or none; got "0"/);
    const shown = await json(acme, 'GET', '/api/v1/organization');
    assert.deepEqual(shown.json().data.quotas, { reports_per_month: 2, pages_per_crawl: 5, schedules: 1 });
    const theirs = await json(other, 'GET', '/api/v1/organization');
    assert.deepEqual(theirs.json().data.quotas, {
      reports_per_month: null,
      pages_per_crawl: null,
      schedules: null,
    });
    // recorded in the audit log as the CLI's
    const log = await json(acme, 'GET', '/api/v1/organization/audit-log?action=organization.quotas_changed');
    assert.equal(log.json().data[0].actor, 'cli');
    assert.deepEqual(log.json().data[0].changes.schedules, { from: null, to: 1 });
  });

  test('reports a month: over the quota is 429 naming it and when it resets; another organisation is not limited', async () => {
    for (const path of ['/a', '/b']) {
      const ok = await json(acme, 'POST', '/api/v1/reports', { url: `http://canned.test${path}` });
      assert.equal(ok.statusCode, 201, ok.body);
    }
    const over = await json(acme, 'POST', '/api/v1/reports', { url: 'http://canned.test/c' });
    assert.equal(over.statusCode, 429, over.body);
    const resets = monthOf(new Date()).next.toISOString();
    const body = over.json() as { message: string; errors: Record<string, string[]> };
    assert.match(body.message, /quota of 2 reports a month \(reports_per_month\)/);
    assert.ok(body.message.includes(resets), body.message);
    assert.deepEqual(body.errors, { quota: ['reports_per_month'], resets_at: [resets] });
    const retry = Number(over.headers['retry-after']);
    assert.ok(retry > 0 && retry <= 31 * 86_400, String(retry));
    const theirs = await json(other, 'POST', '/api/v1/reports', { url: 'http://canned.test/c' });
    assert.equal(theirs.statusCode, 201);
  });

  test("a crawl's max_pages over pages_per_crawl is 422 naming the field and the limit", async () => {
    const over = await json(acme, 'POST', '/api/v1/batches', {
      url: `${t.site('crawl')}/`,
      mode: 'crawl',
      max_pages: 6,
    });
    assert.equal(over.statusCode, 422, over.body);
    assert.match(
      over.json().errors?.max_pages?.[0] ?? over.body,
      /may not be greater than 5.*pages_per_crawl/,
    );
    const ok = await json(acme, 'POST', '/api/v1/batches', {
      url: `${t.site('crawl')}/`,
      mode: 'crawl',
      max_pages: 5,
    });
    assert.equal(ok.statusCode, 202, ok.body);
  });

  test('one schedule too many is 422; replacing the one there is not', async () => {
    const reports = (await json(acme, 'GET', '/api/v1/reports')).json().data as { id: number }[];
    const [first, second] = reports;
    const put = (id: number) =>
      json(acme, 'PUT', `/api/v1/reports/${id}/schedule`, { every: 'daily', timezone: 'UTC' });
    assert.equal((await put(first!.id)).statusCode, 201);
    assert.equal((await put(first!.id)).statusCode, 200, 'the same schedule replaced');
    const over = await put(second!.id);
    assert.equal(over.statusCode, 422, over.body);
    assert.match(over.json().errors.schedule[0], /quota of 1 schedules/);
    // a project's schedule counts too
    const project = await json(acme, 'PUT', '/api/v1/projects/quota.test', {
      start_url: 'http://quota.test/',
      schedule: { every: 'weekly', timezone: 'UTC' },
    });
    assert.equal(project.statusCode, 422, project.body);
    assert.ok(project.json().errors.schedule);
  });
});
