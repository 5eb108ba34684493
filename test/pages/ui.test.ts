// The dashboard and report page as a person uses them (issue 13's UI items), through inject
// over the real app, services, database (both dialects) and analyzer against fixture pages.
// The same items in real Chromium (layout, print, scripts): ui-browser.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/app.js';
import { Browser, createPagesHarness, type PagesHarness } from './harness.js';

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
});
