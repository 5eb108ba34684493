// The pure parts of the link and resource checks (docs/sites.md "Links and resources checked"):
// a srcset's candidates, how an answer is judged, and the findings read from the checks — a
// rendered page's failed requests among the broken resources. End to end:
// test/sites/link-checks.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeFindings, type PageForFindings } from '../../src/crawl/findings/index.js';
import type { CheckedUrl } from '../../src/crawl/findings/types.js';
import { pageResources, srcsetUrls } from '../../src/crawl/resources.js';
import { artifactsFrom } from '../helpers/checks.js';
import { verdictOf } from '../../src/services/batches/check-rules.js';

test('srcsetUrls: each candidate URL, with or without descriptors and spaces', () => {
  assert.deepEqual(srcsetUrls('a.jpg 1x, b.jpg 2x'), ['a.jpg', 'b.jpg']);
  assert.deepEqual(srcsetUrls('a.jpg 1x,b.jpg 2x'), ['a.jpg', 'b.jpg']);
  assert.deepEqual(srcsetUrls('a.jpg, b.jpg 2x'), ['a.jpg', 'b.jpg']);
  assert.deepEqual(srcsetUrls(' /p.jpg '), ['/p.jpg']);
  assert.deepEqual(srcsetUrls('x.jpg 480w, /y-800.jpg 800w'), ['x.jpg', '/y-800.jpg']);
  assert.deepEqual(srcsetUrls(''), []);
});

test("pageResources: an <img>'s srcset and its <picture>'s <source srcset> candidates, each once; not in <noscript>", () => {
  const a = artifactsFrom(
    '<!doctype html><html><body>' +
      '<picture><source type="image/avif" srcset="/a.avif 1x, /a2.avif 2x"><source srcset="/a.webp"><img src="/a.jpg" srcset="/a.jpg 1x, /a-2x.jpg 2x" alt=""></picture>' +
      '<img src="/b.jpg" alt=""><noscript><img src="/n.jpg" srcset="/n2.jpg 2x" alt=""></noscript>' +
      '<video><source src="/v.mp4"></video></body></html>',
  );
  const images = pageResources(a)
    .filter((r) => r.kind === 'image')
    .map((r) => new URL(r.url).pathname)
    .sort();
  for (const p of ['/a.avif', '/a2.avif', '/a.webp', '/a.jpg', '/a-2x.jpg', '/b.jpg'])
    assert.ok(images.includes(p), `${p} in ${images.join(' ')}`);
  assert.ok(!images.includes('/n2.jpg'), 'a <noscript> srcset is not a resource');
  assert.equal(new Set(images).size, images.length, 'each once');
  assert.ok(
    pageResources(a).some((r) => new URL(r.url).pathname === '/v.mp4'),
    'a <video> <source src>',
  );
});

test('verdictOf: ok, broken, blocked (another site 429/403/999; the site its 429), unchecked', () => {
  const t = { url: 'http://e.test/x', kind: 'external' as const };
  const answer = (status: number | null, error?: string, finalUrl = t.url) => ({
    status,
    finalUrl,
    error: error ?? (status === null ? 'failed' : undefined),
  });
  assert.equal(verdictOf(t, answer(200), true, 5000).verdict, 'ok');
  assert.equal(
    verdictOf(t, answer(200, undefined, 'http://e.test/y'), true, 5000).redirectTo,
    'http://e.test/y',
  );
  assert.equal(verdictOf(t, answer(404), true, 5000).verdict, 'broken');
  assert.equal(verdictOf(t, answer(500), true, 5000).verdict, 'broken');
  for (const s of [403, 429, 999])
    assert.equal(verdictOf(t, answer(s), true, 5000).verdict, 'blocked', String(s));
  // the site's own 403 is broken, its 429 blocked
  assert.equal(verdictOf(t, answer(403), false, 5000).verdict, 'broken');
  assert.equal(verdictOf(t, answer(429), false, 5000).verdict, 'blocked');
  const late = verdictOf(
    t,
    answer(null, "The request for x did not finish within the audit's time allowance for site files."),
    true,
    5000,
  );
  assert.deepEqual([late.verdict, late.error], ['broken', 'No answer within 5 s.']);
  const guard = verdictOf(
    t,
    answer(
      null,
      'The address 10.0.0.1 is private; Pagegrade does not fetch private or reserved addresses. For …',
    ),
    true,
    5000,
  );
  assert.equal(guard.verdict, 'unchecked');
});

test("findings from the checks: broken links and resources, external links, a rendered page's failed requests", () => {
  const site = 'http://s.test';
  const pages: PageForFindings[] = [
    {
      url: `${site}/`,
      state: 'done',
      inSitemap: false,
      statusCode: 200,
      finalUrl: `${site}/`,
      error: null,
      facts: {
        title: 'Home',
        description: null,
        canonical: null,
        hreflang: [],
        noindex: false,
        links: [`${site}/out-of-bounds`, `${site}/fine`],
        nofollow: [],
        redirected: false,
        result: 'good',
        score: 90,
        failed: [],
        totalMs: 1,
        htmlBytes: 1,
        resources: [
          { kind: 'image', url: `${site}/missing.jpg` },
          { kind: 'stylesheet', url: `${site}/ok.css` },
        ],
        failedRequests: [
          { url: `${site}/missing.jpg`, status: 404, reason: 'HTTP 404' },
          { url: `${site}/api/data`, status: 500, reason: 'HTTP 500' },
        ],
      },
    },
  ];
  const c = (
    verdict: CheckedUrl['verdict'],
    status: number | null,
    redirectTo: string | null = null,
  ): CheckedUrl => ({
    kind: 'internal',
    verdict,
    status,
    error: null,
    redirectTo,
  });
  const checks = new Map<string, CheckedUrl>([
    [`${site}/out-of-bounds`, c('broken', 404)],
    [`${site}/fine`, c('ok', 200)],
    [`${site}/missing.jpg`, c('broken', 404)],
    [`${site}/ok.css`, c('ok', 200)],
    ['http://e.test/gone', c('broken', 410)],
    ['http://e.test/moved', c('ok', 200, 'http://e.test/new')],
    ['http://e.test/busy', c('blocked', 429)],
  ]);
  const external = ['gone', 'moved', 'busy'].map((p) => ({
    source: `${site}/`,
    target: `http://e.test/${p}`,
  }));
  const byId = Object.fromEntries(
    computeFindings(pages, `${site}/`, { nofollow: [], checks, external }).map((f) => [f.id, f.pages]),
  );
  assert.deepEqual(byId['broken_links'], [{ url: `${site}/`, detail: `${site}/out-of-bounds (404)` }]);
  assert.deepEqual(byId['broken_resources'], [
    { url: `${site}/`, detail: `${site}/missing.jpg (image: 404)` },
    { url: `${site}/`, detail: `${site}/api/data (in the browser: 500)` },
  ]);
  assert.deepEqual(byId['broken_external_links'], [{ url: `${site}/`, detail: 'http://e.test/gone (410)' }]);
  assert.deepEqual(byId['redirected_external_links'], [
    { url: `${site}/`, detail: 'http://e.test/moved → http://e.test/new' },
  ]);
  assert.deepEqual(byId['blocked_external_links'], [{ url: `${site}/`, detail: 'http://e.test/busy (429)' }]);
  assert.deepEqual(byId['unchecked_links'], []);
  // without checks (a batch from before them) these findings find nothing
  const bare = Object.fromEntries(computeFindings(pages, `${site}/`).map((f) => [f.id, f.pages]));
  assert.deepEqual(bare['broken_links'], []);
  assert.deepEqual(bare['broken_external_links'], []);

  // the fonts ok.css names (their rows' via): a broken one is the page's, one not asked too — a
  // font still pending (the batch cancelled during its checks) says so
  const font = (
    verdict: CheckedUrl['verdict'],
    status: number | null,
    error: string | null = null,
  ): CheckedUrl => ({
    kind: 'font',
    verdict,
    status,
    error,
    redirectTo: null,
    via: [`${site}/ok.css`],
  });
  const withFonts = new Map<string, CheckedUrl>([
    ...checks,
    [`${site}/gone.woff2`, font('broken', 404)],
    [`${site}/fine.woff2`, font('ok', 200)],
    [`${site}/late.woff2`, font('unchecked', null, 'Not requested: the batch reached its time budget.')],
    [`${site}/waiting.woff2`, font('pending', null)],
  ]);
  const fonts = Object.fromEntries(
    computeFindings(pages, `${site}/`, { nofollow: [], checks: withFonts }).map((f) => [f.id, f.pages]),
  );
  assert.deepEqual(fonts['broken_resources']?.[1], {
    url: `${site}/`,
    detail: `${site}/gone.woff2 (font: 404; named in ${site}/ok.css)`,
  });
  assert.equal(fonts['broken_resources']?.length, 3);
  assert.deepEqual(fonts['unchecked_links'], [
    {
      url: `${site}/`,
      detail: `${site}/late.woff2 (Not requested: the batch reached its time budget. Named in ${site}/ok.css.)`,
    },
    {
      url: `${site}/`,
      detail: `${site}/waiting.woff2 (Not requested: the checks stopped before it. Named in ${site}/ok.css.)`,
    },
  ]);
});
