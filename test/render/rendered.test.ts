// Rendered audits through the API, on SQLite and PostgreSQL, in real headless Chromium:
//   - a single-page app on 127.0.0.1 whose title, meta description, h1, links and content are
//     set by JavaScript: raw mode fails those checks, rendered mode passes them, and `render`
//     lists exactly those differences (stored, read back, re-audited rendered);
//   - Chromium killed mid-audit: the raw results are stored, the rendered audit is inconclusive
//     with the reason, no Chromium process is left; the next rendered audit starts a new one;
//   - 20 concurrent rendered stores: all answered, never more than the concurrency limit at once,
//     a bounded number of Chromium processes;
//   - no renderer (no Chromium): render=1 answers 422 under errors.render with how to install it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chromiumProcesses, type Renderer } from '../../src/render/browser.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { html } from '../helpers/fixture-server.js';
import { testRenderer } from '../helpers/renderer.js';
import { SPA_LINKS, spaRoutes } from '../helpers/spa.js';

describeEachDialect('rendered audits', { skip: chromiumSkip }, (dialect) => {
  let t: TestApp;
  let renderer: Renderer;
  let user: TestUser;
  let releaseSlow: (() => void) | null = null;
  let slowStarted: Promise<void>;
  let markSlowStarted: () => void;

  before(async () => {
    renderer = testRenderer({ timeoutMs: 60_000 });
    slowStarted = new Promise((r) => (markSlowStarted = r));
    t = await buildTestApp(dialect, {
      renderer,
      // 20 rendered audits at once on a loaded 2-core machine: the raw fetches get time too
      config: { fetchTimeoutMs: 60_000 },
      routes: (f) => {
        spaRoutes(f);
        for (const p of SPA_LINKS) f.route(p, html('<title>x</title>'));
        // a page whose script never finishes loading until released (the crash test)
        f.route(
          '/hang',
          html(
            `<!doctype html><html lang="en"><head><title>Hanging page</title></head><body><h1>Hang</h1><script src="/slow.js"></script></body></html>`,
          ),
        );
        f.route('/slow.js', (_req: IncomingMessage, res: ServerResponse) => {
          markSlowStarted();
          releaseSlow = () => {
            if (res.headersSent || res.destroyed) return;
            res.writeHead(200, { 'content-type': 'text/javascript' });
            res.end('');
          };
        });
      },
    });
    user = await buildUser(t.services);
  });

  after(async () => {
    releaseSlow?.();
    await renderer?.close();
    await t?.close();
  });

  const store = (url: string, extra: Record<string, unknown> = {}) =>
    t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url, ...extra }),
    });

  test('a schedule with render=1: its runs are rendered audits', async () => {
    const created = await store(`${t.site('sched')}/spa`);
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.id as number;
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/reports/${id}/schedule`,
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ every: 'daily', render: 1 }),
    });
    assert.equal(put.statusCode, 201, put.body);
    assert.equal(put.json().data.render, true);
    const scheduleId = put.json().data.id as number;
    // the slot's job, as the scheduler would enqueue it (the engine itself: test/schedules)
    const result = await t.services.schedules.run(scheduleId, new Date().toISOString(), {
      attempt: 1,
      maxAttempts: 3,
    });
    assert.equal(result.status, 'completed', JSON.stringify(result));
    const report = (await t.request({ url: `/api/v1/reports/${id}`, headers: user.auth })).json().data;
    assert.equal(report.render?.mode, 'rendered');
    assert.equal(report.results.title.passed, true, 'the title JavaScript sets');
    const runs = (await t.request({ url: `/api/v1/reports/${id}/runs`, headers: user.auth })).json();
    assert.equal(runs.data[0].source, 'schedule');
    // set again without render: raw runs from then on
    const raw = await t.request({
      method: 'PUT',
      url: `/api/v1/reports/${id}/schedule`,
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ every: 'daily' }),
    });
    assert.equal(raw.statusCode, 200, raw.body);
    assert.equal(raw.json().data.render, false);
  });

  test('an SPA: raw fails what JavaScript sets, rendered passes it, render lists exactly that', async () => {
    const url = `${t.site('spa')}/spa`;
    const raw = await store(url);
    assert.equal(raw.statusCode, 201, raw.body);
    const rawData = raw.json().data;
    assert.equal(rawData.render, undefined, 'a raw audit has no render object');

    const res = await store(url, { render: 1 });
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data;
    const render = data.render;
    assert.equal(render.mode, 'rendered');
    assert.equal(render.status, 'completed', render.reason);
    for (const id of ['title', 'meta_description', 'headings']) {
      assert.equal(rawData.results[id].passed, false, `raw ${id}: ${rawData.results[id].message}`);
      assert.equal(data.results[id].passed, true, `rendered ${id}: ${data.results[id].message}`);
    }
    const diffs = Object.fromEntries(
      render.differences.map(
        (d: { id: string; raw: { passed: boolean | null }; rendered: { passed: boolean | null } }) => [
          d.id,
          `${String(d.raw.passed)}→${String(d.rendered.passed)}`,
        ],
      ),
    );
    // exactly the checks that judge what app.js sets: title, description, h1, links, content
    assert.deepEqual(diffs, {
      title: 'false→true',
      meta_description: 'false→true',
      headings: 'false→true',
      ...EXPECTED_CONTENT_DIFFS,
    });
    // and each raw outcome is the stored raw audit's
    for (const d of render.differences as { id: string; raw: { passed: boolean | null } }[])
      assert.equal(d.raw.passed, rawData.results[d.id].passed, d.id);
    assert.deepEqual(render.dom.links, { raw: 0, rendered: 5 });
    assert.ok(
      render.dom.words.rendered > 500 && render.dom.words.raw === 0,
      JSON.stringify(render.dom.words),
    );
    assert.equal(render.raw.score, rawData.score);
    assert.ok(data.score > rawData.score, `${data.score} > ${rawData.score}`);
    assert.ok(render.requests >= 1, 'app.js came through the guarded network');
    // the browser-only checks are in the results
    for (const id of render.browser_checks) assert.ok(data.results[id], id);
    assert.equal(data.results.console_errors.passed, true, data.results.console_errors.message);
    assert.equal(data.results.javascript_indexing.passed, true);
    assert.ok(render.accessibility, 'axe-core ran');

    // the report page's section
    const page = await t.request({ method: 'GET', url: `/reports/${data.id}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /What JavaScript changed/);
    assert.match(page.body, /Checks whose outcome JavaScript changed/);
    // stored and read back as it was answered
    const again = await t.request({ method: 'GET', url: `/api/v1/reports/${data.id}`, headers: user.auth });
    assert.deepEqual(again.json().data.render, render);
    // a rendered re-audit keeps the render object; a raw one drops it
    const re = await t.request({
      method: 'PATCH',
      url: `/api/v1/reports/${data.id}`,
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ results: 1, render: 1 }),
    });
    assert.equal(re.statusCode, 200, re.body);
    assert.equal(re.json().data.render.status, 'completed');
    const reRaw = await t.request({
      method: 'PATCH',
      url: `/api/v1/reports/${data.id}`,
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ results: 1 }),
    });
    assert.equal(reRaw.json().data.render, undefined);
    assert.equal(reRaw.json().data.results.title.passed, false);
  });

  test('Chromium killed mid-audit: raw stored, rendered inconclusive, no orphan process', async () => {
    const pending = store(`${t.site('spa')}/hang`, { render: 1 });
    await slowStarted;
    const procs = chromiumProcesses();
    assert.ok(procs.length > 0, 'Chromium runs');
    // the browser's main process: the Chromium process whose parent is this process
    for (const pid of procs) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    const res = await pending;
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data;
    assert.equal(data.render.status, 'inconclusive');
    assert.match(data.render.reason, /crash|killed|closed|stopped|Target/i);
    assert.equal(data.results.title.passed, true, 'the raw results are kept');
    assert.equal(data.results.console_errors, undefined, 'no browser-only checks without a browser');
    // nothing left behind
    for (let i = 0; i < 50 && chromiumProcesses().length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(chromiumProcesses(), []);
    releaseSlow?.();
    // the next rendered audit starts a new browser
    const next = await store(`${t.site('spa')}/spa`, { render: 1 });
    assert.equal(next.json().data.render.status, 'completed', next.json().data.render.reason);
  });

  test('20 concurrent rendered stores: all answered, the concurrency limit held', async () => {
    let maxProcs = 0;
    const sampler = setInterval(() => {
      maxProcs = Math.max(maxProcs, chromiumProcesses().length);
    }, 200);
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store(`${t.site(`c${i}`)}/spa`, { render: 1 })),
      );
      for (const a of answers) {
        assert.equal(a.statusCode, 201, a.body);
        assert.equal(a.json().data.render.status, 'completed', a.json().data.render.reason);
      }
    } finally {
      clearInterval(sampler);
    }
    assert.equal(renderer.stats.active, 0);
    assert.ok(renderer.stats.maxActive <= 2, `at most 2 pages at once, saw ${renderer.stats.maxActive}`);
    assert.ok(maxProcs <= 16, `Chromium processes stayed bounded (${maxProcs})`);
    console.log(
      `# 20 rendered stores: at most ${renderer.stats.maxActive} at once, ${maxProcs} Chromium processes`,
    );
  });
});

/**
 * The checks that judge the links and the text app.js adds: with no link and no text in the raw
 * HTML, the link checks and the keyword check are not judged (null), the content checks fail.
 */
const EXPECTED_CONTENT_DIFFS: Record<string, string> = {
  crawlable_anchors: 'null→true',
  link_text: 'null→true',
  content_keywords: 'null→true',
  content_length: 'false→true',
  text_html_ratio: 'false→true',
};

describeEachDialect('rendered audits without Chromium', (dialect) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(dialect);
  });
  after(() => t?.close());

  test('render=1 answers 422 under errors.render, saying how to install Chromium', async () => {
    const user = await buildUser(t.services);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `${t.site('x')}/`, render: 1 }),
    });
    assert.equal(res.statusCode, 422);
    const body = res.json();
    assert.match(body.errors.render[0], /apt-get install -y chromium/);
    // raw audits work unchanged
    const raw = await t.request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `${t.site('x')}/` }),
    });
    assert.equal(raw.statusCode, 201);
    // a schedule that would render is refused the same way
    const id = raw.json().data.id as number;
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/reports/${id}/schedule`,
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ every: 'daily', render: 1 }),
    });
    assert.equal(put.statusCode, 422, put.body);
    assert.match(put.json().errors.render[0], /apt-get install -y chromium/);
  });
});
