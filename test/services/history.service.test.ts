// The history services over every dialect, with the real engine auditing a fixture site on
// 127.0.0.1: re-audits at once get one run number each; the outcome of a re-audit; what moves
// updated_at and the counters; a report deleted while it is re-audited.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../src/analyzer/index.js';
import { AppError } from '../../src/errors.js';
import { createServices } from '../../src/services/index.js';
import { type Services } from '../../src/services/types.js';
import { getOrgCounters, insertOrg } from '../../src/store/organizations.repository.js';
import { describeEachDialect } from '../helpers/app.js';
import { testServicesConfig } from '../helpers/config.js';
import { openTestDb, type TestDb } from '../helpers/db.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const BAD = '<html><body><p>hi</p></body></html>';

describeEachDialect('history services', (dialect) => {
  let t: TestDb;
  let s: Services;
  let site: FixtureServer;
  let alice: number;

  before(async () => {
    site = await startFixtureServer();
    t = await openTestDb(dialect);
    s = createServices({ queue: embeddedQueue(t.db), db: t.db, analyze, config: testServicesConfig() });
    alice = (await insertOrg(t.db, 'alice', new Date().toISOString())).id;
  });
  after(async () => {
    await t?.cleanup();
    await site?.close();
  });

  test('re-audits at once: one number each, the newest is current, nothing lost', async () => {
    site.route('/many', html(goodPage(site.origin)));
    const r = await s.reports.create(alice, { url: `${site.origin}/many` });
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        s.reports.reaudit(alice, r.id, { source: i % 2 ? 'api' : 'schedule' }),
      ),
    );
    assert.ok(outcomes.every((o) => o.status === 'completed'));
    const numbers = outcomes.map((o) => o.run.number).sort((a, b) => a - b);
    assert.deepEqual(numbers, [2, 3, 4, 5, 6, 7]);
    const runs = await s.reports.runs(alice, r.id, { perPage: 10 });
    assert.equal(runs.total, 7);
    assert.deepEqual(
      runs.items.map((x) => [x.number, x.current]),
      [7, 6, 5, 4, 3, 2, 1].map((n) => [n, n === 7]),
    );
    const report = await s.reports.getOwned(alice, r.id);
    assert.equal((await s.reports.run(alice, r.id, 7)).generatedAt, report.generatedAt);
  });

  test('a completed re-audit: the outcome has the new run and the diff from the one before', async () => {
    site.route('/flip', html(goodPage(site.origin)));
    const r = await s.reports.create(alice, { url: `${site.origin}/flip` });
    const countersBefore = await getOrgCounters(t.db, alice);
    site.route('/flip', html(BAD));
    const o = await s.reports.reaudit(alice, r.id, { source: 'schedule' });
    assert.equal(o.status, 'completed');
    if (o.status !== 'completed') return;
    assert.equal(o.run.number, 2);
    assert.equal(o.run.source, 'schedule');
    assert.notEqual(o.report.result, 'good');
    assert.equal(o.diff.from.number, 1);
    assert.equal(o.diff.to.number, 2);
    assert.equal(o.diff.diff.result.change, 'worse');
    assert.equal(o.diff.regression, true);
    assert.deepEqual(await s.reports.diff(alice, r.id, {}), o.diff, 'the same diff as asked for later');
    // counters follow the result; a service re-audit leaves updated_at (password passes) alone
    const counters = await getOrgCounters(t.db, alice);
    assert.equal(counters.good, countersBefore.good - 1);
    assert.equal(counters[o.report.result], countersBefore[o.report.result] + 1);
    assert.equal(o.report.updatedAt, r.updatedAt);
    const viaUpdate = await s.reports.update(alice, r.id, { results: true });
    assert.ok(viaUpdate.updatedAt > r.updatedAt, 'the owner re-running it is a change');
    const trends = await s.reports.trends(alice, [r.id, 987_654]);
    assert.deepEqual([...trends.keys()], [r.id], 'ids that are not the user’s are left out');
    assert.deepEqual(trends.get(r.id), {
      score: viaUpdate.score,
      previousScore: o.report.score,
      lastRunFailed: false,
    });
  });

  test('a failed re-audit: an outcome, not a throw; the report and counters untouched', async () => {
    site.route('/down', html(goodPage(site.origin)));
    const r = await s.reports.create(alice, { url: `${site.origin}/down` });
    const counters = await getOrgCounters(t.db, alice);
    site.route('/down', (_req, res) => {
      res.destroy();
    });
    const o = await s.reports.reaudit(alice, r.id, { source: 'schedule' });
    assert.equal(o.status, 'failed');
    assert.ok(o.status === 'failed' && o.reason.length > 0);
    assert.deepEqual(await s.reports.getOwned(alice, r.id), r);
    assert.deepEqual(await getOrgCounters(t.db, alice), counters);
    assert.deepEqual((await s.reports.trends(alice, [r.id])).get(r.id), {
      score: r.score,
      previousScore: null,
      lastRunFailed: true,
    });
    const history = await s.reports.pageHistory(r);
    assert.equal(history.lastFailed?.number, 2);
    assert.equal(history.changes, null, 'no completed run before the current one');
  });

  test('a report deleted while it is re-audited: 404, and no run is left behind', async () => {
    site.route('/gone', async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(goodPage(site.origin));
    });
    const r = await s.reports.create(alice, { url: `${site.origin}/gone` });
    const pending = s.reports.reaudit(alice, r.id, { source: 'schedule' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await s.reports.delete(alice, r.id);
    await assert.rejects(pending, (err: unknown) => err instanceof AppError && err.status === 404);
    const left = await t.db.selectFrom('report_runs').select('id').where('report_id', '=', r.id).execute();
    assert.deepEqual(left, []);
  });
});
