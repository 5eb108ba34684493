// A project as a site through the API (docs/sites.md, "Projects as sites"), on every dialect:
// PUT creates a project before its first report (listed with 0 reports, deleted as any), GET
// shows its settings without the secrets, PATCH changes one field, invalid values and unknown
// fields are 422 naming the field, the secrets are encrypted at rest (the raw row holds no
// plain value), another user's project is 404, and POST …/crawls starts a batch with the
// settings that runs (real job engine) against a fixture site on 127.0.0.1 — then the project
// shows that crawl and its site score. Every response is checked against the OpenAPI document.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bandOf } from '../../src/analyzer/scoring.js';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { forEachDialect } from '../helpers/api-harness.js';

const SECRET_KEY = 'a'.repeat(64);

interface Detail {
  project: string;
  reports_count: number;
  latest_crawl: { id: number; status: string; options: { max_pages: number; max_depth: number } } | null;
  site_score: number | null;
  band: string | null;
  settings: Record<string, unknown> & {
    headers: { name: string; set: true }[];
    cookies: { name: string; set: true }[];
    basic_auth: { username: string; password_set: true } | null;
  };
}

describeEachDialect('project settings API', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let site: FixtureSite;
  let alice: TestUser;
  let bob: TestUser;
  let project: string;

  before(async () => {
    app = await startBatchApp(dialect, { config: { secretKey: SECRET_KEY, batchMaxPages: 500 } });
    t = app.t;
    site = await startFixtureSite({ pages: 20, crawlDelay: null });
    project = new URL(site.origin).hostname;
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
  });
  after(async () => {
    try {
      if (t) await checkAgainstOpenApi({ ...t, alice, bob });
    } finally {
      await app?.close();
      await site?.close();
    }
  });

  const send = (method: string, url: string, user: TestUser, body?: unknown) =>
    t.request({
      method: method as 'GET',
      url,
      headers: { ...user.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const detailOf = (res: { json(): unknown }) => (res.json() as { data: Detail }).data;

  test('PUT creates a project before its first report; it is listed with 0 reports', async () => {
    const res = await send('PUT', `/api/v1/projects/WWW.${project.toUpperCase()}`, alice, {
      start_url: `${site.origin}/`,
      max_pages: 5,
      max_depth: 2,
      exclude: ['/nothing/*'],
      schedule: { every: 'daily', timezone: 'Europe/Paris' },
      headers: { 'X-Staging-Token': 'header-secret-value' },
      cookies: { session: 'cookie-secret-value' },
      basic_auth: { username: 'staging', password: 'password-secret-value' },
      ignore: [{ id: 'meta_description', url_pattern: '/blog/*', reason: 'no descriptions there' }],
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers.location, `http://pagegrade.test:8080/api/v1/projects/${project}`);
    const d = detailOf(res);
    assert.equal(d.project, project);
    assert.equal(d.reports_count, 0);
    assert.equal(d.latest_crawl, null);
    assert.equal(d.site_score, null);
    assert.equal(d.band, null);
    const list = await send('GET', '/api/v1/projects', alice);
    assert.equal(list.statusCode, 200);
    const listed = (list.json() as { data: { project: string; reports_count: number }[] }).data;
    assert.deepEqual(
      listed.find((p) => p.project === project),
      {
        project,
        reports_count: 0,
        created_at: (listed.find((p) => p.project === project) as never)['created_at'],
      },
    );
    // PUT again replaces (200)
    const again = await send('PUT', `/api/v1/projects/${project}`, alice, {
      start_url: `${site.origin}/`,
      max_pages: 5,
      max_depth: 2,
      schedule: { every: 'daily', timezone: 'Europe/Paris' },
      headers: { 'X-Staging-Token': 'header-secret-value' },
      cookies: { session: 'cookie-secret-value' },
      basic_auth: { username: 'staging', password: 'password-secret-value' },
      ignore: [{ id: 'meta_description', url_pattern: '/blog/*', reason: 'no descriptions there' }],
    });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(detailOf(again).settings['exclude'], []);
  });

  test('GET shows the settings without the secrets; the raw row holds no plain secret', async () => {
    const res = await send('GET', `/api/v1/projects/${project}`, alice);
    assert.equal(res.statusCode, 200, res.body);
    const s = detailOf(res).settings;
    assert.equal(s['start_url'], `${site.origin}/`);
    assert.equal(s['mode'], 'crawl');
    assert.equal(s['max_pages'], 5);
    assert.deepEqual(s['schedule'], { every: 'daily', timezone: 'Europe/Paris' });
    assert.deepEqual(s.headers, [{ name: 'x-staging-token', set: true }]);
    assert.deepEqual(s.cookies, [{ name: 'session', set: true }]);
    assert.deepEqual(s.basic_auth, { username: 'staging', password_set: true });
    const rules = s['ignore'] as { rule_id: string }[];
    assert.match(rules[0]?.rule_id ?? '', /^rule_[0-9a-f]{12}$/);
    assert.deepEqual(rules, [
      {
        rule_id: rules[0]!.rule_id,
        id: 'meta_description',
        url_pattern: '/blog/*',
        reason: 'no descriptions there',
        expires_at: null,
      },
    ]);
    for (const secret of ['header-secret-value', 'cookie-secret-value', 'password-secret-value'])
      assert.ok(!res.body.includes(secret), secret);
    const row = await t.database.db
      .selectFrom('projects')
      .select(['settings', 'secrets'])
      .where('org_id', '=', alice.id)
      .where('name', '=', project)
      .executeTakeFirstOrThrow();
    const raw = JSON.stringify(row);
    for (const secret of ['header-secret-value', 'cookie-secret-value', 'password-secret-value'])
      assert.ok(!raw.includes(secret), `${secret} is stored in clear`);
    assert.match(row.secrets ?? '', /^v1\./);
  });

  test('PATCH changes one field and keeps the others (secrets too)', async () => {
    const res = await send('PATCH', `/api/v1/projects/${project}`, alice, { max_pages: 7 });
    assert.equal(res.statusCode, 200, res.body);
    const s = detailOf(res).settings;
    assert.equal(s['max_pages'], 7);
    assert.equal(s['max_depth'], 2);
    assert.deepEqual(s.basic_auth, { username: 'staging', password_set: true });
    assert.deepEqual(s.headers, [{ name: 'x-staging-token', set: true }]);
    const cleared = await send('PATCH', `/api/v1/projects/${project}`, alice, { schedule: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(detailOf(cleared).settings['schedule'], null);
  });

  test('a PATCH without a body changes nothing and answers the project', async () => {
    const res = await t.request({ method: 'PATCH', url: `/api/v1/projects/${project}`, headers: alice.auth });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(detailOf(res).settings['max_pages'], 7);
  });

  test('invalid values and unknown fields are 422 naming the field', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ mode: 'spider' }, 'mode', /crawl/],
      [{ max_pages: 0 }, 'max_pages', /at least 1/],
      [{ max_pages: 501 }, 'max_pages', /500/],
      [{ start_url: 'https://elsewhere.example/' }, 'start_url', /project's host/],
      // a nullable URL field names what it allows (not "is invalid"), with the suggestion
      [
        { start_url: 'example.com/a' },
        'start_url',
        /must be an http or https URL; did you mean https:\/\/example\.com\/a\?/,
      ],
      [{ schedule: { every: '61 * * * *' } }, 'schedule.every', /hourly, daily, weekly/],
      [{ schedule: { every: 'daily', timezone: 'Mars/Olympus' } }, 'schedule.timezone', /IANA/],
      [{ max_page: 5 }, 'max_page', /unknown; the fields are: start_url, mode/],
      [{ schedule: { every: 'daily', tz: 'UTC' } }, 'schedule.tz', /unknown/],
      [{ headers: { 'bad name': 'x' } }, 'headers', /not a valid name/],
      [{ headers: { Host: 'staging.example' } }, 'headers.Host', /belongs to the connection/],
      [{ headers: { 'Transfer-Encoding': 'chunked' } }, 'headers.Transfer-Encoding', /cannot be set/],
      [{ ignore: [{ id: 'no_such_check', reason: 'x' }] }, 'ignore.0.id', /check id or a site finding id/],
      [{ mode: 'list', urls: [] }, 'urls', /required when mode is list/],
    ];
    for (const [body, field, message] of cases) {
      const res = await send('PATCH', `/api/v1/projects/${project}`, alice, body);
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
      const errors = (res.json() as { errors: Record<string, string[]> }).errors;
      assert.ok(errors[field], `${JSON.stringify(body)}: ${res.body}`);
      assert.match(errors[field]![0]!, message);
    }
    // nothing changed
    const s = detailOf(await send('GET', `/api/v1/projects/${project}`, alice)).settings;
    assert.equal(s['mode'], 'crawl');
    assert.equal(s['max_pages'], 7);
  });

  test('keys: a read key cannot change settings (403); a key limited to other projects does not see it (404)', async () => {
    const read = await t.services.keys.create(alice.id, { scope: 'read' });
    const readUser = { ...alice, auth: { authorization: `Bearer ${read.key}` } };
    assert.equal((await send('GET', `/api/v1/projects/${project}`, readUser)).statusCode, 200);
    assert.equal(
      (await send('PATCH', `/api/v1/projects/${project}`, readUser, { max_depth: 1 })).statusCode,
      403,
    );
    assert.equal((await send('POST', `/api/v1/projects/${project}/crawls`, readUser)).statusCode, 403);
    const other = await t.services.keys.create(alice.id, { scope: 'write', projects: ['elsewhere.test'] });
    const otherUser = { ...alice, auth: { authorization: `Bearer ${other.key}` } };
    for (const [method, url, body] of [
      ['GET', `/api/v1/projects/${project}`, undefined],
      ['PUT', `/api/v1/projects/${project}`, {}],
      ['PATCH', `/api/v1/projects/${project}`, { max_depth: 1 }],
      ['POST', `/api/v1/projects/${project}/crawls`, undefined],
    ] as const) {
      const res = await send(method, url, otherUser, body);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    // its own project it may set up
    assert.equal((await send('PUT', '/api/v1/projects/elsewhere.test', otherUser, {})).statusCode, 201);
  });

  test("another user's project is 404; bob's own PUT is his project", async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { max_pages: 3 }],
      ['POST', undefined],
    ] as const) {
      const url = method === 'POST' ? `/api/v1/projects/${project}/crawls` : `/api/v1/projects/${project}`;
      const res = await send(method, url, bob, body);
      assert.equal(res.statusCode, 404, `${method}: ${res.body}`);
      assert.equal((res.json() as { message: string }).message, 'No such project.');
    }
    const res = await send('PUT', `/api/v1/projects/${project}`, bob, {});
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(detailOf(res).settings['start_url'], null);
    // without a start_url, crawling is 422
    const crawl = await send('POST', `/api/v1/projects/${project}/crawls`, bob);
    assert.equal(crawl.statusCode, 422, crawl.body);
    assert.match((crawl.json() as { errors: { start_url: string[] } }).errors.start_url[0]!, /no start_url/);
    // a project with 0 reports is deleted as any
    const del = await send('DELETE', `/api/v1/projects/${project}`, bob);
    assert.equal(del.statusCode, 200, del.body);
    assert.equal((del.json() as { reports_deleted: number }).reports_deleted, 0);
    assert.equal((await send('GET', `/api/v1/projects/${project}`, bob)).statusCode, 404);
  });

  test('POST …/crawls starts a batch with the settings; the project then shows it and its site score', async () => {
    const res = await send('POST', `/api/v1/projects/${project}/crawls`, alice);
    assert.equal(res.statusCode, 202, res.body);
    const batch = (res.json() as { data: { id: number; url: string; options: Record<string, unknown> } })
      .data;
    assert.equal(res.headers.location, `http://pagegrade.test:8080/api/v1/batches/${batch.id}`);
    assert.equal(batch.url, `${site.origin}/`);
    assert.equal(batch.options['max_pages'], 7);
    assert.equal(batch.options['max_depth'], 2);
    const ended = await batchEnded(t, alice.id, batch.id);
    assert.equal(ended.status, 'done');
    assert.ok(ended.progress.audited > 0 && ended.progress.audited <= 7, JSON.stringify(ended.progress));

    const d = detailOf(await send('GET', `/api/v1/projects/${project}`, alice));
    assert.equal(d.latest_crawl?.id, batch.id);
    assert.equal(d.latest_crawl?.status, 'done');
    assert.equal(d.reports_count, ended.progress.audited);
    // the site score: the mean of the crawl's audited pages' scores, with a report's band rules
    const reports = await send('GET', `/api/v1/reports?batch=${batch.id}&per_page=100`, alice);
    const scores = (reports.json() as { data: { score: number }[] }).data.map((r) => r.score);
    assert.equal(scores.length, ended.progress.audited);
    const mean = Math.round(scores.reduce((a, b) => a + b, 0) / scores.length);
    assert.equal(d.site_score, mean);
    assert.equal(d.band, bandOf(mean));
  });

  test('a project with settings stays when its last report goes (0 reports, listed)', async () => {
    const d = detailOf(await send('GET', `/api/v1/projects/${project}`, alice));
    await t.services.batches.delete(alice.id, d.latest_crawl!.id, { reports: true });
    const after = await send('GET', `/api/v1/projects/${project}`, alice);
    assert.equal(after.statusCode, 200, after.body);
    assert.equal(detailOf(after).reports_count, 0);
    assert.equal(detailOf(after).latest_crawl, null);
    assert.equal(detailOf(after).settings['max_pages'], 7);
    const list = (await send('GET', '/api/v1/projects', alice)).json() as {
      data: { project: string; reports_count: number }[];
      meta: { total: number };
    };
    assert.equal(list.data.find((p) => p.project === project)?.reports_count, 0);
    assert.equal(list.meta.total, list.data.length);
  });
});

forEachDialect('project settings without PAGEGRADE_SECRET_KEY', (h) => {
  test('settings holding a secret are refused with 422 naming the field and how to set the key', async () => {
    const url = '/api/v1/projects/nokey.test';
    for (const [field, value] of [
      ['headers', { 'X-Token': 'plain-secret' }],
      ['cookies', { session: 'plain-secret' }],
      ['basic_auth', { username: 'u', password: 'plain-secret' }],
    ] as const) {
      const res = await h().request({
        method: 'PUT',
        url,
        headers: { ...h().alice.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ [field]: value }),
      });
      assert.equal(res.statusCode, 422, res.body);
      const errors = (res.json() as { errors: Record<string, string[]> }).errors;
      assert.match(errors[field]![0]!, /PAGEGRADE_SECRET_KEY, which is not set/);
    }
    // nothing was created; settings without secrets are stored
    const row = await h()
      .database.db.selectFrom('projects')
      .select('secrets')
      .where('name', '=', 'nokey.test')
      .executeTakeFirst();
    assert.equal(row, undefined);
    const ok = await h().request({
      method: 'PUT',
      url,
      headers: { ...h().alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ start_url: 'https://nokey.test/', headers: {} }),
    });
    assert.equal(ok.statusCode, 201, ok.body);
  });
});
