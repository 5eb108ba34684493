// AI readiness (issue 21 §4, docs/checks.md) through the API on SQLite and PostgreSQL, against a
// fixture site on 127.0.0.1: /llms.txt valid, invalid and missing; robots.txt blocking GPTBot
// and allowing ClaudeBot; a noai / noimageai robots meta. The category is in the report's
// categories (API and report page) and never moves the page's score: the same page scores the
// same with a valid, an invalid and no /llms.txt. The CLI's text output shows the category too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReport } from '../../src/cli/render-report.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { goodPage, html } from '../helpers/fixture-server.js';

const ROBOTS =
  'User-agent: GPTBot\nDisallow: /\n\nUser-agent: ClaudeBot\nAllow: /\n\nUser-agent: *\nAllow: /\n';
const LLMS_VALID = '# Fixture site\n\n> A site for tests.\n\n## Pages\n\n- [Home](/): the home page\n';
const LLMS_INVALID = 'Fixture site\n\n## Pages\n\n- the home page\n';

describeEachDialect('AI readiness', (dialect) => {
  let t: TestApp;
  let user: TestUser;
  before(async () => {
    t = await buildTestApp(dialect, {
      routes: (f) => {
        f.route('/robots.txt', { status: 200, headers: { 'content-type': 'text/plain' }, body: ROBOTS });
        const page = goodPage(f.origin).replace(
          '<head>',
          '<head><meta name="robots" content="noai, noimageai">',
        );
        f.route('/ai', html(page));
      },
    });
    user = await buildUser(t.services);
  });
  after(async () => {
    await t?.close();
  });

  const audit = async () => {
    const r = await t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `${t.site('ai')}/ai` }),
    });
    assert.equal(r.statusCode, 201, r.body);
    return r.json().data as {
      id: number;
      score: number;
      categories: Record<string, { score: number; passed: number; failed: number; not_judged?: string }>;
      results: Record<string, { passed: boolean | null; value?: unknown; message: string; category: string }>;
    };
  };
  const llms = (body: string | null) =>
    t.fixture.route(
      '/llms.txt',
      body === null
        ? { status: 404, body: 'Not found' }
        : { status: 200, headers: { 'content-type': 'text/markdown' }, body },
    );

  test('llms.txt valid, invalid, missing; AI crawlers per agent; noai: reported, and the score never moves', async () => {
    llms(LLMS_VALID);
    const valid = await audit();
    assert.equal(valid.results.llms_txt!.passed, true, valid.results.llms_txt!.message);
    assert.equal(valid.results.llms_txt!.category, 'ai');
    assert.deepEqual(valid.categories.ai, { score: 100, passed: 3, failed: 0 });
    // robots.txt: GPTBot blocked, ClaudeBot allowed — reported, not failed
    assert.equal(valid.results.ai_crawlers!.passed, true);
    assert.deepEqual(valid.results.ai_crawlers!.value, ['GPTBot']);
    assert.deepEqual(valid.results.ai_directives!.value, ['noai (meta robots)', 'noimageai (meta robots)']);
    // a raw audit: accessibility is not judged
    assert.equal(valid.categories.accessibility!.not_judged, 'needs render=1');

    llms(LLMS_INVALID);
    const invalid = await audit();
    assert.equal(invalid.results.llms_txt!.passed, false);
    assert.equal(invalid.results.llms_txt!.value, 'invalid');
    assert.match(invalid.results.llms_txt!.message, /first line is not an H1/);
    assert.equal(invalid.categories.ai!.failed, 1);

    llms(null);
    const missing = await audit();
    assert.equal(missing.results.llms_txt!.value, 'missing');
    assert.match(missing.results.llms_txt!.message, /no \/llms\.txt \(it answered 404\)/);

    // the category never moves the existing score
    assert.ok(valid.categories.ai!.score > missing.categories.ai!.score);
    assert.equal(invalid.score, valid.score);
    assert.equal(missing.score, valid.score);

    // the report page shows both categories; the API's read answer too
    const page = await t.request({ method: 'GET', url: `/reports/${valid.id}`, headers: user.auth });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /AI readiness/);
    assert.match(page.body, /not in the overall score/);
    assert.match(page.body, /Not judged: needs render=1/);
    const read = await t.request({ method: 'GET', url: `/api/v1/reports/${missing.id}`, headers: user.auth });
    assert.deepEqual(read.json().data.categories.ai, missing.categories.ai);

    // the CLI's text output
    const text = renderReport(read.json().data, { color: false });
    assert.match(text, /AI readiness +\d+ +\d+ passed, \d+ failed \(not in the score\)/);
    assert.match(text, /Accessibility +- +not judged: needs render=1/);
  });
});
