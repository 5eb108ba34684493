// The month's reports quota counts the reports a crawl makes (docs/teams.md "Quotas"), on SQLite
// and PostgreSQL with a real job engine and a site on loopback: a crawl's page that would make a
// new report past the quota is audited but skipped, its reason naming the quota (the crawl goes
// on, and pages that have a report get their run); a single audit after it is refused (429); a
// crawl of a new site with the quota used up ends failed naming the quota, and leaves no empty
// project behind.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { describeEachDialect } from '../helpers/app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

/** `n` pages: home links to every other page. */
async function site(n: number): Promise<FixtureServer> {
  const s = await startFixtureServer();
  for (let i = 0; i < n; i++) {
    const links =
      i === 0
        ? Array.from({ length: n - 1 }, (_, j) => `<a href="/p/${j + 1}">Page ${j + 1}</a>`).join(' ')
        : '<a href="/">Home</a>';
    s.route(i === 0 ? '/' : `/p/${i}`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Quota page ${i}</title></head><body><h1>Page ${i}</h1><p>Words.</p>${links}</body></html>`,
      );
    });
  }
  return s;
}

describeEachDialect('the reports quota counts what a crawl makes', (dialect) => {
  let app: BatchApp;
  let acme: TestUser;
  let first: FixtureServer;
  let second: FixtureServer;

  before(async () => {
    app = await startBatchApp(dialect);
    acme = await buildUser(app.t.services, 'crawl-quota-acme');
    first = await site(5);
    second = await site(2);
    await app.t.services.organizations.setQuotas('crawl-quota-acme', { reportsPerMonth: 3 });
  });
  after(async () => {
    await app?.close();
    await first?.close();
    await second?.close();
  });

  const crawl = async (origin: string) => {
    const b = await app.t.services.batches.create(acme.id, {
      url: `${origin}/`,
      mode: 'crawl',
      maxPages: 10,
    });
    return batchEnded(app.t, acme.id, b.id);
  };

  test('pages past the quota are skipped naming it; known pages still get their run', async () => {
    const b1 = await crawl(first.origin);
    assert.equal(b1.status, 'done');
    assert.equal(b1.progress.discovered, 5);
    assert.deepEqual(b1.reports, { created: 3, updated: 0 });
    assert.equal(b1.progress.audited, 3);
    assert.equal(b1.progress.skipped, 2);
    const failures = await app.t.services.batches.failures(acme.id, b1.id, { page: 1, perPage: 50 });
    assert.equal(failures.items.length, 2);
    for (const f of failures.items) {
      assert.equal(f.state, 'skipped');
      assert.equal(f.statusCode, 200);
      assert.match(
        f.reason,
        /^Not stored as a new report: .*quota of 3 reports a month \(reports_per_month\) is used up; it resets at /,
      );
    }
    // the same over the API: the failures list names the quota
    const res = await app.t.request({
      method: 'GET',
      url: `/api/v1/batches/${b1.id}/failures`,
      headers: acme.auth,
    });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /reports_per_month/);

    // the quota is used up: a single audit is refused (429), a second crawl updates the 3 known pages
    const single = await app.t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...acme.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'http://canned.test/quota' }),
    });
    assert.equal(single.statusCode, 429, single.body);
    const b2 = await crawl(first.origin);
    assert.deepEqual(b2.reports, { created: 0, updated: 3 });
    assert.equal(b2.progress.skipped, 2);
    const reports = await app.t.request({
      method: 'GET',
      url: '/api/v1/reports?per_page=50',
      headers: acme.auth,
    });
    assert.equal(reports.json().meta.total, 3);
  });

  test('a crawl of a new site with the quota used up makes no report and leaves no empty project', async () => {
    const before = (
      await app.t.request({ method: 'GET', url: '/api/v1/projects', headers: acme.auth })
    ).json();
    const b = await crawl(second.origin);
    // no page could be stored: the crawl ends failed, its error naming the quota
    assert.equal(b.status, 'failed');
    assert.match(
      String(b.error),
      /^No page could be audited: .*quota of 3 reports a month \(reports_per_month\) is used up/,
    );
    assert.deepEqual(b.reports, { created: 0, updated: 0 });
    assert.equal(b.progress.skipped, 2);
    const afterList = (
      await app.t.request({ method: 'GET', url: '/api/v1/projects', headers: acme.auth })
    ).json();
    assert.equal(afterList.meta.total, before.meta.total);
    // lifting the quota: the next crawl stores them
    await app.t.services.organizations.setQuotas('crawl-quota-acme', { reportsPerMonth: null });
    const again = await crawl(second.origin);
    assert.deepEqual(again.reports, { created: 2, updated: 0 });
  });
});
