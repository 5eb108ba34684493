// GET /metrics (Prometheus, prom-client): off unless PAGEGRADE_METRICS=1; Bearer-protected by
// PAGEGRADE_METRICS_TOKEN; requests by route and status, audits by result, fetch failures by
// reason, rate-limit refusals, the database pool, the job queue's depth and the default process
// metrics — on SQLite and PostgreSQL, over the real app, fetching pages from the fixture site.
// The registry is process-wide, so the tests compare counts before and after.
// Also: the standard RateLimit-Limit/Remaining/Reset headers beside X-RateLimit-*.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

const TOKEN = 'metrics-token-0123456789';

/** the value of one sample (0 when absent) */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

describeEachDialect('GET /metrics', (dialect) => {
  let t: TestApp;
  let off: TestApp;
  let alice: TestUser;
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.statusCode, 200);
    return res.body;
  };

  before(async () => {
    t = await buildTestApp(dialect, { metrics: true, metricsToken: TOKEN, rateLimit: 3, logLevel: 'silent' });
    off = await buildTestApp(dialect, { logLevel: 'silent' });
    alice = await buildUser(t.services, 'alice');
  });
  after(async () => {
    await t.close();
    await off.close();
  });

  test('off unless PAGEGRADE_METRICS=1: 404', async () => {
    const res = await off.app.inject({ url: '/metrics' });
    assert.equal(res.statusCode, 404);
  });

  test('the token: 401 without it or with another, 200 with it', async () => {
    const none = await t.app.inject({ url: '/metrics' });
    assert.equal(none.statusCode, 401);
    assert.match(String(none.headers['content-type']), /^application\/json/);
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    const wrong = await t.app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer nope-nope-nope-nope' },
    });
    assert.equal(wrong.statusCode, 401);
    const ok = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(ok.statusCode, 200);
    assert.match(String(ok.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'pagegrade_db_pool_connections',
    ])
      assert.match(ok.body, new RegExp(`^${name}`, 'm'), name);
    assert.ok(sample(ok.body, 'pagegrade_db_pool_connections', { state: 'total' }) >= 1);
  });

  test('requests by route and status; audits by result; fetch failures by reason', async () => {
    const before = await scrape();
    const route = { method: 'GET', route: '/api/v1/reports/:id', status: '404' };
    const audited = await t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `${t.site('a')}/` }),
    });
    assert.equal(audited.statusCode, 201);
    const result = audited.json().data.result as string;
    assert.equal((await t.request({ url: '/api/v1/reports/999999', headers: alice.auth })).statusCode, 404);
    // a port nothing listens on: the fetcher's ECONNREFUSED
    const refused = await t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'http://refused.test:1/' }),
    });
    assert.equal(refused.statusCode, 422);
    const afterText = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sample(afterText, name, labels) - sample(before, name, labels);
    assert.equal(delta('pagegrade_http_requests_total', route), 1);
    assert.equal(delta('pagegrade_http_request_duration_seconds_count', route), 1);
    assert.equal(
      delta('pagegrade_http_requests_total', { method: 'POST', route: '/api/v1/reports', status: '201' }),
      1,
    );
    assert.equal(delta('pagegrade_audits_total', { result }), 1);
    assert.equal(delta('pagegrade_audits_total', { result: 'failed' }), 1);
    assert.equal(delta('pagegrade_audit_duration_seconds_count', { result }), 1);
    const reasons = afterText
      .split('\n')
      .filter((l) => l.startsWith('pagegrade_fetch_failures_total{'))
      .reduce((n, l) => n + Number(l.split(' ')[1]), 0);
    const reasonsBefore = before
      .split('\n')
      .filter((l) => l.startsWith('pagegrade_fetch_failures_total{'))
      .reduce((n, l) => n + Number(l.split(' ')[1]), 0);
    assert.equal(reasons - reasonsBefore, 1);
  });

  test("the job queue's depth by kind and state", async () => {
    const carol = await buildUser(t.services, 'carol');
    const w = await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { ...carol.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://hooks.canned.test/x', events: ['report.created'] }),
    });
    assert.equal(w.statusCode, 201, w.body);
    const before = sample(await scrape(), 'pagegrade_queue_jobs', {
      kind: 'webhook.deliver',
      state: 'waiting',
    });
    const ping = await t.request({
      method: 'POST',
      url: `/api/v1/webhooks/${w.json().data.id}/test`,
      headers: carol.auth,
    });
    assert.equal(ping.statusCode, 202);
    const after = sample(await scrape(), 'pagegrade_queue_jobs', {
      kind: 'webhook.deliver',
      state: 'waiting',
    });
    assert.equal(after - before, 1, 'no workers run here: the delivery waits');
  });

  test('the rate limit: RateLimit-* beside X-RateLimit-*, refusals counted', async () => {
    const bob = await buildUser(t.services, 'bob');
    const before = sample(await scrape(), 'pagegrade_rate_limit_refusals_total');
    for (let i = 1; i <= 3; i++) {
      const res = await t.request({ url: '/api/v1/account', headers: bob.auth });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], '3');
      assert.equal(res.headers['x-ratelimit-limit'], '3');
      assert.equal(res.headers['ratelimit-remaining'], String(3 - i));
      assert.equal(res.headers['x-ratelimit-remaining'], String(3 - i));
      const reset = Number(res.headers['ratelimit-reset']);
      assert.ok(Number.isInteger(reset) && reset >= 0 && reset <= 60, `RateLimit-Reset ${reset}`);
      assert.equal(res.headers['x-ratelimit-reset'], undefined, 'no X-RateLimit-Reset (never sent before)');
    }
    const over = await t.request({ url: '/api/v1/account', headers: bob.auth });
    assert.equal(over.statusCode, 429);
    assert.equal(over.headers['ratelimit-remaining'], '0');
    assert.ok(over.headers['ratelimit-reset'] !== undefined);
    assert.equal(sample(await scrape(), 'pagegrade_rate_limit_refusals_total') - before, 1);
  });
});
