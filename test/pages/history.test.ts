// The report page's history (the score chart and "changed since the last run") and the
// dashboard's trend arrows, over every dialect, with real audits of fixture pages that change
// between runs: what is shown, escaping of the audited page's text in the changes, the failed
// re-audit notice, no inline script or style (the CSP), and the dashboard re-run's source.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml as escape } from '../../src/html-escape.js';
import { describeEachDialect } from '../helpers/app.js';
import { goodPage, html } from '../helpers/fixture-server.js';
import { Browser, createPagesHarness, type PagesHarness } from '../helpers/pages-harness.js';

const count = (body: string, re: RegExp) => (body.match(re) ?? []).length;

describeEachDialect('report history on the pages', (dialect) => {
  let h: PagesHarness;
  let origin: string;

  before(async () => {
    h = await createPagesHarness(dialect);
    origin = h.site('site');
  });
  after(() => h.close());

  test('one run: no history section; after re-audits: the chart and what changed', async () => {
    h.fixture.route('/changing', html(goodPage(origin)));
    const r = await h.report(h.alice, '/changing');
    const first = await new Browser(h.app).get(`/reports/${r.id}`);
    assert.equal(first.statusCode, 200);
    assert.ok(!first.body.includes('class="history"'), 'no history for a first run');

    h.fixture.route('/changing', html(goodPage(origin).replace(/<title>[^<]*<\/title>\n/, '')));
    await h.services.reports.update(h.alice.id, r.id, { results: true });
    h.fixture.route('/changing', {
      status: 200,
      headers: { 'content-type': 'application/pdf' },
      body: '%PDF',
    });
    const failed = await h.services.reports.reaudit(h.alice.id, r.id, { source: 'schedule' });
    assert.equal(failed.status, 'failed');

    const res = await new Browser(h.app).get(`/reports/${r.id}`);
    assert.equal(res.statusCode, 200);
    const body = res.body;
    assert.ok(body.includes('<h2 id="history-title" class="history__title">History</h2>'));
    // the chart: two completed runs as points joined by a line, the failed one as a cross
    assert.match(
      body,
      /<svg class="chart" viewBox="0 0 640 210" role="img" aria-labelledby="history-chart-title history-chart-desc">/,
    );
    assert.equal(count(body, /<circle class="chart__point band-(good|decent|bad)"/g), 2);
    assert.equal(count(body, /class="chart__failed"/g), 1);
    assert.equal(count(body, /<polyline class="chart__line"/g), 1);
    assert.match(
      body,
      /<desc id="history-chart-desc">Score of 2 completed runs, from \d+ on \d{4}-\d\d-\d\d \d\d:\d\d UTC to \d+ on \d{4}-\d\d-\d\d \d\d:\d\d UTC; 1 failed run\.<\/desc>/,
    );
    assert.match(body, /<title>Run 3 · [^<]+ · failed: [^<]+<\/title>/);
    // the failed re-audit is said, with its reason
    assert.ok(
      body.includes(`could not fetch the page: ${failed.status === 'failed' ? escape(failed.reason) : ''}`),
    );
    // changed since the last run: run 1 → run 2
    assert.ok(body.includes('Changed since the last run'));
    assert.match(body, /From run 1 \(<time[^>]*>[^<]+<\/time>\) to run 2/);
    assert.ok(body.includes('<strong>Regression:</strong> a high-priority check newly failed.'));
    assert.ok(body.includes('Newly failed (1)'));
    assert.match(
      body,
      /<li class="history__item history__item--failed"><a href="#check-title">The title is missing, repeated or of the wrong length<\/a> <span class="priority priority--high">High<\/span> <span class="history__states">was passed<\/span> <span class="history__values">“Fixture Gardening Guide for Small Balconies” → none<\/span><\/li>/,
    );
    assert.ok(body.includes('No longer judged (1)'));
    assert.ok(body.includes('href="#check-content_keywords"'));
    assert.match(body, /HTML size: ([\d.]+ kB → [\d.]+ kB|[\d,]+ B → [\d,]+ B)</);
    assert.ok(!/<script>(?!<\/script>)/.test(body), 'no inline script');
    assert.ok(!/ style=/.test(body), 'no inline style');
  });

  test('runs of one day: the chart says their times; an older run viewed; two chosen runs compared', async () => {
    h.fixture.route('/day', html(goodPage(origin)));
    const r = await h.report(h.alice, '/day');
    h.fixture.route('/day', html(goodPage(origin).replace(/<title>[^<]*<\/title>\n/, '')));
    await h.services.reports.update(h.alice.id, r.id, { results: true });
    h.fixture.route('/day', html(goodPage(origin).replace('<h1>', '<h1>Again: ')));
    await h.services.reports.update(h.alice.id, r.id, { results: true });
    const runs = (await h.services.reports.runs(h.alice.id, r.id, {})).items;
    const [run3, run2, run1] = runs as [(typeof runs)[0], (typeof runs)[0], (typeof runs)[0]];
    const hhmm = (iso: string) => iso.slice(11, 16);

    const page = await new Browser(h.app).get(`/reports/${r.id}`);
    assert.equal(page.statusCode, 200);
    // both ends of the axis on one day: the date and time on the left, the time on the right
    assert.match(
      page.body,
      new RegExp(`text-anchor="start">${run1.generatedAt.slice(0, 10)} ${hhmm(run1.generatedAt)}</text>`),
    );
    assert.match(page.body, new RegExp(`text-anchor="end">${hhmm(run3.generatedAt)} UTC</text>`));
    // the runs with a link to each, and the compare form (GET, no script needed)
    assert.ok(page.body.includes(`<a href="/reports/${r.id}?run=1">View</a>`));
    assert.ok(page.body.includes(`<a href="/reports/${r.id}?run=2">View</a>`));
    assert.match(
      page.body,
      new RegExp(`<form class="history__compare" method="get" action="/reports/${r.id}#history-changes">`),
    );
    assert.match(
      page.body,
      /<select name="from"><option value="3">[^<]*<\/option><option value="2" selected>/,
    );

    // run 1 in place of the current results, said above them
    const old = await new Browser(h.app).get(`/reports/${r.id}?run=1`);
    assert.equal(old.statusCode, 200);
    assert.match(old.body, /You are looking at run 1 of this report, audited <time/);
    assert.ok(old.body.includes(`aria-label="Score ${run1.score} out of 100`), 'run 1 score in the gauge');
    assert.ok(
      old.body.includes('<td><strong>Shown</strong></td>') || old.body.includes('<strong>Shown</strong>'),
    );
    const missing = await new Browser(h.app).get(`/reports/${r.id}?run=99`);
    assert.equal(missing.statusCode, 404);

    // run 1 compared with run 3 (two chosen runs), as the API's diff
    const cmp = await new Browser(h.app).get(`/reports/${r.id}?from=1&to=3`);
    assert.equal(cmp.statusCode, 200);
    assert.ok(cmp.body.includes('Run 1 compared with run 3'));
    assert.match(cmp.body, /From run 1 \(<time[^>]*>[^<]+<\/time>\) to run 3/);
    const api = await h.services.reports.diff(h.alice.id, r.id, { from: 1, to: 3 });
    assert.ok(cmp.body.includes(`${api.diff.score.from} → <strong>${api.diff.score.to}</strong>`));
    const bad = await new Browser(h.app).get(`/reports/${r.id}?from=99&to=3`);
    assert.equal(bad.statusCode, 200);
    assert.match(bad.body, /<p class="alert alert--error" role="alert">[^<]+<\/p>/);
    assert.ok(run2.number === 2);
    assert.ok(!/ style=/.test(old.body + cmp.body), 'no inline style');
  });

  test('text of the audited page in the changes is escaped', async () => {
    const hostile = '<script>alert(1)</script>';
    const page = (title: string) =>
      goodPage(origin).replace(
        /<title>[^<]*<\/title>/,
        `<title>${title.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</title>`,
      );
    h.fixture.route('/hostile', html(page('A quiet title')));
    const r = await h.report(h.alice, '/hostile');
    h.fixture.route('/hostile', html(page(hostile)));
    await h.services.reports.update(h.alice.id, r.id, { results: true });
    const res = await new Browser(h.app).get(`/reports/${r.id}`);
    assert.ok(res.body.includes('“A quiet title” → “&lt;script&gt;alert(1)&lt;/script&gt;”'));
    assert.ok(!res.body.includes(hostile));
  });

  test('who may see the report sees its history; a private report stays a 404', async () => {
    h.fixture.route('/private', html(goodPage(origin)));
    const r = await h.report(h.alice, '/private', 1);
    await h.services.reports.update(h.alice.id, r.id, { results: true });
    const anonymous = await new Browser(h.app).get(`/reports/${r.id}`);
    assert.equal(anonymous.statusCode, 404);
    assert.ok(!anonymous.body.includes('History'));
    const owner = new Browser(h.app);
    await owner.login(h.alice.key);
    const mine = await owner.get(`/reports/${r.id}`);
    assert.equal(mine.statusCode, 200);
    assert.ok(mine.body.includes('Changed since the last run'));
    assert.ok(
      mine.body.includes('Nothing changed since the last run.') || mine.body.includes('history__scores'),
    );
  });

  test('the dashboard: a trend arrow per re-audited report; its re-run is recorded as from the dashboard', async () => {
    h.fixture.route('/trend', html(goodPage(origin)));
    const r = await h.report(h.bob, '/trend');
    const once = await h.report(h.bob, '/');
    const b = new Browser(h.app);
    await b.login(h.bob.key);
    let token = await b.csrf('/dashboard');
    let page = await b.get('/dashboard');
    assert.equal(count(page.body, /class="trend /g), 0, 'no trend before a re-run');

    h.fixture.route('/trend', html(goodPage(origin).replace(/<title>[^<]*<\/title>\n/, '')));
    const rerun = await b.post(`/dashboard/reports/${r.id}/rerun`, { _csrf: token, back: '/dashboard' });
    assert.equal(rerun.statusCode, 303);
    const runs = await h.services.reports.runs(h.bob.id, r.id, {});
    assert.deepEqual(
      runs.items.map((x) => [x.number, x.source]),
      [
        [2, 'dashboard'],
        [1, null],
      ],
    );
    const now = (await h.services.reports.getOwned(h.bob.id, r.id)).score;
    page = await b.get('/dashboard');
    const row = page.body.slice(
      page.body.indexOf(`id="report-${r.id}"`),
      page.body.indexOf('</li>', page.body.indexOf(`id="report-${r.id}"`)),
    );
    assert.match(
      row,
      new RegExp(`class="trend trend--down" title="Down ${r.score - now} points since the last run"`),
    );
    assert.ok(row.includes(`<span class="trend__n">−${r.score - now}</span>`));
    const other = page.body.slice(page.body.indexOf(`id="report-${once.id}"`));
    assert.ok(
      !other.slice(0, other.indexOf('</li>')).includes('class="trend'),
      'a report run once has no arrow',
    );

    h.fixture.route('/trend', { status: 200, headers: { 'content-type': 'application/pdf' }, body: '%PDF' });
    token = await b.csrf('/dashboard');
    const failing = await b.post(`/dashboard/reports/${r.id}/rerun`, { _csrf: token, back: '/dashboard' });
    assert.equal(failing.statusCode, 422, 'the dashboard says the page could not be fetched');
    page = await b.get('/dashboard');
    assert.ok(page.body.includes('<span class="trend trend--failed">Last re-run failed</span>'));
    assert.ok(!/ style=/.test(page.body), 'no inline style');
  });
});
