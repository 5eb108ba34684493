// The check step's limits and the fonts of stylesheets (issue 21 §1; docs/sites.md "Links and
// resources checked"), end to end on SQLite and PostgreSQL against loopback fixture servers,
// counting the requests they get:
// - max_site_checks: the site's own URLs asked are the first N in the cap's order (stylesheets,
//   then resources and fonts, then links, each by URL); the others are listed as not checked;
// - the batch's time budget: a batch with a small budget and a slow site ends, the URLs it did
//   not ask listed as not checked ("Not requested: the batch reached its time budget.");
// - @font-face fonts: each stylesheet read once (GET), each font asked once per batch, a broken
//   font listed on exactly the pages that load a stylesheet naming it, with the stylesheet.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import {
  batchEnded,
  crawlFindings,
  killableEnds,
  startBatchApp,
  type BatchApp,
  type ExportFinding,
} from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const page = (title: string, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`;
const htmlOf = (body: string) => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body });
const css = (body: string) => ({ headers: { 'content-type': 'text/css' }, body });

/** a batch with `payload`, waited for; its findings from the JSON export */
const crawl = (t: TestApp, user: TestUser, payload: Record<string, unknown>) =>
  crawlFindings(t, user, payload, 120_000);

const detailsOf = (findings: ExportFinding[], id: string, origin: string) =>
  findings
    .find((f) => f.id === id)!
    .pages.map((p) => `${p.url.replace(origin, '')} ${(p.detail ?? '').replaceAll(origin, '')}`)
    .sort();

// the fixture's stylesheets, each read once (deeper.css, @imported by an @imported one, never)
const CSS_ASKED = [
  'GET /css/also.css',
  'GET /css/deep.css',
  'GET /css/fonts.css',
  'GET /css/gone.css',
  'GET /css/plain.css',
];
const FONTS_ASKED = ['HEAD /fonts/deep-missing.woff2', 'HEAD /fonts/missing.woff2', 'HEAD /fonts/ok.woff'];
// each page that loads a stylesheet naming (or @importing one naming) a missing font
const BROKEN_FONTS = [
  '/f/ /fonts/missing.woff2 (font: 404; named in /css/fonts.css)',
  '/f/a /fonts/missing.woff2 (font: 404; named in /css/fonts.css)',
  '/f/b /fonts/missing.woff2 (font: 404; named in /css/fonts.css, imported by /css/plain.css)',
  '/f/c /css/gone.css (stylesheet: 404; imported by /css/also.css)',
  '/f/c /fonts/deep-missing.woff2 (font: 404; named in /css/deep.css, imported by /css/also.css)',
  '/f/c /fonts/missing.woff2 (font: 404; named in /css/also.css)',
];

describeEachDialect('the check step: max_site_checks and the fonts of stylesheets', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let site: FixtureServer;
  let other: FixtureServer;
  let E: string;
  const seen: string[] = [];
  const otherSeen: string[] = [];
  /** set by the resume test: the next end is stopped (as a killed worker's) at its first font request */
  let killAtFont = false;
  const asked = (prefix: string) => seen.filter((s) => s.split(' ')[1]!.startsWith(prefix)).sort();

  before(async () => {
    app = await startBatchApp(dialect, {
      pollMs: 50,
      config: { crawlDelayMs: 10, fetchTimeoutMs: 2000 },
      // the next end stopped at its first font request, once (the resume test sets killAtFont)
      ...killableEnds(() => {
        if (!killAtFont) return null;
        killAtFont = false;
        return () => seen.some((s) => s.includes(' /fonts/'));
      }),
    });
    t = app.t;
    user = await buildUser(t.services);
    site = await startFixtureServer();
    other = await startFixtureServer();
    E = `http://elsewhere.test:${other.port}`;
    other.server.prependListener('request', (req: { method?: string; url?: string }) => {
      otherSeen.push(`${req.method ?? '?'} ${req.url ?? '/'}`);
    });
    site.server.prependListener('request', (req: { method?: string; url?: string }) => {
      seen.push(`${req.method ?? '?'} ${req.url ?? '/'}`);
    });
    // max_site_checks: a page loading three images (404) and linking to three pages not crawled
    site.route(
      '/cap',
      htmlOf(
        page(
          'Cap',
          '',
          '<img src="/img/3.png" alt="3"><img src="/img/1.png" alt="1"><img src="/img/2.png" alt="2">' +
            '<a href="/x/c">c</a> <a href="/x/a">a</a> <a href="/x/b">b</a>',
        ),
      ),
    );
    // fonts: /f/ and /f/a load fonts.css, /f/c also.css (naming the same missing font), /f/b plain.css
    const home = page(
      'Fonts',
      '<link rel="stylesheet" href="/css/fonts.css">',
      '<a href="/f/a">a</a> <a href="/f/b">b</a> <a href="/f/c">c</a>',
    );
    site.route('/f/', htmlOf(home));
    site.route(
      '/f/a',
      htmlOf(page('A', '<link rel="stylesheet" href="/css/fonts.css">', '<a href="/f/">Home</a>')),
    );
    site.route(
      '/f/b',
      htmlOf(page('B', '<link rel="stylesheet" href="/css/plain.css">', '<a href="/f/">Home</a>')),
    );
    site.route(
      '/f/c',
      htmlOf(page('C', '<link rel="stylesheet" href="/css/also.css">', '<a href="/f/">Home</a>')),
    );
    site.route(
      '/css/fonts.css',
      css(`/* @font-face { src: url(/fonts/commented.woff2) } */
        @font-face { font-family: "Body"; src: local("Body"), url("../fonts/missing.woff2") format("woff2"), url(/fonts/ok.woff) format("woff"); }
        body { font-family: Body; background: url(/img/bg.png); }`),
    );
    site.route(
      '/css/also.css',
      css(
        '@import url(deep.css); @import "/css/gone.css";' +
          '@media screen { @font-face { font-family: B; src: url(/fonts/missing.woff2); } }',
      ),
    );
    // @import one level: deep.css's own @import is not followed
    site.route(
      '/css/deep.css',
      css('@import "deeper.css"; @font-face { font-family: D; src: url(/fonts/deep-missing.woff2); }'),
    );
    // a page's stylesheet @imported by another
    site.route('/css/plain.css', css('@import "fonts.css"; body { color: #222; }'));
    site.route('/fonts/ok.woff', { headers: { 'content-type': 'font/woff' }, body: 'x' });
    // another host: a stylesheet naming a missing font there and one on the site; the site's
    // stylesheet naming a font on the other host
    site.route(
      '/e/',
      htmlOf(
        page(
          'E',
          `<link rel="stylesheet" href="${E}/cdn.css"><link rel="stylesheet" href="/css/cdn-font.css">`,
          '',
        ),
      ),
    );
    site.route('/css/cdn-font.css', css(`@font-face { font-family: C; src: url(${E}/fonts/cdn.woff2); }`));
    other.route(
      '/cdn.css',
      css(
        `@font-face { font-family: G; src: url(fonts/gone.woff2), url(${site.origin}/fonts/site-missing.woff2); }`,
      ),
    );
    other.route('/fonts/cdn.woff2', { headers: { 'content-type': 'font/woff2' }, body: 'x' });
  });
  after(async () => {
    await app?.close();
    await site?.close();
    await other?.close();
  });

  test('max_site_checks: the first N in order (resources, then links, by URL); the others listed as not checked', async () => {
    seen.length = 0;
    const { options, findings } = await crawl(t, user, {
      url: `${site.origin}/cap`,
      mode: 'crawl',
      max_pages: 1,
      max_site_checks: 4,
    });
    assert.equal(options['max_site_checks'], 4);
    // the three images (resources first), then the first link in URL order
    assert.deepEqual(
      [...asked('/img/'), ...asked('/x/')],
      ['HEAD /img/1.png', 'HEAD /img/2.png', 'HEAD /img/3.png', 'HEAD /x/a'],
    );
    assert.deepEqual(detailsOf(findings, 'unchecked_links', site.origin), [
      "/cap /x/b (Not requested: over the batch's max_site_checks (4).)",
      "/cap /x/c (Not requested: over the batch's max_site_checks (4).)",
    ]);
    assert.equal(detailsOf(findings, 'broken_resources', site.origin).length, 3);
    assert.deepEqual(detailsOf(findings, 'broken_links', site.origin), ['/cap /x/a (404)']);
  });

  test('max_site_checks: the default 5,000, a project setting, and the 422s', async () => {
    const json = { ...user.auth, 'content-type': 'application/json' };
    const name = new URL(site.origin).hostname;
    let res = await t.request({
      method: 'PATCH',
      url: `/api/v1/projects/${name}`,
      headers: json,
      payload: { max_site_checks: 7 },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(
      (res.json() as { data: { settings: { max_site_checks: number } } }).data.settings.max_site_checks,
      7,
    );
    for (const value of [0, 100_001, 1.5]) {
      res = await t.request({
        method: 'PATCH',
        url: `/api/v1/projects/${name}`,
        headers: json,
        payload: { max_site_checks: value },
      });
      assert.equal(res.statusCode, 422, String(value));
      assert.match(res.body, /max_site_checks/);
      res = await t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: json,
        payload: { url: `${site.origin}/cap`, mode: 'crawl', max_site_checks: value },
      });
      assert.equal(res.statusCode, 422, String(value));
      assert.match(res.body, /max_site_checks/);
    }
    res = await t.request({ method: 'POST', url: `/api/v1/projects/${name}/crawls`, headers: user.auth });
    assert.equal(res.statusCode, 422, 'no start_url yet');
    res = await t.request({
      method: 'POST',
      url: '/api/v1/batches',
      headers: json,
      payload: { url: `${site.origin}/cap`, mode: 'crawl', max_pages: 1 },
    });
    assert.equal(res.statusCode, 202);
    const made = res.json() as { data: { id: number; options: { max_site_checks: number } } };
    assert.equal(made.data.options.max_site_checks, 5000);
    await batchEnded(t, user.id, made.data.id, 120_000);
  });

  test('fonts named by stylesheets: each stylesheet read once, each font asked once, a broken font on exactly the pages loading a stylesheet naming it', async () => {
    seen.length = 0;
    const { findings } = await crawl(t, user, { url: `${site.origin}/f/`, mode: 'crawl', max_pages: 10 });
    assert.deepEqual(asked('/css/'), CSS_ASKED);
    assert.deepEqual(asked('/fonts/'), FONTS_ASKED);
    assert.deepEqual(asked('/img/'), [], 'a background image is not a font');
    assert.deepEqual(detailsOf(findings, 'broken_resources', site.origin), BROKEN_FONTS);
    assert.deepEqual(detailsOf(findings, 'unchecked_links', site.origin), []);
  });

  test('fonts and stylesheets on another host: none asked without check_external; with it, each once', async () => {
    seen.length = 0;
    otherSeen.length = 0;
    let { findings } = await crawl(t, user, { url: `${site.origin}/e/`, mode: 'crawl', max_pages: 1 });
    assert.deepEqual(otherSeen, [], 'no request reached the other host');
    assert.deepEqual(asked('/css/'), ['GET /css/cdn-font.css']);
    assert.deepEqual(asked('/fonts/'), []);
    assert.deepEqual(detailsOf(findings, 'broken_resources', site.origin), []);

    seen.length = 0;
    ({ findings } = await crawl(t, user, {
      url: `${site.origin}/e/`,
      mode: 'crawl',
      max_pages: 1,
      check_external: 1,
    }));
    assert.deepEqual(otherSeen.sort(), [
      'GET /cdn.css',
      'GET /robots.txt',
      'HEAD /fonts/cdn.woff2',
      'HEAD /fonts/gone.woff2',
    ]);
    assert.deepEqual(asked('/css/'), ['GET /css/cdn-font.css']);
    assert.deepEqual(asked('/fonts/'), ['HEAD /fonts/site-missing.woff2']);
    assert.deepEqual(detailsOf(findings, 'broken_resources', site.origin), [
      `/e/ /fonts/site-missing.woff2 (font: 404; named in ${E}/cdn.css)`,
      `/e/ ${E}/fonts/gone.woff2 (font: 404; named in ${E}/cdn.css)`,
    ]);
  });

  test('an end killed at its first font request is taken up again: the fonts found are asked, no stylesheet is read again', async () => {
    seen.length = 0;
    killAtFont = true;
    const { findings } = await crawl(t, user, { url: `${site.origin}/f/`, mode: 'crawl', max_pages: 10 });
    assert.equal(killAtFont, false, 'the end was stopped once');
    assert.deepEqual(asked('/css/'), CSS_ASKED);
    // each font asked, the one in flight when the worker stopped at most twice
    const fonts = asked('/fonts/');
    assert.deepEqual([...new Set(fonts)], FONTS_ASKED);
    assert.ok(fonts.length <= FONTS_ASKED.length + 1, fonts.join(' '));
    assert.deepEqual(detailsOf(findings, 'broken_resources', site.origin), BROKEN_FONTS);
  });
});

describeEachDialect('the check step and the time budget', (dialect) => {
  const SLOW = 20;
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let site: FixtureServer;
  const slowAsked: string[] = [];

  before(async () => {
    // a 3 s budget: the page is crawled at once, then each check takes half a second
    app = await startBatchApp(dialect, {
      pollMs: 50,
      config: { crawlDelayMs: 10, fetchTimeoutMs: 2000, batchTimeBudgetMs: 3000 },
    });
    t = app.t;
    user = await buildUser(t.services);
    site = await startFixtureServer();
    const links = Array.from(
      { length: SLOW },
      (_, i) => `<a href="/slow/${String(i).padStart(2, '0')}">${i}</a>`,
    );
    site.route('/', htmlOf(page('Slow', '', links.join(' '))));
    for (let i = 0; i < SLOW; i++)
      site.route(`/slow/${String(i).padStart(2, '0')}`, (req, res) => {
        slowAsked.push(req.url ?? '');
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end();
        }, 500);
      });
  });
  after(async () => {
    await app?.close();
    await site?.close();
  });

  test('a batch out of time ends: the URLs it did not ask are listed as not checked', async () => {
    const { findings } = await crawl(t, user, { url: `${site.origin}/`, mode: 'crawl', max_pages: 1 });
    const unchecked = detailsOf(findings, 'unchecked_links', site.origin);
    for (const u of unchecked) assert.match(u, /\(Not requested: the batch reached its time budget\.\)$/);
    // some asked (the step's grace), some not, each URL either asked once or listed
    assert.ok(slowAsked.length >= 1, 'some asked');
    assert.ok(unchecked.length >= 1, 'some not asked');
    assert.equal(new Set(slowAsked).size, slowAsked.length, 'each asked once');
    assert.equal(slowAsked.length + unchecked.length, SLOW);
    const listed = new Set(unchecked.map((u) => u.split(' ')[1]));
    for (const p of slowAsked) assert.ok(!listed.has(p), `${p} asked and listed`);
  });
});
