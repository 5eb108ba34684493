// The test kit itself: buildTestApp on every dialect, the factories (a user whose key works
// through the API, a report stored from the canned audit without any fetch).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, describeEachDialect, type TestApp } from './app.js';
import { buildReport, buildUser, cannedAudit, CANNED_DATE } from './factories.js';

describeEachDialect('test kit', (dialect) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(dialect);
  });
  after(() => t.close());

  test('buildUser: the key authenticates API requests', async () => {
    const u = await buildUser(t.services);
    const res = await t.request({ method: 'GET', url: '/api/v1/reports', headers: u.auth });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().meta.total, 0);
  });

  test('buildReport: stored from the canned audit, no request to any server', async () => {
    const u = await buildUser(t.services, 'carol');
    const before = t.fixture.requests.length;
    const r = await buildReport(t.services, u, { path: '/pricing', site: 'shop', privacy: 1 });
    assert.equal(t.fixture.requests.length, before);
    const canned = cannedAudit('http://shop.canned.test/pricing');
    assert.equal(r.url, 'http://shop.canned.test/pricing');
    assert.equal(r.project, 'shop.canned.test');
    assert.equal(r.privacy, 1);
    assert.equal(r.score, canned.score);
    assert.equal(r.result, canned.result);
    assert.equal(r.generatedAt, CANNED_DATE.toISOString());
    const res = await t.request({ method: 'GET', url: `/api/v1/reports/${r.id}`, headers: u.auth });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.score, canned.score);
  });
});
