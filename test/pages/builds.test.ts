// A build's dashboard page (issue 23 §2; docs/ci.md "Builds"), on SQLite and PostgreSQL: a main
// build and a feature build that breaks a page, sent through the API; the feature build's page
// shows the comparison table (the regressed page, its newly failing checks, the score delta,
// the link to the base build and to the report's run) from the same object the API answers; the
// project page links to the builds; a viewer reads it, another organisation gets 404.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseDocument } from 'htmlparser2';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { testAnalyze } from '../helpers/config.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { goodPage, html } from '../helpers/fixture-server.js';

/** the text of the element with `id` (tags dropped, spaces squeezed) */
function textOf(body: string, id: string): string {
  const doc = parseDocument(body);
  const walk = (n: unknown): string | null => {
    const node = n as { attribs?: Record<string, string>; children?: unknown[] };
    if (node.attribs?.id === id) return flat(node);
    for (const c of node.children ?? []) {
      const found = walk(c);
      if (found !== null) return found;
    }
    return null;
  };
  const flat = (n: unknown): string => {
    const node = n as { data?: string; children?: unknown[]; type?: string };
    if (node.type === 'text') return node.data ?? '';
    return (node.children ?? []).map(flat).join(' ');
  };
  return (walk(doc) ?? '').replace(/\s+/g, ' ').trim();
}

describeEachDialect('the build page', (dialect) => {
  let t: TestApp;
  let acme: TestUser;
  let other: TestUser;
  let viewerKey: string;
  let mainId: number;
  let featureId: number;
  let comparison: { regressed: boolean; pages: { path: string; newly_failing: { id: string }[]; score: { delta: number } }[] };
  let pReport: number;
  const project = 'build-page.test';

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent' });
    acme = await buildUser(t.services, 'build-page-acme');
    other = await buildUser(t.services, 'build-page-other');
    const { user } = await t.services.users.create('build-page-viewer');
    await t.services.organizations.addMember('build-page-acme', user.name, 'viewer');
    viewerKey = (await t.services.keys.create(user.name, { org: 'build-page-acme' })).key;
    const site = t.site('build-page');
    const send = async (fields: Record<string, unknown>) => {
      const report = await testAnalyze(`${site}/p`, { allowPrivateHosts: true, timeoutMs: 5000, maxBytes: 5_000_000 });
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/builds',
        headers: { ...acme.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ project, pages: [{ url: `${site}/p`, report }], ...fields }),
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as { id: number; pages: { report_id: number }[]; comparison: typeof comparison };
    };
    t.fixture.route('/p', html(goodPage(t.fixture.origin)));
    const main = await send({ branch: 'main', commit_sha: 'aaaaaaa1' });
    mainId = main.id;
    pReport = main.pages[0]!.report_id;
    t.fixture.route('/p', html('<html><body><p>hi</p></body></html>'));
    const feature = await send({
      branch: 'feature/<b>',
      base_branch: 'main',
      commit_sha: 'bbbbbbb2',
      ancestor_sha: 'aaaaaaa1',
      message: 'Break the page\n\nmore',
      run_url: 'https://ci.example.com/runs/9',
    });
    featureId = feature.id;
    comparison = feature.comparison;
  });
  after(() => t?.close());

  test("the feature build's page: the verdict, the reasons and the table of the API's comparison", async () => {
    const b = new Browser(t.app);
    await b.login(acme.key);
    const res = await b.get(`/dashboard/builds/${featureId}`);
    assert.equal(res.statusCode, 200, res.body.slice(0, 500));
    assert.equal(comparison.regressed, true);
    assert.match(res.body, /<strong>Regressed<\/strong>/);
    const p = comparison.pages[0]!;
    const table = textOf(res.body, 'build-table');
    assert.match(table, /\/p regressed compared \d+ -\d+/);
    for (const c of p.newly_failing) assert.ok(table.includes(c.id), `${c.id} in the table`);
    assert.ok(textOf(res.body, 'build-reasons').includes(`/p: ${p.newly_failing[0]!.id} newly fails`));
    assert.ok(res.body.includes(`href="/dashboard/builds/${mainId}"`), 'links to the base build');
    assert.ok(res.body.includes(`href="/reports/${pReport}?run=2"`), "links to the report's run");
    assert.ok(res.body.includes('href="https://ci.example.com/runs/9"'));
    assert.ok(res.body.includes('feature/&lt;b&gt;') && !res.body.includes('feature/<b>'), 'the branch escaped');

    const main = await b.get(`/dashboard/builds/${mainId}`);
    assert.match(main.body, /No base build to compare with \(the build names no base branch\)/);
  });

  test('the project page links to its builds; a viewer reads the page; another organisation and a bad id get 404', async () => {
    const b = new Browser(t.app);
    await b.login(acme.key);
    const projectPage = await b.get(`/dashboard/projects/${project}`);
    assert.equal(projectPage.statusCode, 200);
    assert.ok(textOf(projectPage.body, 'project-builds').length > 0);
    assert.ok(projectPage.body.includes(`href="/dashboard/builds/${featureId}"`));
    assert.ok(projectPage.body.includes(`href="/dashboard/builds/${mainId}"`));

    const viewer = new Browser(t.app);
    await viewer.login(viewerKey);
    assert.equal((await viewer.get(`/dashboard/builds/${featureId}`)).statusCode, 200);

    const stranger = new Browser(t.app);
    await stranger.login(other.key);
    assert.equal((await stranger.get(`/dashboard/builds/${featureId}`)).statusCode, 404);
    assert.equal((await b.get('/dashboard/builds/abc')).statusCode, 404);
    assert.equal((await b.get('/dashboard/builds/99999999')).statusCode, 404);
  });
});
