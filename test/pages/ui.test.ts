// The dashboard and report page as a person uses them (issue 13's UI items), through inject
// over the real app, services, database (both dialects) and analyzer against fixture pages.
// The same items in real Chromium (layout, print, scripts): ui-browser.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/app.js';
import { Browser, createPagesHarness, type PagesHarness } from '../helpers/pages-harness.js';

describeEachDialect('dashboard and report page, issue 13', (dialect) => {
  let h: PagesHarness;
  let b: Browser;
  const auth = () => ({ authorization: `Bearer ${h.alice.key}` });

  before(async () => {
    h = await createPagesHarness(dialect);
    b = new Browser(h.app);
    await b.login(h.alice.key);
    await h.report(h.alice, '/');
    await h.report(h.alice, '/bad');
  });
  after(() => h.close());

  test('item 1: the filter form never produces an error page; the API keeps its 422s', async () => {
    // the form's "Any result" sends result= : empty means any, no notice
    const any = await b.get('/dashboard?search=&project=&result=&sort_by=id&sort=desc&per_page=10');
    assert.equal(any.statusCode, 200);
    assert.doesNotMatch(any.body, /alert--(error|notice)/);
    assert.equal((any.body.match(/class="report-row"/g) ?? []).length, 2);

    const cases: [string, string][] = [
      ['/dashboard?per_page=1000', 'Per page cannot be “1000”, so 10 per page is shown.'],
      ['/dashboard?page=abc', 'The page cannot be “abc”, so the first page is shown.'],
      ['/dashboard?result=great', 'The result cannot be “great”, so any result is shown.'],
      ['/dashboard?sort=up&page=0', 'The order cannot be “up”, so Descending is shown.'],
    ];
    for (const [url, notice] of cases) {
      const res = await b.get(url);
      assert.equal(res.statusCode, 200, url);
      assert.ok(res.body.includes(notice), `${url}: ${notice}`);
      assert.match(res.body, /class="alert alert--notice" role="status"/, url);
      assert.equal((res.body.match(/class="report-row"/g) ?? []).length, 2, `${url}: the list is shown`);
    }
    // sort by score is a valid choice of the form, worst first when ascending
    const byScore = await b.get('/dashboard?sort_by=score&sort=asc&result=');
    assert.equal(byScore.statusCode, 200);
    assert.doesNotMatch(byScore.body, /alert--(error|notice)/);
    assert.match(byScore.body, /<option value="score" selected>Score<\/option>/);
    const scores = [...byScore.body.matchAll(/class="report-row__n">(\d+)</g)].map((m) => Number(m[1]));
    assert.deepEqual(
      scores,
      [...scores].sort((x, y) => x - y),
    );
    // the projects page reads its filters the same way
    const projects = await b.get('/dashboard/projects?per_page=1000&sort_by=&search=');
    assert.equal(projects.statusCode, 200);
    assert.ok(projects.body.includes('Per page cannot be “1000”, so 10 per page is shown.'));

    // the API stays strict
    for (const q of ['result=', 'per_page=1000', 'page=abc']) {
      const api = await h.app.inject({ method: 'GET', url: `/api/v1/reports?${q}`, headers: auth() });
      assert.equal(api.statusCode, 422, q);
    }
    const apiScore = await h.app.inject({
      method: 'GET',
      url: '/api/v1/reports?sort_by=score',
      headers: auth(),
    });
    assert.equal(apiScore.statusCode, 200);
  });

  test('item 3: on the dashboard a typed password means Password (create and privacy panel)', async () => {
    const token = await b.csrf('/dashboard');
    const created = await b.post('/dashboard/reports', {
      _csrf: token,
      url: `${h.site('pw')}/`,
      privacy: '0',
      password: 'typed',
    });
    assert.equal(created.statusCode, 303, created.body);
    const id = Number(/(\d+)$/.exec(String(created.headers.location))![1]);
    let r = await h.services.reports.getOwned(h.alice.id, id);
    assert.equal(r.privacy, 2);
    assert.equal(await h.services.reports.verifyPassword(id, 'typed'), true);
    // the privacy panel: Public chosen, a password typed → Password
    const pub = await h.report(h.alice, '/');
    const panel = await b.post(`/dashboard/reports/${pub.id}/privacy`, {
      _csrf: token,
      privacy: '0',
      password: 'p2',
    });
    assert.equal(panel.statusCode, 303);
    r = await h.services.reports.getOwned(h.alice.id, pub.id);
    assert.equal(r.privacy, 2);
    // no password typed: the privacy chosen is kept
    await b.post(`/dashboard/reports/${pub.id}/privacy`, { _csrf: token, privacy: '1', password: '' });
    assert.equal((await h.services.reports.getOwned(h.alice.id, pub.id)).privacy, 1);
  });

  test('item 10: each project row shows report count, average and worst score, bands, last audit, a link', async () => {
    const mine = await h.services.reports.list(h.alice.id, { project: 'site.test', perPage: 100 });
    assert.ok(mine.total >= 2);
    const scores = mine.items.map((r) => r.score);
    const stats = await h.services.projects.stats(h.alice.id, ['site.test', 'nothing.test']);
    const s = stats.get('site.test')!;
    assert.equal(stats.has('nothing.test'), false);
    assert.equal(s.reports, mine.total);
    assert.equal(s.worstScore, Math.min(...scores));
    assert.equal(s.averageScore, Math.round(scores.reduce((a, b) => a + b, 0) / scores.length));
    assert.equal(s.bands.good + s.bands.decent + s.bands.bad, mine.total);
    for (const band of ['good', 'decent', 'bad'] as const)
      assert.equal(s.bands[band], mine.items.filter((r) => r.result === band).length);
    const newest = mine.items
      .map((r) => r.generatedAt)
      .sort()
      .at(-1)!;
    assert.equal(s.lastAuditAt, new Date(newest).toISOString());

    const page = await b.get('/dashboard/projects');
    assert.equal(page.statusCode, 200);
    const row = page.body.slice(page.body.indexOf('>site.test</a>'));
    assert.match(row, new RegExp(`<dt>Reports</dt><dd>${s.reports}</dd>`));
    assert.match(row, new RegExp(`<dt>Average score</dt><dd>${s.averageScore}</dd>`));
    assert.match(row, new RegExp(`<dt>Worst score</dt><dd>${s.worstScore}</dd>`));
    assert.match(
      row,
      /<dt>Last audit<\/dt><dd><time datetime="[^"]+">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/time>/,
    );
    assert.match(row, /aria-label="Reports by result"/);
    assert.match(page.body, /href="\/dashboard\?project=site\.test">Open its reports<\/a>/);
    // the link opens the project's reports
    const reports = await b.get('/dashboard?project=site.test');
    assert.equal((reports.body.match(/class="report-row"/g) ?? []).length, Math.min(10, mine.total));
  });

  test('item 8: the owner re-runs a report from its page (CSRF, back to the page) and reaches its project', async () => {
    const r = await h.report(h.alice, '/', 1);
    const page = await b.get(`/reports/${r.id}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`<form method="post" action="/dashboard/reports/${r.id}/rerun"`));
    assert.match(page.body, new RegExp(`name="back" value="/reports/${r.id}"`));
    assert.match(page.body, /href="\/dashboard\?project=site\.test">All reports of site\.test<\/a>/);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body.slice(page.body.indexOf('/rerun')))![1]!;
    // without the token: refused
    assert.equal(
      (await b.post(`/dashboard/reports/${r.id}/rerun`, { back: `/reports/${r.id}` })).statusCode,
      403,
    );
    const rerun = await b.post(`/dashboard/reports/${r.id}/rerun`, {
      _csrf: token,
      back: `/reports/${r.id}`,
    });
    assert.equal(rerun.statusCode, 303);
    assert.equal(rerun.headers.location, `/reports/${r.id}?done=rerun`);
    const runs = await h.services.reports.pageHistory(await h.services.reports.getOwned(h.alice.id, r.id));
    assert.ok(JSON.stringify(runs).includes('dashboard'), 'recorded as a dashboard re-run');
    const after = await b.get(`/reports/${r.id}?done=rerun`);
    assert.match(after.body, /The report was audited again\./);
    // a back address elsewhere is not followed
    const away = await b.post(`/dashboard/reports/${r.id}/rerun`, { _csrf: token, back: '/reports/1x' });
    assert.equal(away.headers.location, '/dashboard?done=rerun');
    // others see neither the button nor the owner bar (a public report)
    const pub = await h.report(h.alice, '/');
    const anon = await new Browser(h.app).get(`/reports/${pub.id}`);
    assert.equal(anon.statusCode, 200);
    assert.doesNotMatch(anon.body, /\/rerun"/);
    // the print stylesheet: the running header, with the page's own access rule
    const css = await b.get(`/reports/${r.id}/print.css`);
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.ok(css.body.includes('counter(page)') && css.body.includes(r.url.slice(0, 20)));
    assert.equal((await new Browser(h.app).get(`/reports/${r.id}/print.css`)).statusCode, 404, 'private');
    assert.equal((await new Browser(h.app).get(`/reports/${pub.id}/print.css`)).statusCode, 200, 'public');
  });

  test('item 12: navigation to the API reference and the API keys; /dashboard/keys lists only mine; /docs carries our name', async () => {
    const dash = await b.get('/dashboard');
    assert.match(dash.body, /<a href="\/dashboard\/keys">API keys<\/a>/);
    assert.match(dash.body, /<a href="\/docs">API reference<\/a>/);
    const keys = await b.get('/dashboard/keys');
    assert.equal(keys.statusCode, 200);
    const mine = await h.services.keys.list(h.alice.id);
    const bobs = await h.services.keys.list(h.bob.id);
    for (const k of mine) assert.ok(keys.body.includes(`<code>${k.prefix}…</code`));
    for (const k of bobs) assert.ok(!keys.body.includes(k.prefix));
    assert.ok(keys.body.includes('(this session)'));
    assert.ok(!keys.body.includes(h.alice.key), 'never the secret');
    const anon = await new Browser(h.app).get('/dashboard/keys');
    assert.equal(anon.statusCode, 303);
    const docs = await h.app.inject({ url: '/docs/' });
    const docsPage =
      docs.statusCode === 302 || docs.statusCode === 301
        ? await h.app.inject({ url: String(docs.headers.location) })
        : docs;
    assert.equal(docsPage.statusCode, 200);
    assert.match(docsPage.body, /<title>Pagegrade API reference<\/title>/);
    assert.doesNotMatch(docsPage.body, /<title>Swagger UI<\/title>/);
  });

  test('item 13: auditing a URL that has a report offers to re-run it or create another; the API still creates', async () => {
    const existing = await h.report(h.alice, '/');
    const before = (await h.services.reports.list(h.alice.id, {})).total;
    const token = await b.csrf('/dashboard');
    const offer = await b.post('/dashboard/reports', { _csrf: token, url: `${h.site('site')}/#top`, privacy: '0' });
    assert.equal(offer.statusCode, 200);
    assert.equal((await h.services.reports.list(h.alice.id, {})).total, before, 'nothing created yet');
    assert.match(offer.body, /You already have a report of/);
    const newest = (await h.services.reports.sameUrl(h.alice.id, `${h.site('site')}/`))[0]!;
    assert.ok(newest.id >= existing.id);
    assert.match(offer.body, new RegExp(`action="/dashboard/reports/${newest.id}/rerun"`));
    assert.match(offer.body, /Re-run the existing report/);
    assert.match(offer.body, /name="another" value="1"/);
    // create another: a new report
    const another = await b.post('/dashboard/reports', {
      _csrf: token,
      url: `${h.site('site')}/`,
      privacy: '0',
      another: '1',
    });
    assert.equal(another.statusCode, 303);
    assert.equal((await h.services.reports.list(h.alice.id, {})).total, before + 1);
    // another user's report of the same URL is not offered
    const bobToken = new Browser(h.app);
    await bobToken.login(h.bob.key);
    const t2 = await bobToken.csrf('/dashboard');
    const bobCreate = await bobToken.post('/dashboard/reports', { _csrf: t2, url: `${h.site('site')}/`, privacy: '0' });
    assert.equal(bobCreate.statusCode, 303);
    // the API keeps creating
    const api = await h.app.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `url=${encodeURIComponent(`${h.site('site')}/`)}`,
    });
    assert.equal(api.statusCode, 201);
  });
});
