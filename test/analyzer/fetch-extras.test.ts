// The site files fetched beside the page: robots.txt, the sitemap, the 404 probe, the favicon —
// in parallel, within the budget, never failing the audit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { classifyAddress, fetchPage, sitemapFromRobots } from '../../src/analyzer/fetch/index.js';
import { buildArtifacts } from '../../src/analyzer/artifacts/index.js';
import { collectHtml } from '../../src/analyzer/artifacts/html.js';

/** whether the page declares an icon: an artifact of the one HTML pass (it was a regex in the fetcher) */
const declaresIcon = (html: string) => collectHtml(html, new URL('https://example.com/')).declaresIcon;
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const opts = { allowPrivateHosts: true };
const NO_ICON = '<!doctype html><html><head><title>No icon</title></head><body><p>hi</p></body></html>';

describe('site files', () => {
  let site: FixtureServer;
  before(async () => {
    site = await startFixtureServer();
  });
  after(() => site.close());

  test('robots.txt, the same-site sitemap from its Sitemap: lines, the 404 probe and the favicon', async () => {
    site.route('/', html(NO_ICON));
    site.route('/robots.txt', {
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private\nSitemap: https://elsewhere.example/sitemap.xml\nsitemap:/maps/main.xml\n',
    });
    site.route('/maps/main.xml', {
      status: 200,
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0"?><urlset><url><loc>/</loc></url></urlset>',
    });
    site.route('/favicon.ico', {
      status: 200,
      headers: { 'content-type': 'image/x-icon' },
      body: Buffer.alloc(5000, 1),
    });
    const snap = await fetchPage(`${site.origin}/`, opts);

    assert.equal(snap.robots?.status, 200);
    assert.match(snap.robots!.body, /Disallow: \/private/);
    assert.equal(snap.robots?.headers['content-type'], 'text/plain');
    assert.equal(snap.sitemap?.url, `${site.origin}/maps/main.xml`);
    assert.equal(snap.sitemap?.status, 200);
    assert.match(snap.sitemap!.body, /<urlset>/);
    assert.match(snap.notFoundProbe!.url, new RegExp(`^${site.origin}/pagegrade-404-check-[0-9a-f]{16}$`));
    assert.equal(snap.notFoundProbe?.status, 404);
    assert.match(snap.notFoundProbe!.body, /Not found/);
    assert.equal(snap.favicon?.status, 200);
    assert.equal(snap.favicon?.headers['content-type'], 'image/x-icon');
    assert.equal(snap.favicon?.body, '');
    for (const extra of [snap.robots, snap.sitemap, snap.notFoundProbe, snap.favicon]) {
      assert.equal(extra?.error, undefined);
      assert.ok(extra!.durationMs >= 0);
    }
  });

  test('the favicon probe is ignored when the page declares an icon; /sitemap.xml when robots.txt has none', async () => {
    site.route('/with-icon', html(goodPage(site.origin)));
    site.route('/robots.txt', { status: 404, body: 'no robots' });
    site.route('/sitemap.xml', {
      status: 200,
      headers: { 'content-type': 'application/xml' },
      body: '<urlset/>',
    });
    const before = site.requests.length;
    const snap = await fetchPage(`${site.origin}/with-icon`, opts);
    assert.equal(buildArtifacts(snap).favicon, null);
    assert.equal(snap.robots?.status, 404);
    assert.equal(snap.sitemap?.url, `${site.origin}/sitemap.xml`);
    assert.equal(snap.sitemap?.status, 200);
    // /favicon.ico is asked for in parallel with the page (one round trip, not two), but a
    // declared icon wins: the artifacts do not consult the probe
    assert.ok(site.requests.slice(before).includes('/favicon.ico'));
  });

  test('extras come from the final URL origin and follow redirects; caps truncate', async () => {
    const other = await startFixtureServer();
    try {
      site.route('/moved', { status: 301, headers: { location: `${other.origin}/home` } });
      other.route('/home', html(NO_ICON));
      other.route('/robots.txt', { status: 302, headers: { location: '/real-robots.txt' } });
      other.route('/real-robots.txt', {
        status: 200,
        headers: { 'content-type': 'text/plain' },
        body: `# big\n${'Disallow: /x\n'.repeat(50_000)}`,
      });
      other.route('/sitemap.xml', {
        status: 200,
        headers: { 'content-type': 'application/gzip' },
        body: gzipSync('<urlset><url><loc>/a</loc></url></urlset>'),
      });
      const snap = await fetchPage(`${site.origin}/moved`, opts);
      assert.equal(snap.finalUrl, `${other.origin}/home`);
      assert.equal(snap.robots?.url, `${other.origin}/robots.txt`);
      assert.equal(snap.robots?.finalUrl, `${other.origin}/real-robots.txt`);
      assert.equal(snap.robots?.status, 200);
      assert.equal(Buffer.byteLength(snap.robots!.body), 512 * 1024);
      assert.equal(snap.robots?.truncated, true);
      assert.equal(snap.sitemap?.body, '<urlset><url><loc>/a</loc></url></urlset>');
      assert.ok(snap.notFoundProbe?.url.startsWith(other.origin));
      assert.ok(snap.favicon?.url.startsWith(other.origin));
    } finally {
      await other.close();
    }
  });

  test('an extra redirected to a refused address fails alone, through the same guard', async () => {
    // test seam: public.test → 127.0.0.1, treated as public; everything else keeps the real rules
    const seam = {
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      classifyAddress: (ip: string) => (ip === '127.0.0.1' ? null : classifyAddress(ip)),
    };
    site.route('/guarded', html(NO_ICON));
    site.route('/robots.txt', {
      status: 301,
      headers: { location: `http://169.254.169.254/latest/meta-data/` },
    });
    const snap = await fetchPage(`http://public.test:${site.port}/guarded`, seam);
    assert.equal(snap.status, 200);
    assert.equal(snap.robots?.status, null);
    assert.match(snap.robots!.error!, /169\.254\.169\.254 is a link-local address; Pagegrade does not fetch/);
    assert.equal(snap.notFoundProbe?.status, 404);
  });

  test('a stalled extra does not hold the report: it ends with status null and an error', async () => {
    site.route('/fast', html(NO_ICON));
    site.route('/robots.txt', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('User-agent: *\n');
      // stalls
    });
    site.route('/favicon.ico', () => undefined); // never answers
    const t0 = Date.now();
    const snap = await fetchPage(`${site.origin}/fast`, { ...opts, timeoutMs: 5000 });
    const elapsed = Date.now() - t0;
    // the rule: extras end by 1.2 × the page's time + 1 s, well within the 5 s budget
    assert.ok(elapsed < 1000 + 1.2 * snap.timings.total_ms + 400, `took ${elapsed} ms`);
    assert.equal(snap.status, 200);
    assert.equal(snap.robots?.status, null);
    assert.match(snap.robots!.error!, /did not finish within the audit's time allowance/);
    assert.equal(snap.favicon?.status, null);
    // /sitemap.xml was asked for alongside robots.txt, and the probe is unaffected
    assert.equal(snap.sitemap?.url, `${site.origin}/sitemap.xml`);
    assert.equal(snap.sitemap?.status, 200);
    assert.equal(snap.notFoundProbe?.status, 404);
  });

  test('with a small budget, extras end at the budget', async () => {
    site.route('/fast2', html(NO_ICON));
    site.route('/robots.txt', () => undefined);
    const t0 = Date.now();
    const snap = await fetchPage(`${site.origin}/fast2`, { ...opts, timeoutMs: 400 });
    const elapsed = Date.now() - t0;
    assert.ok(elapsed >= 350 && elapsed < 1000, `took ${elapsed} ms`);
    assert.equal(snap.robots?.status, null);
  });
});

describe('helpers', () => {
  test('declaresIcon', () => {
    assert.equal(declaresIcon('<head><link rel="icon" href="/i.png"></head>'), true);
    assert.equal(declaresIcon("<head><link href=/i.png rel='shortcut icon'></head>"), true);
    assert.equal(declaresIcon('<head><link rel=ICON href=/i.png>'), true);
    assert.equal(declaresIcon('<head><link rel="apple-touch-icon" href="/a.png"></head>'), false);
    assert.equal(
      declaresIcon('<head><link rel="stylesheet" href="/s.css"></head><body><link rel="icon"></body>'),
      false,
    );
  });

  test('sitemapFromRobots', () => {
    const robots =
      'Sitemap: https://cdn.other.example/s.xml\nSITEMAP: https://www.example.com/s1.xml\nSitemap: /s2.xml';
    assert.equal(
      sitemapFromRobots(robots, 'https://example.com/robots.txt', 'https://example.com/'),
      'https://www.example.com/s1.xml',
    );
    assert.equal(
      sitemapFromRobots('User-agent: *', 'https://example.com/robots.txt', 'https://example.com/'),
      null,
    );
  });
});
