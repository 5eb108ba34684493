// The report page's schedule section: the owner sets a schedule (preset or custom cron, in a
// timezone), sees its next run, the dashboard marks the report, a bad cron or timezone is shown
// next to its field in the form's words, clear; another user gets no form and a 404 on the
// forms — on SQLite and PostgreSQL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';

describeEachDialect('schedule on the report page', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
  });
  after(async () => {
    await t.close();
  });

  test('set (preset, then custom cron), see the next run, marked on the dashboard, clear', async () => {
    const r = await buildReport(t.services, alice, { path: '/scheduled' });
    const b = new Browser(t.app);
    await b.login(alice.key);
    let page = await b.get(`/reports/${r.id}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="schedule-title">Schedule</);
    assert.match(page.body, /Not scheduled/);
    // the score first, the schedule form below it and the fixes (issue 23 §5: on a phone the
    // form filled the first screen)
    const gauge = page.body.indexOf('class="summary__gauge"');
    assert.ok(gauge > 0 && gauge < page.body.indexOf('id="schedule"'), 'the score comes before the schedule');
    assert.ok(page.body.indexOf('id="schedule"') < page.body.indexOf('class="facts facts--page"'));
    const token = await b.csrf(`/reports/${r.id}`);

    // without the CSRF token: refused, nothing stored
    let res = await b.post(`/reports/${r.id}/schedule`, { choice: 'daily', timezone: 'UTC' });
    assert.equal(res.statusCode, 403);
    assert.equal((await t.services.schedules.ofReports(alice.id, [r.id])).size, 0);

    res = await b.post(`/reports/${r.id}/schedule`, {
      _csrf: token,
      choice: 'daily',
      cron: '',
      timezone: 'Europe/Paris',
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/reports/${r.id}?done=scheduled#schedule`);
    let s = await t.services.schedules.get(alice.id, r.id);
    assert.equal(s.every, 'daily');
    assert.equal(s.timezone, 'Europe/Paris');
    page = await b.get(`/reports/${r.id}?done=scheduled`);
    assert.match(page.body, /The schedule was saved\./);
    assert.match(page.body, /daily \(Europe\/Paris\)/);
    const next = /<time datetime="([^"]+)" id="schedule-next-run">/.exec(page.body)?.[1];
    assert.equal(next, s.nextRunAt, 'the next run is shown');
    assert.ok(Date.parse(next!) > Date.now(), 'in the future');
    assert.match(page.body, /<option value="daily" selected>/);
    assert.match(page.body, /Clear schedule/);

    // a custom cron replaces it
    res = await b.post(`/reports/${r.id}/schedule`, {
      _csrf: token,
      choice: 'custom',
      cron: '30  6 * * 1-5',
      timezone: 'America/New_York',
    });
    assert.equal(res.statusCode, 303);
    s = await t.services.schedules.get(alice.id, r.id);
    assert.equal(s.every, '30 6 * * 1-5');
    page = await b.get(`/reports/${r.id}`);
    assert.match(page.body, /<option value="custom" selected>/);
    assert.match(page.body, /value="30 6 \* \* 1-5"/);
    assert.match(page.body, /cron 30 6 \* \* 1-5 \(America\/New_York\)/);

    // the dashboard marks the scheduled report, not the others
    const other = await buildReport(t.services, alice, { path: '/not-scheduled' });
    const dash = await b.get('/dashboard');
    assert.equal(dash.statusCode, 200);
    const row = (id: number) =>
      new RegExp(`<li class="report-row" id="report-${id}">[\\s\\S]*?</li>`).exec(dash.body)?.[0] ?? '';
    assert.match(
      row(r.id),
      /class="schedule-mark"[^>]*>Scheduled: cron 30 6 \* \* 1-5 \(America\/New_York\), next /,
    );
    assert.doesNotMatch(row(other.id), /schedule-mark/);

    // clear
    res = await b.post(`/reports/${r.id}/schedule/delete`, { _csrf: token });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/reports/${r.id}?done=unscheduled`);
    assert.equal((await t.services.schedules.ofReports(alice.id, [r.id])).size, 0);
    page = await b.get(`/reports/${r.id}?done=unscheduled`);
    assert.match(page.body, /The schedule was cleared\./);
    assert.match(page.body, /Not scheduled/);
    assert.doesNotMatch(page.body, /Clear schedule/);
    assert.doesNotMatch((await b.get('/dashboard')).body, /schedule-mark/);
  });

  test('a bad cron, an empty custom and a bad timezone are shown next to their fields', async () => {
    const r = await buildReport(t.services, alice, { path: '/bad-cron' });
    const b = new Browser(t.app);
    await b.login(alice.key);
    const token = await b.csrf(`/reports/${r.id}`);

    let res = await b.post(`/reports/${r.id}/schedule`, {
      _csrf: token,
      choice: 'custom',
      cron: '61 * * * *',
      timezone: 'UTC',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="schedule-cron"[^>]*aria-invalid="true"/);
    assert.match(
      res.body,
      /id="schedule-cron-error">The cron expression must have 5 fields \(minute hour day-of-month month day-of-week\), e\.g\. &quot;30 6 \* \* 1-5&quot;; in &quot;61 \* \* \* \*&quot; the minute &quot;61&quot; is not valid \(0-59\)\.</,
    );
    assert.match(res.body, /value="61 \* \* \* \*"/, 'the form is refilled');
    assert.doesNotMatch(res.body, /The every field/, 'in the form’s words');

    res = await b.post(`/reports/${r.id}/schedule`, {
      _csrf: token,
      choice: 'custom',
      cron: '0 0 31 2 *',
      timezone: 'UTC',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="schedule-cron-error">[^<]*never runs/);

    res = await b.post(`/reports/${r.id}/schedule`, {
      _csrf: token,
      choice: 'custom',
      cron: '',
      timezone: 'UTC',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="schedule-cron-error">Write a cron expression for Custom/);

    // "Render each run with a browser" where this process has no Chromium: the error is beside
    // the box, which stays ticked
    res = await b.post(`/reports/${r.id}/schedule`, {
      _csrf: token,
      choice: 'daily',
      timezone: 'UTC',
      render: '1',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="schedule-render"[^>]* checked aria-invalid="true"/);
    assert.match(res.body, /id="schedule-render-error">Rendered audits are not available in this process\./);

    res = await b.post(`/reports/${r.id}/schedule`, { _csrf: token, choice: 'monthly', timezone: 'UTC' });
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="schedule-choice-error">Audit again must be one of: hourly, daily, weekly, custom\./,
    );

    res = await b.post(`/reports/${r.id}/schedule`, {
      _csrf: token,
      choice: 'hourly',
      timezone: 'Mars/Olympus',
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="schedule-timezone-error">The timezone must be an IANA time zone name/);
    assert.match(res.body, /value="Mars\/Olympus"/);

    assert.equal((await t.services.schedules.ofReports(alice.id, [r.id])).size, 0, 'nothing was stored');
  });

  test('another user sees no schedule form and cannot set or clear one', async () => {
    const r = await buildReport(t.services, alice, { path: '/alices', privacy: 0 });
    await t.services.schedules.put(alice.id, r.id, { every: 'weekly', timezone: 'UTC' });
    const b = new Browser(t.app);
    await b.login(bob.key);
    const page = await b.get(`/reports/${r.id}`);
    assert.equal(page.statusCode, 200, 'a public report');
    assert.doesNotMatch(page.body, /id="schedule-title"/);
    assert.doesNotMatch(page.body, /\/schedule"/);
    const token = await b.csrf('/dashboard');
    let res = await b.post(`/reports/${r.id}/schedule`, { _csrf: token, choice: 'hourly', timezone: 'UTC' });
    assert.equal(res.statusCode, 404);
    res = await b.post(`/reports/${r.id}/schedule/delete`, { _csrf: token });
    assert.equal(res.statusCode, 404);
    assert.equal((await t.services.schedules.get(alice.id, r.id)).every, 'weekly', 'unchanged');

    // signed out: no form either
    const anon = await t.app.inject({ url: `/reports/${r.id}` });
    assert.doesNotMatch(anon.body, /id="schedule-title"/);
  });
});
