// The project page (docs/sites.md, "The project page"), on SQLite and PostgreSQL with the real
// job engine and the generated fixture site on 127.0.0.1: before any crawl; "Crawl now" from
// the page (303 to the new batch's page) twice, with the settings form saved in between; then
// the charts of the two finished crawls, the latest crawl and the API's `trend` from the same
// stored summaries; the form's 422s beside their fields (refilled, nothing saved), secrets
// shown only as set; other users, keys limited to other projects and anonymous visitors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { Browser } from '../helpers/browser.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

const SECRET_KEY = 'b'.repeat(64);

interface Trend {
  batch_id: number;
  site_score: number | null;
  band: string | null;
  pages_audited: number;
  bands: { good: number; decent: number; bad: number };
  findings: { id: string; title: string; count: number }[];
}

describeEachDialect('the project page', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let site: FixtureSite;
  let alice: TestUser;
  let bob: TestUser;
  let b: Browser;
  let token: string;
  let project: string;
  let page: string;
  const batches: number[] = [];

  before(async () => {
    app = await startBatchApp(dialect, { config: { secretKey: SECRET_KEY, batchMaxPages: 500 } });
    t = app.t;
    site = await startFixtureSite({ pages: 20, crawlDelay: null });
    project = new URL(site.origin).hostname;
    page = `/dashboard/projects/${project}`;
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
    await t.services.projects.put(alice.id, project, { start_url: `${site.origin}/`, max_pages: 8 });
    b = new Browser(t.app);
    await b.login(alice.key);
    token = await b.csrf(page);
  });
  after(async () => {
    await app?.close();
    await site?.close();
  });

  /** the form's fields as the page fills them, with `changes` */
  const settingsForm = (changes: Record<string, string> = {}) => ({
    _csrf: token,
    start_url: `${site.origin}/`,
    mode: 'crawl',
    urls: '',
    max_pages: '8',
    max_depth: '10',
    include: '',
    exclude: '',
    default_privacy: '0',
    schedule: 'none',
    cron: '',
    timezone: 'UTC',
    headers: '',
    cookies: '',
    basic_auth_username: '',
    basic_auth_password: '',
    basic_auth_had: '',
    ...changes,
  });

  const crawlNow = async () => {
    const res = await b.post(`${page}/crawl`, { _csrf: token });
    assert.equal(res.statusCode, 303, res.body);
    const m = /^\/dashboard\/batches\/(\d+)$/.exec(String(res.headers.location));
    assert.ok(m, String(res.headers.location));
    const batch = await batchEnded(t, alice.id, Number(m[1]));
    assert.equal(batch.status, 'done');
    batches.push(batch.id);
    return batch;
  };

  test('the projects list links the page; before a crawl it says so', async () => {
    const list = await b.get('/dashboard/projects');
    assert.match(list.body, new RegExp(`<a href="${page}" class="project-row__name">${project}</a>`));
    const res = await b.get(page);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, new RegExp(`<h1 class="break">${project}</h1>`));
    assert.match(res.body, /No crawl yet\./);
    assert.doesNotMatch(res.body, /id="compare-link"/, 'nothing to compare before two crawls');
    assert.match(res.body, /The charts start with the first finished crawl\./);
    assert.match(res.body, /No site score until a crawl has finished\./);
    assert.match(res.body, /id="project-start-url"[^>]*value="http:\/\/site\.test:\d+\/"/);
    assert.match(res.body, /id="project-max-pages"[^>]*value="8"/);
    assert.match(res.body, /<button type="submit" class="button button--primary">Crawl now<\/button>/);
  });

  test('Crawl now, save the settings, Crawl now: the charts and the API trend of both crawls', async () => {
    const first = await crawlNow();
    assert.equal(first.options.maxPages, 8);
    let res = await b.post(
      `${page}/settings`,
      settingsForm({ max_pages: '20', exclude: '/nothing/*', thin_content_words: '150', deep_page_depth: '3' }),
    );
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${page}?done=project_saved`);
    res = await b.get(String(res.headers.location));
    assert.match(res.body, /The project&#39;s settings were saved\.|The project's settings were saved\./);
    assert.match(res.body, /id="project-max-pages"[^>]*value="20"/);
    assert.match(res.body, /id="project-thin-content-words"[^>]*value="150"/);
    assert.match(res.body, /id="project-near-duplicate-threshold"[^>]*value="90"/);
    const second = await crawlNow();
    assert.equal(second.options.maxPages, 20);
    assert.deepEqual(
      [second.options.thinContentWords, second.options.nearDuplicateThreshold, second.options.deepPageDepth],
      [150, 90, 3],
    );
    assert.deepEqual(second.options.exclude, ['/nothing/*']);

    // the API: the trend of the two finished crawls, oldest first, from their stored summaries
    const api = await t.request({
      url: `/api/v1/projects/${project}`,
      headers: alice.auth,
    });
    assert.equal(api.statusCode, 200);
    const trend = (api.json() as { data: { trend: Trend[] } }).data.trend;
    assert.deepEqual(
      trend.map((p) => p.batch_id),
      batches,
    );
    for (const [i, id] of batches.entries()) {
      const batch = await t.services.batches.get(alice.id, id);
      const s = batch.summary!;
      assert.equal(trend[i]!.pages_audited, s.pages.audited);
      assert.deepEqual(trend[i]!.bands, s.bands);
      assert.equal(trend[i]!.site_score, Math.round(s.averageScore!));
      assert.deepEqual(trend[i]!.findings, s.findings);
    }
    assert.ok(trend[1]!.pages_audited > trend[0]!.pages_audited, 'the second crawl audited more pages');
    assert.ok(
      trend[1]!.findings.some((f) => f.count > 0),
      'the fixture site has findings',
    );

    // the page: the charts, one point and one bar a crawl; the findings table; the latest crawl
    res = await b.get(page);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<svg class="chart chart--site-score"/);
    assert.equal(res.body.split('class="chart__point').length - 1, 2);
    assert.match(res.body, /<polyline class="chart__line"/);
    assert.match(res.body, /<svg class="chart chart--bands"/);
    for (const p of trend) {
      const total = p.bands.good + p.bands.decent + p.bands.bad;
      assert.equal(total, p.pages_audited);
      assert.match(
        res.body,
        new RegExp(
          `<title>Batch #${p.batch_id} · [^<]* · ${p.bands.bad} bad, ${p.bands.decent} decent, ${p.bands.good} good</title>`,
        ),
      );
    }
    assert.match(res.body, /<table class="project-findings">/);
    for (const id of batches)
      assert.match(res.body, new RegExp(`<a href="/dashboard/batches/${id}">#${id}</a>`));
    const found = trend[1]!.findings.find((f) => f.count > 0)!;
    assert.ok(res.body.includes(`<code class="muted">${found.id}</code>`));
    assert.match(
      res.body,
      new RegExp(
        `<a href="/dashboard/batches/${second.id}" class="break" id="latest-crawl-link">Batch #${second.id}</a>`,
      ),
    );
    // two finished crawls: the last two compared, from the page
    assert.match(
      res.body,
      new RegExp(`<a href="${page}/compare" id="compare-link">Compare the last two crawls</a>`),
    );
    assert.equal((await b.get(`${page}/compare`)).statusCode, 200);
    assert.match(res.body, /<span class="batch-status batch-status--done">Done<\/span>/);
    assert.match(res.body, new RegExp(`${second.progress.audited} audited`));
    assert.match(res.body, /Site score <strong id="site-score">\d+<\/strong>/);
  });

  test("the form's 422s beside their fields, refilled, nothing saved; secrets only as set", async () => {
    const before = await t.services.projects.get(alice.id, project);
    let res = await b.post(`${page}/settings`, settingsForm({ max_pages: '501' }));
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="project-max-pages-error">The max_pages must be a whole number from 1 to 500\./,
    );
    assert.match(res.body, /id="project-max-pages"[^>]*value="501"[^>]*aria-invalid="true"/);
    assert.match(res.body, /The settings were not saved: see the fields marked below\./);

    res = await b.post(`${page}/settings`, settingsForm({ max_depth: 'deep', mode: 'everything' }));
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="project-max-depth-error">The max_depth must be a whole number from 0 to 100\./,
    );
    assert.match(res.body, /id="project-mode-error">The mode must be one of: /);

    // the links to other sites: the cap out of bounds beside its field, the box kept ticked
    res = await b.post(`${page}/settings`, settingsForm({ check_external: '1', max_external_checks: '0' }));
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="project-max-external-checks-error">[^<]*max_external_checks/);
    assert.match(
      res.body,
      /id="project-check-external" name="check_external" type="checkbox" value="1" checked/,
    );
    // a finding's threshold out of bounds: its range beside its field
    res = await b.post(`${page}/settings`, settingsForm({ deep_page_depth: '0' }));
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="project-deep-page-depth-error">[^<]*deep_page_depth[^<]*100/);

    res = await b.post(`${page}/settings`, settingsForm({ start_url: 'https://elsewhere.test/' }));
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="project-start-url-error">The start_url must be on the project&#39;s host|id="project-start-url-error">The start_url must be on the project's host/,
    );

    // a text field with a URL keyboard: a bare address reaches the server, which suggests the
    // full one (type=url would refuse it in the browser first: issue 23 §5)
    res = await b.post(`${page}/settings`, settingsForm({ start_url: `${project}/blog` }));
    assert.equal(res.statusCode, 422);
    assert.ok(res.body.includes(`did you mean https://${project}/blog?`), res.body);
    assert.match(res.body, /<input id="project-start-url" name="start_url" type="text" inputmode="url"/);
    assert.doesNotMatch(res.body, /type="url"/);

    res = await b.post(`${page}/settings`, settingsForm({ schedule: 'custom', cron: 'every blue moon' }));
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="project-cron-error">/);
    assert.match(res.body, /id="project-cron"[^>]*value="every blue moon"/);

    res = await b.post(`${page}/settings`, settingsForm({ headers: 'not a header line' }));
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="project-headers-error">The headers name/);
    assert.match(
      res.body,
      /<textarea id="project-headers"[^>]*><\/textarea>/,
      'a secret field is never refilled',
    );
    assert.deepEqual((await t.services.projects.get(alice.id, project)).settings, before.settings);

    // saved: the names only; the values never on the page
    res = await b.post(
      `${page}/settings`,
      settingsForm({
        max_pages: '20',
        headers: 'X-Staging-Token: very-secret-header',
        basic_auth_username: 'staging',
        basic_auth_password: 'very-secret-password',
        schedule: 'weekly',
        timezone: 'Europe/Paris',
      }),
    );
    assert.equal(res.statusCode, 303, res.body);
    res = await b.get(page);
    assert.match(res.body, /Request headers <span class="muted">\(set: x-staging-token\)<\/span>/);
    assert.match(res.body, /Basic auth password <span class="muted">\(set\)<\/span>/);
    assert.ok(!res.body.includes('very-secret'), 'no secret value on the page');
    assert.match(res.body, /<option value="weekly" selected>/);
    // saving again with the secret fields empty keeps them
    res = await b.post(
      `${page}/settings`,
      settingsForm({
        max_pages: '20',
        basic_auth_username: 'staging',
        basic_auth_had: 'staging',
        schedule: 'weekly',
      }),
    );
    assert.equal(res.statusCode, 303, res.body);
    let s = (await t.services.projects.get(alice.id, project)).settings;
    assert.deepEqual(s.headers, [{ name: 'x-staging-token', set: true }]);
    assert.deepEqual(s.basic_auth, { username: 'staging', password_set: true });
    // "Remove" clears them
    res = await b.post(
      `${page}/settings`,
      settingsForm({ max_pages: '20', headers_clear: '1', basic_auth_clear: '1' }),
    );
    assert.equal(res.statusCode, 303, res.body);
    s = (await t.services.projects.get(alice.id, project)).settings;
    assert.deepEqual(s.headers, []);
    assert.equal(s.basic_auth, null);
    assert.equal(s.schedule, null);
  });

  test('Crawl now without a start address: 422 beside the field, no batch', async () => {
    const other = 'nostart.test';
    await t.services.projects.put(alice.id, other, {});
    const before = (await t.services.batches.list(alice.id, { page: 1, perPage: 10 })).total;
    const res = await b.post(`/dashboard/projects/${other}/crawl`, { _csrf: token });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="project-start-url-error">The project has no start_url/);
    assert.match(res.body, /class="alert alert--error" role="alert">Not crawled: /);
    assert.equal((await t.services.batches.list(alice.id, { page: 1, perPage: 10 })).total, before);
  });

  test('owner only: other users, keys limited to other projects, anonymous visitors, CSRF', async () => {
    const anonymous = await t.app.inject({ url: page });
    assert.equal(anonymous.statusCode, 303);
    assert.equal(anonymous.headers.location, `/login?next=${encodeURIComponent(page)}`);

    const bobs = new Browser(t.app);
    await bobs.login(bob.key);
    assert.equal((await bobs.get(page)).statusCode, 404);
    const bobToken = await bobs.csrf('/dashboard/projects');
    const count = (await t.services.batches.list(alice.id, { page: 1, perPage: 10 })).total;
    assert.equal((await bobs.post(`${page}/crawl`, { _csrf: bobToken })).statusCode, 404);
    assert.equal(
      (await bobs.post(`${page}/settings`, { ...settingsForm(), _csrf: bobToken })).statusCode,
      404,
    );
    assert.equal((await t.services.batches.list(alice.id, { page: 1, perPage: 10 })).total, count);

    // a key of alice's limited to another project signs in to a dashboard without this one
    const limited = await t.services.keys.create(alice.id, { scope: 'write', projects: ['elsewhere.test'] });
    const lb = new Browser(t.app);
    await lb.login(limited.key);
    assert.equal((await lb.get(page)).statusCode, 404);

    assert.equal((await b.post(`${page}/crawl`, {})).statusCode, 403, 'no CSRF token');
    assert.equal((await b.get('/dashboard/projects/no%00pe')).statusCode, 404);
    assert.equal((await b.get('/dashboard/projects/unknown.test')).statusCode, 404);
  });
});
