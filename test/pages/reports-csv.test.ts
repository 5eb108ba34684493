// The dashboard's "Download CSV" (docs/pages.md): a link on the reports list carrying the
// current filters and order (not the page), answered from the session (no API key) with the
// API's CSV of every matching report — on SQLite and PostgreSQL. The CSV itself is tested in
// test/api/reports-csv.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { insertReports } from '../helpers/db.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { REPORT_CSV_COLUMNS } from '../../src/web/reports.js';

describeEachDialect('dashboard: Download CSV', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
    await insertReports(
      t.database.db,
      alice.id,
      Array.from({ length: 30 }, (_, i) => ({
        url: `https://${i % 2 ? 'odd' : 'even'}.example/p${i}`,
        result: i % 3 === 0 ? ('bad' as const) : ('good' as const),
      })),
    );
    await insertReports(t.database.db, bob.id, [{ url: 'https://even.example/bob' }]);
  });
  after(() => t.close());

  const lines = (body: string) => body.trimEnd().split('\n');

  test('the link carries the filters and order, not the page; it downloads every match', async () => {
    const b = new Browser(t.app);
    await b.login(alice.key);
    const page = await b.get(
      '/dashboard?project=even.example&result=good&sort_by=url&sort=asc&per_page=10&page=2',
    );
    assert.equal(page.statusCode, 200);
    const href = /<a class="button button--small" href="([^"]+)" download>Download CSV/.exec(page.body)?.[1];
    assert.equal(
      href,
      '/dashboard/reports.csv?project=even.example&amp;result=good&amp;sort_by=url&amp;sort=asc',
    );
    const res = await b.get(href!.replaceAll('&amp;', '&'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(
      String(res.headers['content-disposition']),
      /^attachment; filename="reports-even\.example-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = lines(res.body);
    assert.equal(header, REPORT_CSV_COLUMNS.join(','));
    // even pages 0..28 step 2 (15), of which multiples of 3 are bad (0, 6, 12, 18, 24): 10 good
    const urls = rows.map((r) => r.split(',')[1]);
    const expected = Array.from({ length: 15 }, (_, k) => 2 * k)
      .filter((i) => i % 3 !== 0)
      .map((i) => `https://even.example/p${i}`)
      .sort();
    assert.deepEqual(urls, expected);
  });

  test('no filters: every report of the user, none of another user’s', async () => {
    const b = new Browser(t.app);
    await b.login(alice.key);
    const page = await b.get('/dashboard');
    assert.match(page.body, /href="\/dashboard\/reports\.csv" download>Download CSV/);
    const res = await b.get('/dashboard/reports.csv');
    assert.equal(lines(res.body).length, 1 + 30);
    assert.ok(!res.body.includes('bob'), 'no other user’s report');
  });

  test('forgiving filters: a bad value is ignored, as on the page', async () => {
    const b = new Browser(t.app);
    await b.login(alice.key);
    const res = await b.get('/dashboard/reports.csv?result=excellent&sort_by=nope&project=');
    assert.equal(res.statusCode, 200);
    assert.equal(lines(res.body).length, 1 + 30);
  });

  test('signed out: to the sign-in page, no CSV', async () => {
    const res = await new Browser(t.app).get('/dashboard/reports.csv');
    assert.equal(res.statusCode, 303);
    assert.match(String(res.headers.location), /^\/login/);
  });

  test('an empty list has no download link', async () => {
    const b = new Browser(t.app);
    await b.login(alice.key);
    const page = await b.get('/dashboard?project=nothing.example');
    assert.doesNotMatch(page.body, /Download CSV/);
  });
});
