// Links and resources checked (issue 21 §1; docs/sites.md "Links and resources checked"), end to
// end on SQLite and PostgreSQL: a loopback site with every problem planted — internal links to
// pages the crawl excludes (one 404, one fine), a missing image, stylesheet, script and srcset
// candidate beside fine ones, a resource robots.txt disallows — and a second loopback origin as
// "another site" (elsewhere.test, its own server) with a fine URL, a 404, a redirect, a 429, one
// that never answers and one its robots.txt disallows. Without check_external no request reaches
// the other site; with it each finding lists exactly the planted pages, and the servers count
// the requests: each URL asked once per batch (HEAD), never two at a time on a host, never a
// URL robots.txt disallows.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import {
  crawlFindings,
  endedExport,
  killableEnds,
  startBatchApp,
  type BatchApp,
} from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const DELAY_MS = 40;

interface Seen {
  method: string;
  path: string;
  at: number;
}

/** Counts a server's requests (method, path, start) and the most in flight at once. */
function watch(s: FixtureServer) {
  const w = { seen: [] as Seen[], inFlight: 0, maxInFlight: 0 };
  s.server.prependListener('request', (req: IncomingMessage, res) => {
    w.seen.push({ method: req.method ?? '?', path: req.url ?? '/', at: performance.now() });
    w.inFlight++;
    w.maxInFlight = Math.max(w.maxInFlight, w.inFlight);
    let ended = false;
    const end = () => {
      if (!ended) w.inFlight--;
      ended = true;
    };
    res.on('finish', end);
    res.on('close', end);
  });
  return w;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

// the stylesheets are read (GET) for the fonts they name; the others asked with HEAD
const CHECKED_ON_SITE = [
  'HEAD /excluded-ok',
  'HEAD /excluded-missing',
  'HEAD /big-photo.jpg',
  'HEAD /photo.jpg',
  'GET /missing.css',
  'GET /style.css',
  'HEAD /missing.js',
  'HEAD /missing-2x.jpg',
  'HEAD /font.woff2',
];
const CHECK_PATHS = new Set(CHECKED_ON_SITE.map((c) => c.split(' ')[1]));

describeEachDialect('link and resource checks of a batch', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let site: FixtureServer;
  let other: FixtureServer;
  let siteSeen: ReturnType<typeof watch>;
  let otherSeen: ReturnType<typeof watch>;
  let E: string;
  const u = (p: string) => `${site.origin}${p}`;
  /** set by the resume test: the next end is stopped (as a killed worker's) after this many HEADs on the other site */
  let killAfter: number | null = null;

  before(async () => {
    app = await startBatchApp(dialect, {
      pollMs: 50,
      config: { crawlDelayMs: DELAY_MS, fetchTimeoutMs: 2000 },
      // the next end stopped after killAfter HEADs on the other site, once (the resume test sets it)
      ...killableEnds(() => {
        if (killAfter === null) return null;
        const n = killAfter;
        killAfter = null;
        return () => otherSeen.seen.filter((s) => s.method === 'HEAD').length >= n;
      }),
    });
    t = app.t;
    user = await buildUser(t.services);
    other = await startFixtureServer();
    E = `http://elsewhere.test:${other.port}`;
    site = await startFixtureServer();
    const html = (body: string) => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body });
    const file = (type: string) => ({ headers: { 'content-type': type }, body: 'x' });
    site.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    });
    site.route(
      '/',
      html(
        page(
          'Home',
          `<link rel="stylesheet" href="/missing.css"><link rel="stylesheet" href="/style.css">
          <link rel="preload" as="font" href="/font.woff2" crossorigin>
          <script src="/missing.js"></script>
          <img src="/big-photo.jpg" alt="Big"><img src="/photo.jpg" srcset="/photo.jpg 1x, /missing-2x.jpg 2x" alt="Photo">
          <img src="/private/hidden.png" alt="Hidden">
          <a href="/a">A</a> <a href="/b">B</a> <a href="/excluded-ok">fine, not crawled</a>
          <a href="/excluded-missing">missing, not crawled</a>
          <a href="${E}/ok">ok</a> <a href="${E}/missing">missing</a> <a href="${E}/moved">moved</a>
          <a href="${E}/busy">busy</a> <a href="${E}/held">held</a> <a href="${E}/no-head">no HEAD</a> <a href="${E}/private/x">private</a>`,
        ),
      ),
    );
    site.route(
      '/a',
      html(
        page('A', `<img src="/photo.jpg" alt="Photo"><a href="/">Home</a> <a href="${E}/ok">ok again</a>`),
      ),
    );
    site.route(
      '/b',
      html(
        page(
          'B',
          `<img src="/big-photo.jpg" alt="Big"><a href="/">Home</a> <a href="/excluded-missing">missing</a>`,
        ),
      ),
    );
    site.route('/excluded-ok', html(page('Fine', '<a href="/">Home</a>')));
    site.route('/photo.jpg', file('image/jpeg'));
    site.route('/style.css', file('text/css'));
    site.route('/font.woff2', file('font/woff2'));
    // another site: fine, 404 (the default), a redirect, 429, never answering, robots.txt-disallowed
    other.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    });
    other.route('/ok', html(page('Ok', '')));
    other.route('/landing', html(page('Landing', '')));
    other.route('/moved', { status: 301, headers: { location: '/landing' }, body: '' });
    other.route('/busy', { status: 429, headers: { 'retry-after': '60' }, body: '' });
    other.route('/held', () => undefined);
    // a server that refuses HEAD: asked again with GET
    other.route('/no-head', (req, res) => {
      res.writeHead(req.method === 'HEAD' ? 405 : 200, { 'content-type': 'text/html' });
      res.end(req.method === 'HEAD' ? '' : page('No HEAD', ''));
    });
    siteSeen = watch(site);
    otherSeen = watch(other);
  });
  after(async () => {
    await app?.close();
    await site?.close();
    await other?.close();
  });

  /** a batch started with POST /api/v1/batches (with `extra`), or by the project's settings (`project`) */
  async function crawl(extra: Record<string, unknown>, project?: Record<string, unknown>) {
    siteSeen.seen.length = 0;
    otherSeen.seen.length = 0;
    siteSeen.maxInFlight = 0;
    otherSeen.maxInFlight = 0;
    const json = { ...user.auth, 'content-type': 'application/json' };
    const settings = { mode: 'crawl', max_pages: 50, exclude: ['/excluded-'] };
    const name = new URL(site.origin).hostname;
    if (project) {
      const put = await t.request({
        method: 'PUT',
        url: `/api/v1/projects/${name}`,
        headers: json,
        payload: { start_url: u('/'), ...settings, ...project },
      });
      assert.ok(put.statusCode === 200 || put.statusCode === 201, put.body);
      const s = (put.json() as { data: { settings: Record<string, unknown> } }).data.settings;
      for (const [k, v] of Object.entries(project)) assert.equal(s[k], v, k);
    }
    if (!project) return crawlFindings(t, user, { url: u('/'), ...settings, ...extra });
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/projects/${name}/crawls`,
      headers: user.auth,
    });
    assert.equal(res.statusCode, 202, res.body);
    const body = res.json() as { data: { id: number; options: Record<string, unknown> } };
    const { findings } = await endedExport(t, user, body.data.id);
    return { id: body.data.id, options: body.data.options, findings };
  }

  const pagesOf = (findings: Awaited<ReturnType<typeof crawl>>['findings'], id: string) => {
    const f = findings.find((x) => x.id === id);
    assert.ok(f, id);
    return [...new Set(f.pages.map((p) => p.url))].sort();
  };
  const details = (findings: Awaited<ReturnType<typeof crawl>>['findings'], id: string) =>
    findings
      .find((x) => x.id === id)!
      .pages.map((p) => `${p.url.replace(site.origin, '')} ${p.detail ?? ''}`)
      .sort();
  /** the site's requests for the URLs its check step asks */
  const siteChecks = () =>
    siteSeen.seen
      .filter((s) => CHECK_PATHS.has(s.path))
      .map((s) => `${s.method} ${s.path}`)
      .sort();

  test('check_external off (the default): internal targets and resources checked, no request to the other site', async () => {
    const { id, options, findings } = await crawl({});
    assert.equal(options['check_external'], false);
    assert.equal(options['max_external_checks'], 500);
    assert.deepEqual(otherSeen.seen, [], 'no request reached the other site');
    assert.deepEqual(pagesOf(findings, 'broken_links'), [u('/'), u('/b')]);
    assert.deepEqual(details(findings, 'broken_links'), [
      `/ ${u('/excluded-missing')} (404)`,
      `/b ${u('/excluded-missing')} (404)`,
    ]);
    assert.deepEqual(details(findings, 'broken_resources'), [
      `/ ${u('/big-photo.jpg')} (image: 404)`,
      `/ ${u('/missing-2x.jpg')} (image: 404)`,
      `/ ${u('/missing.css')} (stylesheet: 404)`,
      `/ ${u('/missing.js')} (script: 404)`,
      `/b ${u('/big-photo.jpg')} (image: 404)`,
    ]);
    assert.equal(findings.find((f) => f.id === 'broken_resources')!.priority, 'high');
    for (const id of ['broken_external_links', 'redirected_external_links', 'blocked_external_links'])
      assert.deepEqual(pagesOf(findings, id), [], id);
    assert.deepEqual(details(findings, 'unchecked_links'), [
      `/ ${u('/private/hidden.png')} (Not requested: disallowed by robots.txt.)`,
    ]);
    // the link graph answers a checked target's status
    const links = await t.request({
      method: 'GET',
      url: `/api/v1/batches/${id}/links?target=${encodeURIComponent(u('/excluded-missing'))}`,
      headers: user.auth,
    });
    assert.equal(links.statusCode, 200);
    const rows = (links.json() as { data: { source: string; target_status: number | null }[] }).data;
    assert.deepEqual(
      rows.map((r) => [r.source, r.target_status]),
      [
        [u('/'), 404],
        [u('/b'), 404],
      ],
    );
    // each checked URL asked once (HEAD), never a URL robots.txt disallows
    assert.deepEqual(siteChecks(), [...CHECKED_ON_SITE].sort());
    assert.ok(
      !siteSeen.seen.some((s) => s.path.startsWith('/private/')),
      'no robots-disallowed URL requested',
    );
  });

  test('check_external on: each external URL once, one at a time with the delay, 429 blocked, robots obeyed', async () => {
    const { findings, options } = await crawl({ check_external: 1, max_external_checks: 100 });
    assert.equal(options['check_external'], true);
    assert.deepEqual(details(findings, 'broken_external_links'), [
      `/ ${E}/held (No answer within 2 s.)`,
      `/ ${E}/missing (404)`,
    ]);
    assert.equal(findings.find((f) => f.id === 'broken_external_links')!.priority, 'medium');
    assert.deepEqual(details(findings, 'redirected_external_links'), [`/ ${E}/moved → ${E}/landing`]);
    assert.equal(findings.find((f) => f.id === 'redirected_external_links')!.priority, 'low');
    assert.deepEqual(details(findings, 'blocked_external_links'), [`/ ${E}/busy (429)`]);
    assert.deepEqual(
      details(findings, 'unchecked_links'),
      [
        `/ ${E}/private/x (Not requested: disallowed by robots.txt.)`,
        `/ ${u('/private/hidden.png')} (Not requested: disallowed by robots.txt.)`,
      ].sort(),
    );
    // the fine external links (one on two pages, one that refuses HEAD) are in no finding
    assert.ok(!JSON.stringify(findings).includes(`${E}/ok`));
    assert.ok(!JSON.stringify(findings).includes(`${E}/no-head`));
    // the other site: its robots.txt, then each URL once (the redirect's hop to /landing aside)
    const paths = otherSeen.seen.map((s) => `${s.method} ${s.path}`);
    assert.equal(paths[0], 'GET /robots.txt');
    assert.deepEqual(
      paths.slice(1).sort(),
      [
        'HEAD /busy',
        'HEAD /held',
        'HEAD /landing',
        'HEAD /missing',
        'HEAD /moved',
        'HEAD /ok',
        'HEAD /no-head',
        'GET /no-head',
      ].sort(),
    );
    assert.equal(otherSeen.maxInFlight, 1, 'one request at a time on the other site');
    // the delay between two requests to the host (the redirect's hop is part of its request)
    const starts = otherSeen.seen.filter((s) => s.path !== '/landing').map((s) => s.at);
    for (let i = 1; i < starts.length; i++)
      assert.ok(starts[i]! - starts[i - 1]! >= DELAY_MS - 5, `gap ${starts[i]! - starts[i - 1]!} ms`);
    // the site's own checks: once each, as in the batch before
    assert.deepEqual(siteChecks(), [...CHECKED_ON_SITE].sort());
    assert.ok(!siteSeen.seen.some((s) => s.path.startsWith('/private/')));
  });

  test('a check step stopped midway (a killed worker) is taken up again: the URLs already checked are not asked again', async () => {
    killAfter = 3;
    const { findings } = await crawl({ check_external: 1 });
    assert.equal(killAfter, null, 'the end was stopped once');
    const heads = otherSeen.seen.filter((s) => s.method === 'HEAD').map((s) => s.path);
    const twice = [...new Set(heads.filter((p, i) => heads.indexOf(p) !== i))];
    // only the request in flight when the worker stopped may be asked again
    assert.ok(twice.length <= 1, `asked twice: ${twice.join(' ')}`);
    assert.deepEqual([...new Set(heads)].sort(), [
      '/busy',
      '/held',
      '/landing',
      '/missing',
      '/moved',
      '/no-head',
      '/ok',
    ]);
    // the site's own checks: once each across both runs
    assert.deepEqual(siteChecks(), [...CHECKED_ON_SITE].sort());
    // the findings are whole
    assert.deepEqual(details(findings, 'broken_external_links'), [
      `/ ${E}/held (No answer within 2 s.)`,
      `/ ${E}/missing (404)`,
    ]);
    assert.deepEqual(details(findings, 'blocked_external_links'), [`/ ${E}/busy (429)`]);
  });

  test("a project's settings: the cap, beyond which the URLs of other hosts are listed as not checked", async () => {
    const { findings, options } = await crawl({}, { check_external: 1, max_external_checks: 2 });
    assert.equal(options['check_external'], true);
    assert.equal(options['max_external_checks'], 2);
    // in URL order the first two are /busy and /held; the others are not requested
    const asked = otherSeen.seen.map((s) => `${s.method} ${s.path}`);
    assert.deepEqual(asked, ['GET /robots.txt', 'HEAD /busy', 'HEAD /held']);
    const unchecked = details(findings, 'unchecked_links');
    for (const p of ['/missing', '/moved', '/no-head', '/ok'])
      assert.ok(
        unchecked.includes(`/ ${E}${p} (Not requested: over the batch's max_external_checks (2).)`),
        p,
      );
  });

  test('bad settings: 422 naming the field and what it allows (batches and projects)', async () => {
    const name = new URL(site.origin).hostname;
    for (const [field, value] of [
      ['check_external', 2],
      ['max_external_checks', 0],
    ] as const) {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/v1/projects/${name}`,
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: { [field]: value },
      });
      assert.equal(res.statusCode, 422, `${field}=${value}`);
      assert.ok(
        Object.keys((res.json() as { errors: Record<string, string[]> }).errors).includes(field),
        res.body,
      );
    }
    for (const [field, value, pattern] of [
      ['check_external', 'yes', /check_external/],
      ['max_external_checks', 0, /max_external_checks/],
      ['max_external_checks', 10_001, /max_external_checks/],
    ] as const) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: { url: u('/'), mode: 'crawl', [field]: value },
      });
      assert.equal(res.statusCode, 422, `${field}=${value}`);
      assert.match(JSON.stringify(res.json()), pattern);
    }
  });
});
