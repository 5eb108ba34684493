// Rendered batches (render=1 on POST /api/v1/batches; docs/rendering.md, docs/sites.md), on
// SQLite and PostgreSQL, in real headless Chromium, worked by the real job engine:
//   - a crawl of a JavaScript-built site (the render tests' SPA: its links exist only after
//     app.js runs): the rendered batch follows the links JavaScript made and every report
//     carries `render` (raw failed → rendered passed); the same crawl without render stays raw
//     and finds the start page only;
//   - the pool's limit holds across batch pages: a pool of 1 under a crawl window of 3, pages
//     wait in line (queue_ms) while their jobs' short leases are renewed — every page's job
//     runs once, none is taken up again as lost;
//   - a page whose render times out keeps its raw results (render inconclusive) and the batch
//     goes on to the end;
//   - the dashboard's "Render JavaScript" box;
//   - without Chromium (PAGEGRADE_CHROMIUM_PATH at a missing file, or no renderer): 422 under
//     errors.render with the install hint, from the API and the form, and nothing is queued.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { jobKinds } from '../../src/jobs/kinds/index.js';
import { batchPageKind } from '../../src/jobs/kinds/batch-page.js';
import { rendererFromConfig } from '../../src/render/index.js';
import type { Renderer } from '../../src/render/browser.js';
import type { PageSnapshot } from '../../src/analyzer/types.js';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { Browser } from '../helpers/browser.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { html } from '../helpers/fixture-server.js';
import { waitFor } from '../helpers/queues.js';
import { testRenderer } from '../helpers/renderer.js';
import { SPA_LINKS, SPA_SHELL, spaRoutes } from '../helpers/spa.js';

/**
 * The page of the site whose render never finishes (its script is held until the test ends):
 * the first link, so that pages of the crawl wait behind it for the browser longer than a lease.
 */
const HANGING = SPA_LINKS[0];
// long enough for a page to render on a loaded CI machine (one took more than 8 s there), the
// hanging page's time out counts once per dialect
const RENDER_TIMEOUT_MS = 20_000;
const LEASE_MS = 3_000;
/** the pool test's budget: its hanging render's time out, with nothing else in the browser */
const HELD_TIMEOUT_MS = 5_000;

interface ApiReport {
  id: number;
  url: string;
  results: Record<string, { passed: boolean | null; message: string }>;
  render?: {
    mode: string;
    status: string;
    reason?: string;
    timings: { queue_ms: number };
    differences: { id: string; raw: { passed: boolean | null }; rendered: { passed: boolean | null } }[];
    dom: { links: { raw: number; rendered: number } };
  };
}

describeEachDialect('rendered batches', { skip: chromiumSkip }, (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let renderer: Renderer;
  let user: TestUser;
  const held: ServerResponse[] = [];
  /** processPage calls per page id (the workers' services) */
  const calls = new Map<number, number>();

  before(async () => {
    // one page in the browser at a time, under a crawl window of three pages: the pool queues
    renderer = testRenderer({ concurrency: 1, timeoutMs: RENDER_TIMEOUT_MS });
    app = await startBatchApp(dialect, {
      renderer,
      config: { crawlConcurrency: 3, fetchTimeoutMs: 30_000 },
      // a short lease (renewed every second): a page waiting longer than it for the browser
      // must not be taken up again as lost
      kinds: jobKinds.map((k) => (k.kind === 'batch.page' ? batchPageKind({ leaseMs: LEASE_MS }) : k)),
      workerServices: (real) => ({
        ...real,
        batches: {
          ...real.batches,
          processPage: (batchId, pageId, signal) => {
            calls.set(pageId, (calls.get(pageId) ?? 0) + 1);
            return real.batches.processPage(batchId, pageId, signal);
          },
        },
      }),
    });
    t = app.t;
    // the whole site is built by JavaScript: every page is the SPA's shell
    spaRoutes(t.fixture);
    for (const p of SPA_LINKS) if (p !== HANGING) t.fixture.route(p, html(SPA_SHELL));
    // a page whose raw HTML is fine and whose render never ends (its script is held)
    t.fixture.route(
      HANGING,
      html(
        '<!doctype html><html lang="en"><head><title>Spades for every garden and gardener</title></head><body><h1>Spades</h1><script src="/held.js"></script></body></html>',
      ),
    );
    // the browser's GET is held; the batch's end checks the page's resources with HEAD
    // (docs/sites.md "Links and resources checked"), answered at once: a held HEAD would make
    // the end wait out the fetch timeout (30 s) for nothing the test looks at
    t.fixture.route('/held.js', (req, res) => {
      if (req.method === 'HEAD') res.writeHead(200, { 'content-type': 'text/javascript' }).end();
      else held.push(res);
    });
    user = await buildUser(t.services);
  });

  after(async () => {
    for (const res of held) if (!res.destroyed) res.end();
    await app?.close();
    await renderer?.close();
  });

  const post = (body: Record<string, unknown>) =>
    t.request({
      method: 'POST',
      url: '/api/v1/batches',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const reportsOf = async (batchId: number): Promise<ApiReport[]> => {
    const list = await t.request({
      url: `/api/v1/reports?batch=${batchId}&per_page=100`,
      headers: user.auth,
    });
    assert.equal(list.statusCode, 200, list.body);
    const out: ApiReport[] = [];
    for (const r of list.json().data as { id: number }[]) {
      const one = await t.request({ url: `/api/v1/reports/${r.id}`, headers: user.auth });
      out.push(one.json().data as ApiReport);
    }
    return out;
  };

  test('a rendered crawl follows the links JavaScript made; each report carries render', async () => {
    const start = `${t.site('jsapp')}/spa`;
    // JSON `true` is taken for 1, as the schema's description says
    const res = await post({ url: start, mode: 'crawl', render: true });
    assert.equal(res.statusCode, 202, res.body);
    const created = res.json().data;
    assert.equal(created.options.render, true);
    const batch = await batchEnded(t, user.id, created.id as number, 120_000);
    assert.equal(batch.status, 'done', JSON.stringify(batch));
    // the start page and the five pages its script links to
    assert.deepEqual(batch.progress, { discovered: 6, audited: 6, failed: 0, skipped: 0, remaining: 0 });
    const shown = await t.request({ url: `/api/v1/batches/${created.id}`, headers: user.auth });
    assert.equal(shown.json().data.options.render, true);

    const reports = await reportsOf(created.id as number);
    assert.equal(reports.length, 6);
    for (const r of reports) {
      assert.equal(r.render?.mode, 'rendered', r.url);
      if (new URL(r.url).pathname === HANGING) continue;
      const render = r.render;
      assert.equal(render.status, 'completed', `${r.url}: ${render.reason}`);
      // raw failed, rendered passed: what app.js sets
      for (const id of ['title', 'meta_description', 'headings']) {
        const d = render.differences.find((x) => x.id === id);
        assert.ok(d, `${r.url}: ${id} is a difference`);
        assert.equal(d.raw.passed, false, `${r.url}: raw ${id}`);
        assert.equal(d.rendered.passed, true, `${r.url}: rendered ${id}`);
        assert.equal(r.results[id]?.passed, true, `${r.url}: ${id} passes (${r.results[id]?.message})`);
      }
      assert.deepEqual(render.dom.links, { raw: 0, rendered: 5 });
    }

    // a render that timed out: the raw results are kept, and the batch went on
    const hung = reports.find((r) => new URL(r.url).pathname === HANGING)!;
    assert.equal(hung.render?.status, 'inconclusive');
    assert.match(hung.render.reason ?? '', /did not render within/);
    assert.equal(hung.results.title?.passed, true, 'the raw title');
    assert.equal(hung.results.console_errors, undefined, 'no browser-only checks without a browser');

    // the pool held: one page at a time, the others waited in line; no job ran twice
    assert.equal(renderer.stats.maxActive, 1);
    const waits = reports.map((r) => r.render?.timings.queue_ms ?? 0);
    assert.ok(
      Math.max(...waits) > LEASE_MS,
      `a page waited for the browser longer than its job's lease: ${waits.join(', ')} ms`,
    );
    assert.equal(calls.size, 6);
    for (const [pageId, n] of calls) assert.equal(n, 1, `page ${pageId}'s job ran ${n} times`);

    // the export says which pages were rendered
    const exported = await t.request({
      url: `/api/v1/batches/${created.id}/export?format=json`,
      headers: user.auth,
    });
    const states = Object.fromEntries(
      (exported.json().pages as { url: string; render: string | null }[]).map((p) => [
        new URL(p.url).pathname,
        p.render,
      ]),
    );
    assert.deepEqual(states, {
      '/spa': 'completed',
      ...Object.fromEntries(SPA_LINKS.map((p) => [p, p === HANGING ? 'inconclusive' : 'completed'])),
    });
  });

  test("a page's job stopped while it waits for the browser leaves the line at once", async () => {
    // the pool's one slot held by the hanging page (until its render times out). Nothing else
    // renders meanwhile, so the pool's budget is set short for this test (restored after it):
    // the crawl's 20 s is for real pages on a loaded machine, and waiting it out here proved
    // nothing more than a short one does
    renderer.options.timeoutMs = HELD_TIMEOUT_MS;
    try {
      const hangUrl = `${t.site('pool')}${HANGING}`;
      const page = (url: string, body: string) =>
        ({
          url,
          finalUrl: url,
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: Buffer.from(body),
        }) as unknown as PageSnapshot;
      let hangingSettled = false;
      const hanging = renderer.render(
        page(hangUrl, '<!doctype html><title>held</title><script src="/held.js"></script>'),
      );
      void hanging.then(() => (hangingSettled = true));
      await waitFor(() => renderer.stats.active === 1, 'the hanging render to hold the slot');
      const stop = new AbortController();
      const started = Date.now();
      const waiting = renderer.render(page(`${t.site('pool')}/spa`, SPA_SHELL), stop.signal);
      await waitFor(() => renderer.stats.queued === 1, 'the second render to wait in line');
      stop.abort(new Error('the worker is shutting down'));
      const outcome = await waiting;
      assert.equal(outcome.ok, false);
      assert.match(
        !outcome.ok ? outcome.reason : '',
        /stopped while waiting for a browser slot: the worker is shutting down/,
      );
      assert.ok(Date.now() - started < RENDER_TIMEOUT_MS / 2, 'it did not wait for the slot');
      // …nor for the hanging render: that one still holds the slot
      assert.equal(hangingSettled, false, 'the hanging render has not ended yet');
      assert.equal(renderer.stats.active, 1, "the slot is still the hanging render's");
      assert.equal(renderer.stats.queued, 0);
      const first = await hanging;
      assert.equal(first.ok, false, 'the held page timed out');
      assert.match(!first.ok ? first.reason : '', new RegExp(`did not render within ${HELD_TIMEOUT_MS} ms`));
      assert.equal(renderer.stats.active, 0, 'the slot was given back once');
    } finally {
      renderer.options.timeoutMs = RENDER_TIMEOUT_MS;
    }
  });

  test('the same crawl without render stays raw: the shell has no link to follow', async () => {
    const res = await post({ url: `${t.site('rawapp')}/spa`, mode: 'crawl' });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.json().data.options.render, false);
    const batch = await batchEnded(t, user.id, res.json().data.id as number);
    assert.equal(batch.status, 'done');
    assert.deepEqual(batch.progress, { discovered: 1, audited: 1, failed: 0, skipped: 0, remaining: 0 });
    const [report] = await reportsOf(batch.id);
    assert.equal(report!.render, undefined, 'a raw audit has no render object');
    assert.equal(report!.results.title?.passed, false);
  });

  test('the dashboard form: "Render JavaScript" starts a rendered batch', async () => {
    const b = new Browser(t.app);
    await b.login(user.key);
    const token = await b.csrf('/dashboard/batches');
    const page = await b.get('/dashboard/batches');
    assert.match(
      page.body,
      /<input id="batch-render" name="render" type="checkbox" value="1"[^>]*> Render JavaScript<\/label>/,
    );
    const res = await b.post('/dashboard/batches', {
      _csrf: token,
      mode: 'list',
      urls: `${t.site('formapp')}/spa`,
      render: '1',
    });
    assert.equal(res.statusCode, 303, res.body);
    const id = Number(/\/dashboard\/batches\/(\d+)$/.exec(String(res.headers.location))![1]);
    const batch = await batchEnded(t, user.id, id, 60_000);
    assert.equal(batch.options.render, true);
    const shown = await b.get(`/dashboard/batches/${id}`);
    assert.match(shown.body, /rendered with a browser/);
    const [report] = await reportsOf(id);
    assert.equal(report!.render?.status, 'completed', report!.render?.reason);
  });
});

describeEachDialect('rendered batches without Chromium', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  before(async () => {
    // PAGEGRADE_CHROMIUM_PATH at a file that does not exist (the server's renderer, as built
    // from the configuration)
    const renderer = rendererFromConfig({
      chromiumPath: '/nonexistent/chromium',
      renderConcurrency: 2,
      renderTimeoutMs: 15_000,
      renderMaxRequests: 150,
      renderMaxBytes: 20_971_520,
      allowPrivateHosts: true,
      allowHosts: [],
      userAgent: null,
    });
    app = await startBatchApp(dialect, { renderer });
    t = app.t;
    user = await buildUser(t.services);
  });
  after(() => app?.close());

  test('render=1 answers 422 under errors.render with the install hint; nothing is queued', async () => {
    for (const render of [1, true, '1']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: `${t.site('x')}/`, mode: 'crawl', render }),
      });
      assert.equal(res.statusCode, 422, res.body);
      const body = res.json();
      assert.match(body.errors.render[0], /Chromium, which was not found at \/nonexistent\/chromium/);
      assert.match(body.errors.render[0], /apt-get install -y chromium/);
    }
    // form-encoded too
    const form = await t.request({
      method: 'POST',
      url: '/api/v1/batches',
      headers: { ...user.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `url=${encodeURIComponent(`${t.site('x')}/`)}&mode=crawl&render=1`,
    });
    assert.equal(form.statusCode, 422, form.body);
    const list = await t.request({ url: '/api/v1/batches', headers: user.auth });
    assert.equal(list.json().meta.total, 0, 'no batch was stored');
    const counts = await app.engine.queue.counts();
    assert.equal(counts['batch.discover']?.waiting ?? 0, 0, 'no job was queued');
    assert.equal(counts['batch.discover']?.active ?? 0, 0);
    // a raw batch works unchanged
    const raw = await t.request({
      method: 'POST',
      url: '/api/v1/batches',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `${t.site('x')}/`, mode: 'list', urls: [`${t.site('x')}/`] }),
    });
    assert.equal(raw.statusCode, 202, raw.body);
    assert.equal((await batchEnded(t, user.id, raw.json().data.id as number)).status, 'done');
  });

  test("the dashboard form says so beside the box, in the form's words, and keeps it ticked", async () => {
    const b = new Browser(t.app);
    await b.login(user.key);
    const token = await b.csrf('/dashboard/batches');
    const res = await b.post('/dashboard/batches', {
      _csrf: token,
      mode: 'crawl',
      url: `${t.site('x')}/`,
      render: '1',
    });
    assert.equal(res.statusCode, 422);
    assert.match(
      res.body,
      /id="batch-render-error">Rendered audits need Chromium[^<]*apt-get install -y chromium/,
    );
    assert.match(
      res.body,
      /id="batch-render" name="render" type="checkbox" value="1" checked aria-invalid="true"/,
    );
    assert.doesNotMatch(res.body, /class="alert alert--error"/, 'said once, beside the box');
  });

  test('a process with no renderer at all refuses the same way', async () => {
    const bare = await startBatchApp(dialect);
    try {
      const u = await buildUser(bare.t.services);
      const res = await bare.t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...u.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: `${bare.t.site('x')}/`, mode: 'crawl', render: 1 }),
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.match(res.json().errors.render[0], /not available in this process.*apt-get install -y chromium/);
    } finally {
      await bare.close();
    }
  });
});
