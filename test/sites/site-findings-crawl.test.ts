// The content and indexability findings (issue 21 §2, §3) end to end: a crawl of a loopback
// fixture site with each problem planted beside pages that are fine, on SQLite and PostgreSQL;
// each finding lists exactly the planted pages. Every page shares a 300-word footer and a nav
// (the template): the main text leaves them out, or the thin page would not be thin. The stored
// facts of a large page stay compact (no text kept).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { crawlFindings, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { pagesAfter } from '../../src/store/batches.repository.js';

/** n distinct words of a seed: no two seeds share a word */
const words = (seed: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `${seed.replace(/[^a-z0-9]/gi, '')}q${(from + i).toString(36)}`).join(
    ' ',
  );

/** the planted large page's words, and the bound on its stored facts */
const BIG_WORDS = 30_000;
const FACTS_MAX_BYTES = 4_000;

interface Page {
  title?: string;
  /** h1 texts (default one, from the path) */
  h1?: string[];
  /** the main text (default 250 words of its own) */
  text?: string;
  head?: string;
  links?: string[];
}

async function plantedSite(): Promise<FixtureServer> {
  const s = await startFixtureServer();
  const o = s.origin;
  const footer = words('footer', 300);
  const page = (path: string, p: Page = {}) => {
    const h1 = (p.h1 ?? [`Heading of ${path}`]).map((h) => `<h1>${h}</h1>`).join('');
    const links = (p.links ?? []).map((l) => `<a href="${l}">${l}</a>`).join(' ');
    s.route(path, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${p.title ?? `Title of ${path}`}</title>${p.head ?? ''}</head><body>
<header><a href="/">Brand</a></header><nav><a href="/">Home</a> <a href="/fine-1">Fine</a></nav>
<div class="content">${h1}<p>${p.text ?? words(path, 250)}</p><p>${links}</p></div>
<footer><p>${footer}</p></footer></body></html>`,
    });
  };
  const canonical = (path: string) => `<link rel="canonical" href="${o}${path}">`;
  const alt = (pairs: [string, string][]) =>
    pairs.map(([lang, path]) => `<link rel="alternate" hreflang="${lang}" href="${o}${path}">`).join('');

  s.route('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: `User-agent: *\nDisallow: /private/\n\nSitemap: ${o}/sitemap.xml\n`,
  });
  const inSitemap = ['/', '/fine-1', '/fine-2', '/canon-src', '/private/page', '/en', '/de'];
  s.route('/sitemap.xml', {
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${inSitemap.map((p) => `<url><loc>${o}${p}</loc></url>`).join('')}</urlset>`,
  });

  const planted = [
    '/dup-a',
    '/dup-b',
    '/near-a',
    '/near-b',
    '/thin',
    '/noh1',
    '/twoh1',
    '/same',
    '/canon-src',
    '/canon-noindex',
    '/canon-redirect',
    '/canon-chain',
    '/en',
    '/de',
    '/fr',
    '/noself',
    '/badcode',
    '/big',
  ];
  page('/', { links: [...planted, '/fine-2', '/noindexed', '/private/secret'] });
  page('/fine-1', { links: ['/noindexed'] });
  page('/fine-2', { links: ['/noindexed'] });
  page('/noindexed', { head: '<meta name="robots" content="noindex">' });
  // content
  const same = words('duplicated', 300);
  page('/dup-a', { h1: ['Our products'], text: same });
  page('/dup-b', { h1: ['Our products'], text: same });
  // 95 % of their 3-word shingles shared: 974 of 1,000 words alike
  page('/near-a', { text: `${words('near', 974)} ${words('tail-a', 26)}` });
  page('/near-b', { text: `${words('near', 974)} ${words('tail-b', 26)}` });
  page('/thin', { text: words('thin', 50) });
  page('/noh1', { h1: [] });
  page('/twoh1', { h1: ['First heading', 'Second heading'] });
  page('/same', { title: 'Same words', h1: ['same  words'] });
  page('/big', { text: words('big', BIG_WORDS) });
  // canonicals
  page('/canon-src', { head: canonical('/fine-1') });
  page('/canon-noindex', { head: canonical('/noindexed') });
  page('/canon-redirect', { head: canonical('/old') });
  s.route('/old', { status: 301, headers: { location: `${o}/fine-2` }, body: '' });
  page('/canon-chain', { head: canonical('/canon-src') });
  // hreflang
  const pair = alt([
    ['en', '/en'],
    ['de', '/de'],
    ['x-default', '/en'],
  ]);
  page('/en', { head: pair });
  page('/de', { head: pair });
  page('/fr', {
    head: alt([
      ['fr', '/fr'],
      ['en', '/en'],
      ['es', '/es'],
      ['it', '/it'],
      ['pt', '/pt'],
    ]),
  });
  page('/it', { head: '<meta name="robots" content="noindex">' });
  s.route('/pt', { status: 301, headers: { location: `${o}/pt/` }, body: '' });
  page('/pt/');
  page('/noself', {
    head: alt([
      ['en', '/en'],
      ['x-default', '/en'],
    ]),
  });
  page('/badcode', {
    head: alt([
      ['en-UK', '/badcode'],
      ['x-default', '/en'],
    ]),
  });
  return s;
}

describeEachDialect('content and indexability findings of a crawl', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let site: FixtureServer;

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    user = await buildUser(t.services);
    site = await plantedSite();
  });
  after(async () => {
    await app?.close();
    await site?.close();
  });

  test('each finding lists exactly the planted pages; the facts stay compact', async () => {
    const { id, findings } = await crawlFindings(t, user, {
      url: `${site.origin}/`,
      mode: 'crawl',
      max_pages: 100,
    });
    const u = (p: string) => `${site.origin}${p}`;
    const pagesOf = (fid: string) => {
      const f = findings.find((x) => x.id === fid);
      assert.ok(f, fid);
      return [...new Set(f.pages.map((p) => p.url))].sort();
    };
    const expected: Record<string, string[]> = {
      duplicate_content: ['/dup-a', '/dup-b'],
      near_duplicates: ['/near-a', '/near-b'],
      thin_content: ['/thin'],
      missing_h1: ['/noh1'],
      multiple_h1: ['/twoh1'],
      title_same_as_h1: ['/same'],
      duplicate_h1: ['/dup-a', '/dup-b'],
      canonicalised: ['/canon-chain', '/canon-noindex', '/canon-redirect', '/canon-src'],
      canonical_to_noindex: ['/canon-noindex'],
      canonical_to_redirect: ['/canon-redirect'],
      canonical_chain: ['/canon-chain'],
      canonical_outside_sitemap: ['/canon-noindex', '/canon-redirect'],
      hreflang_to_non_200: ['/fr'],
      hreflang_to_noindex: ['/fr'],
      hreflang_to_redirect: ['/fr'],
      hreflang_missing_self: ['/noself'],
      hreflang_missing_x_default: ['/fr'],
      hreflang_invalid_code: ['/badcode'],
      sitemap_blocked: ['/private/page'],
      sitemap_non_canonical: ['/canon-src'],
      noindex_linked: ['/noindexed'],
      blocked_linked: ['/'],
    };
    for (const [fid, paths] of Object.entries(expected))
      assert.deepEqual(pagesOf(fid), paths.map(u).sort(), fid);

    const detail = (fid: string) => findings.find((x) => x.id === fid)!.pages.map((p) => p.detail);
    assert.match(detail('near_duplicates')[0]!, /^9\d % similar to /);
    assert.deepEqual(detail('canonical_chain'), [`${u('/canon-src')} → ${u('/fine-1')}`]);
    assert.deepEqual(detail('hreflang_to_non_200'), [`es: ${u('/es')} (404)`]);
    assert.deepEqual(detail('blocked_linked'), [u('/private/secret')]);
    assert.equal(findings.find((x) => x.id === 'canonical_to_redirect')!.priority, 'high');
    // the robots-disallowed URLs were never requested
    assert.ok(!site.requests.some((r) => r.startsWith('/private/')), 'a disallowed URL was requested');

    // the facts of a page of 30,000 words stay compact: counts and fingerprints, never the text
    const big = (await pagesAfter(t.database.db, id, 0, 10_000)).find((p) => p.url === u('/big'))!;
    assert.equal(big.state, 'done');
    assert.ok(big.facts !== null && big.facts.length < FACTS_MAX_BYTES, `${big.facts?.length} bytes`);
    const facts = JSON.parse(big.facts) as { mainWords: number; minhash: string; h1: string[] };
    assert.equal(facts.mainWords, BIG_WORDS + 3); // the text and its h1, "Heading of /big"
    assert.equal(facts.minhash.length, 256);
  });
});
