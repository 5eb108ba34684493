// The compact form a batch's end holds its pages in (src/crawl/compact.ts) gives exactly the
// findings, summary and diff digests of the pages as parsed, on a generated batch of 3,000
// pages that sets off every rule: duplicates, broken and redirected links, chains and loops,
// robots-blocked and sitemap pages, canonicals, hreflang, noindex, nofollow, near duplicates,
// h1s, AI readiness and axe facts, and facts of older batches (fields absent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactPages, type PageRow } from '../../src/crawl/compact.js';
import { pageDigest, type CheckTable } from '../../src/crawl/diff.js';
import type { PageFacts } from '../../src/crawl/facts.js';
import { forEachLink, forEachTarget, hasTargets, linkTargets } from '../../src/crawl/findings/context.js';
import { computeFindings, computeSummary, FINDINGS } from '../../src/crawl/findings/index.js';
import type { CheckedUrl, DonePage } from '../../src/crawl/findings/types.js';
import { minhash, textHash, words } from '../../src/crawl/similarity.js';
import { prng } from '../../bench/lib/corpus.js';

const N = 3000;
const origin = 'https://site.test';
const url = (i: number) => `${origin}/p/${i}`;

/** a seeded PRNG (mulberry32): the same site every run */
const rnd = prng(7);
const pick = (n: number) => Math.floor(rnd() * n);
const chance = (p: number) => rnd() < p;

// a few main texts, and near copies of them (a word changed), so near_duplicates finds groups
const base = Array.from({ length: 5 }, (_, k) =>
  Array.from({ length: 300 }, (_, w) => `word${(w * 7 + k * 13) % 97}x${w % 11}`),
);
const text = (i: number): string[] => {
  if (i % 10 === 0) return base[i % 5]!; // the same main text
  if (i % 10 === 1) return base[i % 5]!.map((w, n) => (n === i % 300 ? `changed${i}` : w)); // nearly
  return Array.from({ length: 50 + (i % 400) }, (_, w) => `w${i}_${w}`);
};

function facts(i: number): PageFacts {
  const main = words(text(i).join(' '));
  // pages 2950–2999 are linked from one page each (single_inlink): no random link goes there
  const target = () => (chance(0.99) ? url(pick(N - 50)) : url(N + pick(40)));
  const links = [...new Set(Array.from({ length: pick(25) }, target))];
  if (i < 50) links.push(url(N - 50 + i));
  if (chance(0.05)) links.push(url(i)); // a link to itself
  if (chance(0.03)) links.push(`http://site.test/p/${pick(N)}`);
  const hreflang = chance(0.1)
    ? [
        { lang: chance(0.5) ? 'en' : 'EN_us', url: chance(0.5) ? url(i) : url(pick(N)) },
        { lang: chance(0.5) ? 'x-default' : 'de', url: url(pick(N + 40)) },
      ]
    : [];
  const f: PageFacts = {
    title: chance(0.03) ? 'Shared title' : chance(0.02) ? null : `Page ${i}`,
    description: chance(0.03) ? 'Shared description' : chance(0.1) ? null : `About ${i}`,
    canonical: chance(0.05) ? url(pick(N + 40)) : chance(0.5) ? url(i) : null,
    hreflang,
    noindex: chance(0.03),
    links: links.filter((_, k) => k % 7 !== 3),
    nofollow: links.filter((_, k) => k % 7 === 3),
    redirected: chance(0.02),
    result: i % 3 === 0 ? 'good' : i % 3 === 1 ? 'decent' : 'bad',
    score: pick(101),
    failed: Array.from({ length: pick(6) }, (_, k) => ({
      id: `check_${(i + k) % 9}`,
      priority: k % 2 === 0 ? 'high' : 'low',
      title: `Check ${(i + k) % 9}`,
    })),
    totalMs: pick(5000),
    htmlBytes: pick(200_000),
  };
  // facts of older batches lack the later fields
  if (i % 50 !== 49) {
    // the resources a batch checks (issue 21 §1): a shared stylesheet, an image of a few, a CDN script
    f.resources = [
      { kind: 'stylesheet', url: `${origin}/site.css` },
      { kind: 'image', url: `${origin}/img/${i % 40}.jpg` },
      ...(i % 9 === 0 ? [{ kind: 'script', url: 'https://cdn.example/lib.js' }] : []),
    ];
    if (i % 97 === 5)
      f.failedRequests = [{ url: `${origin}/api/data.json`, status: 500, reason: 'HTTP 500' }];
    f.mainWords = main.length;
    f.mainHash = main.length === 0 ? null : textHash(main);
    f.minhash = i % 97 === 5 ? 'NOT-HEX' : minhash(main);
    const n = pick(4);
    f.h1 = Array.from({ length: n }, (_, k) =>
      k === 0 && chance(0.3) ? ` page ${i} ` : `Heading ${i % 40}`,
    );
    if (f.h1[0] === ` page ${i} `) f.title = `Page ${i}`;
  }
  if (i % 4 === 0) {
    f.ai = {
      blocked: chance(0.2) ? ['GPTBot'] : [],
      directives: chance(0.05) ? ['noai (meta robots)'] : [],
      llms: 'missing',
    };
    f.axe = chance(0.8) ? ['color-contrast', 'image-alt'] : ['label'];
    f.render = 'completed';
  }
  if (i % 33 === 0)
    f.ignored = [{ id: 'check_1', priority: 'low', title: 'Check 1', rule_id: 'r1', reason: 'meant' }];
  return f;
}

function generated(): PageRow[] {
  const pages: PageRow[] = [];
  for (let i = 0; i < N + 40; i++) {
    const u = url(i);
    const common = { url: u, depth: pick(8), inSitemap: chance(0.6), reportId: i, error: null };
    if (i >= N) {
      // the pages linked and not audited: broken, redirected (chains, loops), robots-blocked
      const k = i - N;
      if (k < 10)
        pages.push({
          ...common,
          state: 'failed',
          statusCode: k < 5 ? 404 : null,
          finalUrl: null,
          canonical: null,
          facts: null,
          ...(k >= 5 ? { error: 'ECONNRESET' } : {}),
        });
      else if (k < 20)
        pages.push({
          ...common,
          state: 'skipped',
          statusCode: 301,
          finalUrl: url(k),
          canonical: null,
          facts: null,
          redirectPath: k < 15 ? [u, url(N + 100), url(k)] : [u, url(N + 101), u],
        });
      else if (k < 30)
        pages.push({
          ...common,
          state: 'skipped',
          statusCode: null,
          finalUrl: null,
          canonical: null,
          facts: null,
          error: 'Not requested: disallowed by robots.txt.',
        });
      else
        pages.push({
          ...common,
          state: 'queued',
          statusCode: null,
          finalUrl: null,
          canonical: null,
          facts: null,
        });
      continue;
    }
    const f = facts(i);
    pages.push({
      ...common,
      state: 'done',
      statusCode: i % 211 === 3 ? 500 : 200,
      finalUrl: f.redirected ? url(pick(N)) : u,
      canonical: f.canonical !== null && f.canonical !== u ? f.canonical : null,
      facts: f,
      redirectPath: null,
    });
  }
  return pages;
}

test('compact pages: the same findings, summary, link targets, digests and facts as the parsed pages', () => {
  // the parsed pages (as JSON would give them) and their compact form, made from another parse
  const json = JSON.stringify(generated());
  const plain = JSON.parse(json) as PageRow[];
  const compacted = compactPages();
  const compact = (JSON.parse(json) as PageRow[]).map((p) => compacted.add(p));

  // the batch's checks of what it did not crawl, and its links to other sites (check_external)
  const check = (
    kind: CheckedUrl['kind'],
    verdict: CheckedUrl['verdict'],
    status: number | null,
    redirectTo: string | null = null,
  ): CheckedUrl => ({
    kind,
    verdict,
    status,
    error: null,
    redirectTo,
  });
  const checks = new Map<string, CheckedUrl>([
    [`${origin}/site.css`, check('resource', 'ok', 200)],
    [`${origin}/img/3.jpg`, check('resource', 'broken', 404)],
    ['https://cdn.example/lib.js', check('resource', 'broken', 503)],
    ['https://elsewhere.example/gone', check('external', 'broken', 404)],
    ['https://elsewhere.example/moved', check('external', 'ok', 200, 'https://elsewhere.example/new')],
    ['https://busy.example/', check('external', 'blocked', 429)],
    ['https://far.example/', check('external', 'unchecked', null)],
  ]);
  const external = [
    { source: url(1), target: 'https://elsewhere.example/gone' },
    { source: url(2), target: 'https://elsewhere.example/moved' },
    { source: url(3), target: 'https://busy.example/' },
    { source: url(4), target: 'https://far.example/' },
  ];
  const graph = { nofollow: [{ source: url(1), target: url(2), anchor: 'two' }], checks, external };
  const before = computeFindings(plain, `${origin}/p/0`, graph);
  const after = computeFindings(compact, `${origin}/p/0`, graph);
  assert.deepEqual(after, before);
  // the generated batch sets off (nearly) every rule: the comparison is not of empty lists
  const found = before.filter((f) => f.count > 0).map((f) => f.id);
  const silent = FINDINGS.map((r) => r.id).filter((id) => !found.includes(id));
  console.log(`rules that found nothing on the generated batch: ${silent.join(', ') || 'none'}`);
  assert.ok(silent.length <= 6, `rules found nothing: ${silent.join(', ')}`);
  for (const id of [
    'near_duplicates',
    'duplicate_content',
    'broken_links',
    'redirect_chains',
    'redirect_loops',
    'hreflang_no_return',
    'single_inlink',
    'accessibility_common',
  ])
    assert.ok(found.includes(id), `${id} found nothing`);

  const counters = { discovered: N + 40, audited: N, failed: 10, skipped: 20 };
  assert.deepEqual(computeSummary(compact, after, counters), computeSummary(plain, before, counters));

  const checksA: CheckTable = new Map();
  const checksB: CheckTable = new Map();
  for (let i = 0; i < plain.length; i++) {
    const p = plain[i]!;
    const c = compact[i]!;
    assert.equal(c.url, p.url);
    assert.deepEqual(pageDigest(c, c.facts, checksB), pageDigest(p, p.facts, checksA));
    if (p.facts === null) continue;
    // the compact facts read (and serialise) as the parsed ones
    assert.deepEqual(JSON.parse(JSON.stringify(c.facts)), p.facts);
    const done = (x: PageRow) => x as PageRow & { facts: PageFacts };
    assert.deepEqual(linkTargets(done(c)), linkTargets(done(p)));
    // the rules' walks over the links (no array made) give the same targets, in the same order
    const walk = (each: (x: DonePage, fn: (t: string) => void) => void, x: PageRow) => {
      const out: string[] = [];
      each(done(x) as DonePage, (t) => out.push(t));
      return out;
    };
    assert.deepEqual(walk(forEachTarget, c), linkTargets(done(p)));
    assert.deepEqual(walk(forEachTarget, p), linkTargets(done(p)));
    assert.deepEqual(walk(forEachLink, c), p.facts.links);
    assert.deepEqual(walk(forEachLink, p), p.facts.links);
    assert.equal(hasTargets(done(c) as DonePage), linkTargets(done(p)).length > 0);
    assert.equal(hasTargets(done(p) as DonePage), linkTargets(done(p)).length > 0);
    assert.deepEqual(c.facts!.links, p.facts.links);
    assert.deepEqual(c.facts!.failed, p.facts.failed);
    assert.equal(c.facts!.minhash, p.facts.minhash);
  }
  assert.deepEqual([...checksB], [...checksA]);
});
