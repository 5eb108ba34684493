// Builds (issue 23 §2; docs/ci.md "Builds"), on SQLite and PostgreSQL: a build of the main
// branch, then a feature branch's build compared with it (the ancestor commit's build), each URL
// stored as a run (source `build`) of its page's report — privacy and password untouched, new
// reports with the project's default_privacy; 422s naming the field; a read-only key and a
// viewer refused; another organisation's build and list are 404; retention per branch.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { testAnalyze } from '../helpers/config.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { goodPage, html } from '../helpers/fixture-server.js';

interface BuildBody {
  data: {
    id: number;
    base_build_id: number | null;
    pages: { url: string; report_id: number; run: number; score: number }[];
    comparison: {
      base: { id: number; matched: string } | null;
      regressed: boolean;
      reasons: string[];
      pages: {
        path: string;
        status: string;
        score: { base: number | null; head: number | null; delta: number | null };
        newly_failing: { id: string }[];
        newly_passing: { id: string }[];
        assertions_newly_failing: { id: string }[];
      }[];
    };
  };
}

describeEachDialect('builds', (dialect) => {
  let t: TestApp;
  let acme: TestUser;
  let other: TestUser;
  let readKey: string;
  let viewerKey: string;
  const project = 'builds.test';
  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent', config: { buildsKeepPerBranch: 2 } });
    acme = await buildUser(t.services, 'builds-acme');
    other = await buildUser(t.services, 'builds-other');
    readKey = (await t.services.keys.create(acme.name, { scope: 'read' })).key;
    const { user } = await t.services.users.create('builds-viewer');
    await t.services.organizations.addMember('builds-acme', user.name, 'viewer');
    viewerKey = (await t.services.keys.create(user.name, { org: 'builds-acme' })).key;
  });
  after(() => t?.close());

  const api = (key: string, method: string, url: string, body?: unknown) =>
    t.request({
      method: method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const site = () => t.site('builds');
  const audit = (path: string) =>
    testAnalyze(`${site()}${path}`, { allowPrivateHosts: true, timeoutMs: 5000, maxBytes: 5_000_000 });
  const page = async (path: string, extra: Record<string, unknown> = {}) => ({
    url: `${site()}${path}`,
    report: await audit(path),
    ...extra,
  });
  const build = (fields: Record<string, unknown>) => ({ project, branch: 'main', commit_sha: 'a1b2c3d4', ...fields });

  let mainBuild: BuildBody['data'];
  test('a build of main: 201 with Location, each URL a report (the project’s default privacy), nothing to compare with', async () => {
    t.fixture.route('/p', html(goodPage(t.fixture.origin)));
    t.fixture.route('/q', html(goodPage(t.fixture.origin)));
    const sent = await page('/p', { figures: { page_bytes: 1000, lcp: null } });
    const res = await api(
      acme.key,
      'POST',
      '/api/v1/builds',
      build({
        commit_sha: 'A1B2C3D4E5',
        author: 'Ada <ada@example.com>',
        message: 'main: first',
        run_url: 'https://ci.example.com/runs/1',
        pages: [sent, await page('/q')],
      }),
    );
    assert.equal(res.statusCode, 201, res.body);
    mainBuild = (res.json() as BuildBody).data;
    assert.equal(res.headers.location, `http://pagegrade.test:8080/api/v1/builds/${mainBuild.id}`);
    assert.equal(mainBuild.comparison.base, null);
    assert.equal(mainBuild.comparison.regressed, false);
    assert.deepEqual(
      mainBuild.comparison.pages.map((p) => p.status),
      ['new', 'new'],
    );
    assert.deepEqual(
      mainBuild.pages.map((p) => p.run),
      [1, 1],
    );
    const report = await api(acme.key, 'GET', `/api/v1/reports/${mainBuild.pages[0]!.report_id}`);
    assert.equal(report.statusCode, 200);
    assert.equal(report.json().data.privacy, 0);
    assert.equal(report.json().data.project, project);
    const runs = await api(acme.key, 'GET', `/api/v1/reports/${mainBuild.pages[0]!.report_id}/runs`);
    assert.equal(runs.json().data[0].source, 'build');
    // stored as sent: an inconclusive check stays null (never read as false), a figure not measured stays null
    const passed = (results: Record<string, { passed: boolean | null }>) =>
      Object.fromEntries(Object.entries(results).map(([id, c]) => [id, c.passed]));
    assert.deepEqual(passed(report.json().data.results), passed(sent.report.results));
    assert.ok(Object.values(sent.report.results).some((c) => c.passed === null), 'the page has an inconclusive check');
    const figures = (mainBuild.comparison.pages[0] as unknown as { figures: { id: string; head: number | null }[] }).figures;
    assert.deepEqual(
      figures.filter((f) => f.id === 'lcp' || f.id === 'page_bytes'),
      [
        { id: 'page_bytes', base: null, head: 1000, delta: null },
        { id: 'lcp', base: null, head: null, delta: null },
      ],
    );
  });

  test('a feature build compared with the ancestor commit’s build: newly failing checks, score delta, regressed; privacy untouched', async () => {
    const pReport = mainBuild.pages[0]!.report_id;
    // the owner protects /p's report and makes new reports private: a build changes neither
    const put = await api(acme.key, 'PATCH', `/api/v1/reports/${pReport}`, { privacy: 2, password: 'pw-123456' });
    assert.equal(put.statusCode, 200, put.body);
    const settings = await api(acme.key, 'PATCH', `/api/v1/projects/${project}`, { default_privacy: 1 });
    assert.equal(settings.statusCode, 200, settings.body);
    // a newer main build that is not the ancestor
    t.fixture.route('/p', html(goodPage(t.fixture.origin)));
    const newer = await api(
      acme.key,
      'POST',
      '/api/v1/builds',
      build({ commit_sha: 'ffff0000', author: null, message: null, run_url: null, base_branch: null, ancestor_sha: null, pages: [await page('/p'), await page('/q')] }),
    );
    assert.equal(newer.statusCode, 201, newer.body);
    const newerId = (newer.json() as BuildBody).data.id;
    assert.equal((newer.json() as BuildBody).data.comparison.base, null, 'main names no base branch');

    // the feature breaks /p, drops /q, adds /new
    t.fixture.route('/p', html('<html><body><p>hi</p></body></html>'));
    t.fixture.route('/new', html(goodPage(t.fixture.origin)));
    const res = await api(
      acme.key,
      'POST',
      '/api/v1/builds',
      build({
        branch: 'feature/x',
        base_branch: 'main',
        commit_sha: 'b0b0b0b0',
        ancestor_sha: 'a1b2c3d', // a short SHA of the first main build
        pages: [
          await page('/p', {
            figures: { page_bytes: 2500 },
            assertions: [
              { id: 'page_bytes', kind: 'figure', level: 'error', passed: false, actual: 2500, expected: '≤ 2000' },
            ],
          }),
          await page('/new'),
        ],
      }),
    );
    assert.equal(res.statusCode, 201, res.body);
    const b = (res.json() as BuildBody).data;
    assert.deepEqual(b.comparison.base, {
      id: mainBuild.id,
      commit_sha: 'a1b2c3d4e5',
      branch: 'main',
      matched: 'ancestor',
    });
    assert.ok(newerId > mainBuild.id);
    assert.equal(b.comparison.regressed, true);
    const p = b.comparison.pages.find((x) => x.path === '/p')!;
    assert.equal(p.status, 'compared');
    assert.ok(p.newly_failing.length > 0, 'checks newly fail');
    assert.ok(p.score.delta! < 0, `score fell: ${JSON.stringify(p.score)}`);
    assert.deepEqual(
      p.assertions_newly_failing.map((a) => a.id),
      ['page_bytes'],
    );
    assert.ok(b.comparison.reasons.some((r) => r.startsWith('/p: ') && r.includes('newly fails')));
    assert.equal(b.comparison.pages.find((x) => x.path === '/new')!.status, 'new');
    assert.equal(b.comparison.pages.find((x) => x.path === '/q')!.status, 'removed');

    // /p's report: the same report, a third run by a build, still password-protected
    assert.equal(b.pages[0]!.report_id, pReport);
    assert.equal(b.pages[0]!.run, 3);
    const report = (await api(acme.key, 'GET', `/api/v1/reports/${pReport}`)).json().data;
    assert.equal(report.privacy, 2);
    assert.equal(report.has_password, true);
    const fresh = (await api(acme.key, 'GET', `/api/v1/reports/${b.pages[1]!.report_id}`)).json().data;
    assert.equal(fresh.privacy, 1, "a new report gets the project's default_privacy");

    // without an ancestor build: the base branch's newest before it
    const noAncestor = await api(
      acme.key,
      'POST',
      '/api/v1/builds',
      build({ branch: 'feature/z', base_branch: 'main', commit_sha: 'cccccccc', ancestor_sha: 'deadbeef', pages: [await page('/new')] }),
    );
    assert.deepEqual(
      [(noAncestor.json() as BuildBody).data.comparison.base?.id, (noAncestor.json() as BuildBody).data.comparison.base?.matched],
      [newerId, 'newest'],
    );

    // show and list: the same comparison; the list per branch
    const shown = await api(readKey, 'GET', `/api/v1/builds/${b.id}`);
    assert.equal(shown.statusCode, 200);
    assert.deepEqual((shown.json() as BuildBody).data.comparison, b.comparison);
    const list = await api(viewerKey, 'GET', `/api/v1/projects/${project}/builds?branch=feature%2Fx`);
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(
      (list.json().data as { id: number }[]).map((x) => x.id),
      [b.id],
    );
    const all = await api(acme.key, 'GET', `/api/v1/projects/${project}/builds?per_page=10`);
    assert.equal(all.json().meta.total, 4);
  });

  test('422 naming the field: a SHA that is not 7–40 hex, no pages, a URL that is not http, one path twice', async () => {
    const one = await page('/q');
    const cases: [Record<string, unknown>, RegExp][] = [
      [build({ commit_sha: 'xyz', pages: [one] }), /commit_sha/],
      [build({ commit_sha: 'abc', pages: [one] }), /commit_sha/],
      [build({ ancestor_sha: 'g'.repeat(40), pages: [one] }), /ancestor_sha/],
      [build({ pages: [] }), /pages/],
      [build({ pages: [{ ...one, url: 'ftp://builds.test/q' }] }), /pages\.0\.url/],
      [build({ pages: [one, one] }), /pages\.1\.url/],
      [build({ branch: '', pages: [one] }), /branch/],
      [build({ run_url: 'javascript:alert(1)', pages: [one] }), /run_url/],
    ];
    for (const [body, field] of cases) {
      const res = await api(acme.key, 'POST', '/api/v1/builds', body);
      assert.equal(res.statusCode, 422, `${JSON.stringify(body).slice(0, 80)}: ${res.body.slice(0, 300)}`);
      assert.match(res.body, field);
    }
  });

  test('a read-only key and a viewer may read but not upload; another organisation sees 404', async () => {
    const body = build({ commit_sha: '1234567', pages: [await page('/q')] });
    for (const key of [readKey, viewerKey]) {
      const res = await api(key, 'POST', '/api/v1/builds', body);
      assert.equal(res.statusCode, 403, res.body);
    }
    assert.equal((await api(readKey, 'GET', `/api/v1/builds/${mainBuild.id}`)).statusCode, 200);
    assert.equal((await api(other.key, 'GET', `/api/v1/builds/${mainBuild.id}`)).statusCode, 404);
    assert.equal((await api(other.key, 'GET', `/api/v1/projects/${project}/builds`)).statusCode, 404);
    assert.equal((await api(acme.key, 'GET', '/api/v1/builds/999999')).statusCode, 404);
  });

  test('retention: a feature branch keeps its newest 2 builds, the base branch all; a pruned build’s runs stay', async () => {
    const ids: number[] = [];
    const reports: number[] = [];
    for (const sha of ['d1d1d1d1', 'd2d2d2d2', 'd3d3d3d3']) {
      const res = await api(
        acme.key,
        'POST',
        '/api/v1/builds',
        build({ branch: 'feature/y', base_branch: 'main', commit_sha: sha, pages: [await page('/q')] }),
      );
      assert.equal(res.statusCode, 201, res.body);
      ids.push((res.json() as BuildBody).data.id);
      reports.push((res.json() as BuildBody).data.pages[0]!.report_id);
    }
    const list = await api(acme.key, 'GET', `/api/v1/projects/${project}/builds?branch=feature%2Fy`);
    assert.deepEqual(
      (list.json().data as { id: number }[]).map((x) => x.id),
      [ids[2], ids[1]],
    );
    assert.equal((await api(acme.key, 'GET', `/api/v1/builds/${ids[0]}`)).statusCode, 404);
    // the pruned build's run is still in the report's history
    const runs = (await api(acme.key, 'GET', `/api/v1/reports/${reports[0]}/runs`)).json().data as { source: string }[];
    assert.ok(runs.filter((r) => r.source === 'build').length >= 3);
    // main is a base branch: its builds are all kept (2 > keep would prune otherwise: 3 builds)
    await api(acme.key, 'POST', '/api/v1/builds', build({ commit_sha: 'e1e1e1e1', pages: [await page('/q')] }));
    const main = await api(acme.key, 'GET', `/api/v1/projects/${project}/builds?branch=main`);
    assert.equal(main.json().meta.total, 3);
    assert.equal((await api(acme.key, 'GET', `/api/v1/builds/${mainBuild.id}`)).statusCode, 200);
  });
});
