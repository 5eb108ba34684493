// The crawl diff's pure function (src/crawl/diff.ts, docs/sites.md "Comparing crawls"): its
// rules — pages added, removed, changed by field; findings new, persisting (with new pages) and
// fixed; the site score; each regression reason and the page share — and its scale: two
// 100,000-page crawls compared in well under 10 s, with the digests and the diff in far less
// than 150 MB.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  diffCrawls,
  digestFacts,
  earlierPages,
  factsDigest,
  pageDigest,
  pagesDiff,
  siteScore,
  type CheckTable,
  type PageDigest,
} from '../../src/crawl/diff.js';
import {
  comparedExtractors,
  extractedKey,
  extractedPages,
  fillExtracted,
  storedDiff,
} from '../../src/crawl/diff-extracted.js';
import type { Extracted } from '../../src/crawl/extract.js';
import type { Finding } from '../../src/crawl/findings/index.js';

const page = (url: string, p: Partial<PageDigest> = {}): PageDigest => ({
  url,
  status: 200,
  redirect: null,
  audited: true,
  title: `Title of ${url}`,
  canonical: null,
  noindex: false,
  band: 'good',
  score: 90,
  failed: '',
  extracted: null,
  ...p,
});
const side = (id: number, pages: PageDigest[], findings: Finding[] = []) => ({
  id,
  finishedAt: null,
  pages,
  findings,
});
const broken = (pages: { url: string; detail?: string }[]): Finding => ({
  id: 'broken_links',
  priority: 'high',
  title: 'Broken links',
  count: pages.length,
  pages,
});

test('pageDigest: only fetched pages; audited fields only when audited; checks registered', () => {
  const checks: CheckTable = new Map();
  const facts = {
    title: 'T',
    noindex: true,
    result: 'decent' as const,
    score: 70,
    failed: [
      { id: 'b_check', priority: 'high' as const, title: 'B' },
      { id: 'a_check', priority: 'low' as const, title: 'A' },
    ],
  };
  const row = (state: string, statusCode: number | null, finalUrl: string | null = null) => ({
    url: 'https://x.test/p',
    state,
    statusCode,
    finalUrl,
    canonical: null,
  });
  assert.equal(pageDigest(row('skipped', null), null, checks), null, 'never requested: no page of the crawl');
  assert.equal(pageDigest(row('queued', null), null, checks), null);
  const done = pageDigest(row('done', 200, 'https://x.test/p'), facts, checks)!;
  assert.deepEqual(done, {
    url: 'https://x.test/p',
    status: 200,
    redirect: null,
    audited: true,
    title: 'T',
    canonical: null,
    noindex: true,
    band: 'decent',
    score: 70,
    failed: 'a_check b_check',
    extracted: null,
  });
  assert.deepEqual(checks.get('b_check'), { title: 'B', priority: 'high' });
  const redirected = pageDigest(row('skipped', 301, 'https://x.test/q'), null, checks)!;
  assert.equal(redirected.redirect, 'https://x.test/q');
  assert.equal(redirected.audited, false);
  const failed = pageDigest(row('failed', 404), facts, checks)!;
  assert.deepEqual([failed.status, failed.audited, failed.title, failed.band], [404, false, null, null]);
});

test('no earlier crawl: from null, nothing listed, the site score after', () => {
  const d = diffCrawls(null, side(2, [page('/a', { score: 81 }), page('/b', { score: 70 })]), new Map(), {
    pageShare: 0.1,
  });
  assert.equal(d.from, null);
  assert.deepEqual(d.pages, { added: [], removed: [], changed: [] });
  assert.deepEqual(d.summary.site, { before: null, after: { score: 76, band: 'decent' } });
  assert.equal(d.regressed, false);
});

test('pages added, removed and changed field by field, in URL order, with failed checks new and fixed', () => {
  const checks: CheckTable = new Map([
    ['x', { title: 'X', priority: 'low' }],
    ['y', { title: 'Y', priority: 'medium' }],
  ]);
  const d = diffCrawls(
    side(1, [page('/same'), page('/gone'), page('/t'), page('/s', { failed: 'x' }), page('/r')]),
    side(2, [
      page('/same'),
      page('/t', { title: 'New title' }),
      page('/s', { failed: 'y', score: 85 }),
      page('/r', { status: 301, redirect: '/r2', audited: false, title: null, band: null, score: null }),
      page('/new'),
    ]),
    checks,
    { pageShare: 0.5 },
  );
  assert.deepEqual(
    d.pages.added.map((p) => p.url),
    ['/new'],
  );
  assert.deepEqual(
    d.pages.removed.map((p) => p.url),
    ['/gone'],
  );
  assert.deepEqual(
    d.pages.changed.map((c) => [c.url, c.changes]),
    [
      ['/r', ['status', 'redirect', 'band']],
      ['/s', ['score', 'checks']],
      ['/t', ['title']],
    ],
  );
  const s = d.pages.changed.find((c) => c.url === '/s')!;
  assert.equal(s.scoreDelta, -5);
  assert.deepEqual(s.checks, {
    new: [{ id: 'y', title: 'Y', priority: 'medium' }],
    fixed: [{ id: 'x', title: 'X', priority: 'low' }],
  });
  assert.deepEqual(d.summary.checks, { new: 1, fixed: 1 });
  assert.equal(d.summary.pages.newlyNon200, 1);
  assert.deepEqual(
    d.reasons.map((r) => r.code),
    ['pages_non_200'],
  );
});

test('findings: new, persisting with new and fixed pages, fixed; a high-priority one on new pages regresses', () => {
  const dup = (pages: string[]): Finding => ({
    id: 'duplicate_titles',
    priority: 'medium',
    title: 'Dup',
    count: pages.length,
    pages: pages.map((url) => ({ url, detail: 'T' })),
  });
  const orphans: Finding = { id: 'orphans', priority: 'low', title: 'O', count: 1, pages: [{ url: '/o' }] };
  const d = diffCrawls(
    side(1, [page('/a')], [dup(['/a', '/b']), broken([{ url: '/a', detail: '/x (404)' }]), orphans]),
    side(
      2,
      [page('/a')],
      [
        dup([]),
        broken([
          { url: '/a', detail: '/x (404)' },
          { url: '/a', detail: '/y (404)' },
        ]),
      ],
    ),
    new Map(),
    { pageShare: 0.1 },
  );
  assert.deepEqual(
    d.findings.map((f) => [f.id, f.state, f.pages.length, f.newPages.length, f.fixedPages.length]),
    [
      ['duplicate_titles', 'fixed', 2, 0, 2],
      ['broken_links', 'persisting', 2, 1, 0],
      ['orphans', 'fixed', 1, 0, 1],
    ],
  );
  assert.deepEqual(d.summary.findings, { new: 0, persisting: 1, fixed: 2 });
  assert.deepEqual(
    d.reasons.map((r) => [r.code, r.finding, r.count]),
    [['high_priority_finding', 'broken_links', 1]],
  );
  // the same pages as before: not a regression
  const same = diffCrawls(
    side(1, [page('/a')], [broken([{ url: '/a', detail: '/x (404)' }])]),
    side(2, [page('/a')], [broken([{ url: '/a', detail: '/x (404)' }])]),
    new Map(),
    { pageShare: 0.1 },
  );
  assert.equal(same.regressed, false);
});

test("the site's band, newly noindex pages and the share of pages dropping a band", () => {
  const before = Array.from({ length: 10 }, (_, i) => page(`/p${i}`, { score: 85 }));
  const oneDrops = before.map((p, i) => (i === 0 ? { ...p, band: 'decent' as const, score: 60 } : p));
  const d1 = diffCrawls(side(1, before), side(2, oneDrops), new Map(), { pageShare: 0.1 });
  assert.equal(d1.summary.pages.bandsDropped, 1);
  assert.equal(d1.regressed, false, '1 of 10 is not more than 10%');
  const twoDrop = oneDrops.map((p, i) =>
    i === 1 ? { ...p, band: 'bad' as const, score: 20, noindex: true } : p,
  );
  const d2 = diffCrawls(side(1, before), side(2, twoDrop), new Map(), { pageShare: 0.1 });
  assert.deepEqual(
    d2.reasons.map((r) => r.code),
    ['site_band_dropped', 'pages_noindex', 'pages_band_dropped'],
  );
  assert.deepEqual(d2.summary.site, {
    before: { score: 85, band: 'good' },
    after: { score: 76, band: 'decent' },
  });
  assert.deepEqual(siteScore([]), null);
});

test("pagesDiff: the later crawl's pages one at a time, in any order, give diffCrawls's diff; check titles from the table at the end", () => {
  const before = [
    page('/a', { failed: 'image_alt' }),
    page('/b', { score: 70, band: 'decent' }),
    page('/gone'),
    page('/redirected', {
      audited: false,
      status: 301,
      redirect: '/b',
      title: null,
      band: null,
      score: null,
    }),
  ];
  const after = [
    page('/new', { score: 40, band: 'bad' }),
    page('/b', { score: 95 }),
    page('/a', { failed: 'meta_description title_length' }),
    page('/redirected', { status: 404, audited: false, title: null, band: null, score: null }),
  ];
  const findings = [broken([{ url: '/gone' }])];
  const checks: CheckTable = new Map([
    ['image_alt', { title: 'Images without alt', priority: 'medium' }],
    ['meta_description', { title: 'Meta description', priority: 'high' }],
  ]);
  const whole = diffCrawls(side(1, before, findings), side(2, after, []), checks, { pageShare: 0.1 });
  for (const order of [after, [...after].reverse()]) {
    const pages = pagesDiff(earlierPages(before));
    // the table is filled as the pages are read: the titles are taken from it at the end
    const table: CheckTable = new Map();
    for (const p of order) pages.add(p);
    for (const [id, c] of checks) table.set(id, c);
    const d = pages.end(
      { id: 1, finishedAt: null, findings },
      { id: 2, finishedAt: null, findings: [] },
      table,
      { pageShare: 0.1 },
    );
    assert.deepEqual(d, whole);
    assert.equal(JSON.stringify(d), JSON.stringify(whole), 'the same JSON, key order included');
  }
  const a = whole.pages.changed.find((c) => c.url === '/a')!;
  assert.deepEqual(a.checks.new, [
    { id: 'meta_description', title: 'Meta description', priority: 'high' },
    { id: 'title_length', title: 'title_length', priority: 'low' },
  ]);
  assert.deepEqual(a.checks.fixed, [{ id: 'image_alt', title: 'Images without alt', priority: 'medium' }]);
  assert.deepEqual(
    [
      whole.summary.pages.before,
      whole.summary.pages.after,
      whole.summary.pages.added,
      whole.summary.pages.removed,
    ],
    [4, 4, 1, 1],
  );
  // no earlier crawl: the pages counted and scored, nothing listed
  const first = pagesDiff(null);
  for (const p of after) first.add(p);
  assert.deepEqual(
    first.end(null, { id: 2, finishedAt: null, findings: [] }, checks, { pageShare: 0.1 }),
    diffCrawls(null, side(2, after), checks, { pageShare: 0.1 }),
  );
});

test('scale: two 100,000-page crawls (a tenth of the pages changed) compared in well under 10 s and 150 MB', () => {
  const N = 100_000;
  const checks: CheckTable = new Map();
  const ids = ['meta_description', 'image_alt', 'title_length', 'h1_present', 'canonical', 'hreflang'];
  for (const id of ids) checks.set(id, { title: id, priority: 'medium' });
  // a real collection before each reading: heapUsed without garbage
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const idle = process.memoryUsage().heapUsed;
  const make = (v: number) =>
    Array.from({ length: N }, (_, i) =>
      page(
        `https://www.example.com/section-${i % 100}/article-${i}-a-fairly-long-slug-${v === 2 && i % 50 === 0 ? 'moved' : 'here'}`,
        {
          title: `Article ${i} about something — Example${v === 2 && i % 20 === 0 ? ' (updated)' : ''}`,
          score: 60 + ((i + (v === 2 && i % 10 === 0 ? 1 : 0)) % 40),
          band: 60 + (i % 40) >= 80 ? 'good' : 'decent',
          failed: ids
            .slice(0, i % 4)
            .sort()
            .join(' '),
        },
      ),
    );
  const a = side(1, make(1));
  const b = side(2, make(2));
  const t0 = performance.now();
  const d = diffCrawls(a, b, checks, { pageShare: 0.1 });
  const ms = performance.now() - t0;
  gc();
  const used = (process.memoryUsage().heapUsed - idle) / 1024 / 1024;
  console.log(
    `# two ${N}-page crawls: the diff in ${Math.round(ms)} ms; ${Math.round(used)} MB of heap (both crawls' digests and the diff)`,
  );
  assert.equal(d.summary.pages.added, N / 50);
  assert.equal(d.summary.pages.removed, N / 50);
  assert.equal(d.summary.pages.changed, N / 10 - N / 50, 'every tenth page, those moved aside');
  assert.ok(ms < 10_000, `${ms} ms`);
  assert.ok(used < 150, `${used} MB`);
});

test('a finding the earlier crawl has no entry for (a rule added since, an older baseline) is new but no regression', () => {
  // every crawl lists every rule, found or not; an id missing from the earlier list did not exist
  const newRule: Finding = {
    id: 'canonical_to_noindex',
    priority: 'high',
    title: 'Canonical to a noindex page',
    count: 1,
    pages: [{ url: '/a', detail: '/b' }],
  };
  const d = diffCrawls(
    side(1, [page('/a')], [broken([])]),
    side(2, [page('/a')], [broken([]), newRule]),
    new Map(),
    { pageShare: 0.1 },
  );
  assert.deepEqual(
    d.findings.map((f) => [f.id, f.state]),
    [['canonical_to_noindex', 'new']],
  );
  assert.equal(d.regressed, false);
  assert.deepEqual(d.reasons, []);
  // the same finding against an earlier crawl that had the rule and found nothing: a regression
  const known = diffCrawls(
    side(1, [page('/a')], [broken([]), { ...newRule, count: 0, pages: [] }]),
    side(2, [page('/a')], [broken([]), newRule]),
    new Map(),
    { pageShare: 0.1 },
  );
  assert.equal(known.regressed, true);
  assert.deepEqual(
    known.reasons.map((r) => [r.code, r.finding]),
    [['high_priority_finding', 'canonical_to_noindex']],
  );
});

test('a stored digest (factsDigest) gives the page the same digest as its facts', () => {
  const facts = {
    title: 'A "quoted" title, with a comma',
    description: 'not in the digest',
    noindex: false,
    result: 'bad' as const,
    score: 31,
    links: ['https://x.test/a'],
    failed: [
      { id: 'b_check', priority: 'high' as const, title: 'B, the check' },
      { id: 'a_check', priority: 'low' as const, title: 'A' },
    ],
  };
  const row = { url: 'https://x.test/p', state: 'done', statusCode: 200, finalUrl: null, canonical: null };
  const fromFacts: CheckTable = new Map();
  const fromDigest: CheckTable = new Map();
  const text = factsDigest(facts);
  assert.ok(!text.includes('links') && !text.includes('not in the digest'), 'only what the diff reads');
  assert.deepEqual(pageDigest(row, digestFacts(text), fromDigest), pageDigest(row, facts, fromFacts));
  assert.deepEqual([...fromDigest], [...fromFacts], 'the checks registered alike');
  assert.deepEqual(digestFacts(factsDigest({ ...facts, title: null, noindex: true, failed: [] })), {
    title: null,
    noindex: true,
    result: 'bad',
    score: 31,
    failed: [],
  });
});

test('custom extraction: the extractors both crawls have, compared by a key a page, the values filled for the pages that differ', () => {
  const names = comparedExtractors(['price', 'sku', 'old'], ['tags', 'sku', 'price']);
  assert.deepEqual(names, ['price', 'sku'], 'names in both, sorted; old and tags are not compared');
  const long = 'x'.repeat(1000);
  const before = new Map<string, Extracted>([
    ['/same', { price: '€10', sku: 'A1', old: 'gone' }],
    ['/price', { price: '€10', sku: 'A2', old: 'gone' }],
    ['/tags-only', { price: null, sku: 'A3', old: 'was' }],
    ['/long', { price: long, sku: 'A4' }],
    ['/both', { price: '€1', sku: 'A5' }],
  ]);
  const after = new Map<string, Extracted>([
    ['/same', { price: '€10', sku: 'A1', tags: ['a'] }],
    ['/price', { price: '€12', sku: 'A2', tags: ['a'] }],
    ['/tags-only', { price: null, sku: 'A3', tags: ['b', 'c'] }],
    ['/long', { price: `${long.slice(1)}y`, sku: 'A4' }],
    ['/both', { price: '€1', sku: 'A5' }],
  ]);
  // keys: short values inline, long ones hashed; equal values, equal keys
  assert.equal(extractedKey({ price: '€10', sku: 'A1' }, names), '=["€10","A1"]');
  assert.match(extractedKey(before.get('/long'), names)!, /^#[0-9a-z]+\.[0-9a-z]+$/);
  assert.notEqual(extractedKey(before.get('/long'), names), extractedKey(after.get('/long'), names));
  assert.equal(extractedKey(before.get('/same'), names), extractedKey(after.get('/same'), names));
  assert.equal(extractedKey(null, names), null);
  assert.equal(extractedKey(before.get('/same'), []), null);

  // each page's key over the names both crawls have (their other extractors play no part)
  const side2 = (id: number, values: Map<string, Extracted>) =>
    side(
      id,
      [...values].map(([url, v]) => page(url, { extracted: extractedKey(v, names) })),
    );
  const options = { pageShare: 0.1, extracted: names };
  const later = side2(2, after);
  // /both: its title changed, and not its values
  later.pages = later.pages.map((p) => (p.url === '/both' ? { ...p, title: 'Retitled' } : p));
  const d = diffCrawls(side2(1, before), later, new Map(), options);
  assert.deepEqual(d.summary.extracted, { names: ['price', 'sku'], changed: 2 });
  assert.deepEqual(extractedPages(d), ['/long', '/price']);
  assert.deepEqual(
    d.pages.changed.map((c) => [c.url, c.changes]),
    [
      ['/both', ['title']],
      ['/long', ['extracted']],
      ['/price', ['extracted']],
    ],
    'a page whose only change is an extracted value is changed; names of one crawl only are not compared',
  );
  fillExtracted(d, before, after);
  assert.deepEqual(d.pages.changed.find((c) => c.url === '/price')!.extracted, [
    { name: 'price', before: '€10', after: '€12' },
  ]);
  assert.deepEqual(
    d.pages.changed.find((c) => c.url === '/long')!.extracted.map((x) => x.name),
    ['price'],
  );
  assert.deepEqual(d.pages.changed.find((c) => c.url === '/both')!.extracted, []);
  assert.equal(d.summary.pages.changed, 3);

  // values not found again (the page went between the reads): the change goes, and the page
  // with it when nothing else changed
  const again = diffCrawls(side2(1, before), side2(2, after), new Map(), options);
  fillExtracted(again, new Map([...before].filter(([url]) => url !== '/price')), after);
  assert.deepEqual(
    again.pages.changed.map((c) => c.url),
    ['/long'],
  );
  assert.deepEqual([again.summary.pages.changed, again.summary.extracted.changed], [1, 1]);

  // an `all` extractor: arrays compared whole; a page audited on one side only compares nothing
  const tags = ['tags'];
  const all = diffCrawls(
    side(1, [
      page('/t', { extracted: extractedKey({ tags: ['a', 'b'] }, tags) }),
      page('/u', { extracted: extractedKey({ tags: [] }, tags) }),
    ]),
    side(2, [
      page('/t', { extracted: extractedKey({ tags: ['a'] }, tags) }),
      page('/u', { status: 500, audited: false, title: null, band: null, score: null, extracted: null }),
    ]),
    new Map(),
    { pageShare: 0.1, extracted: tags },
  );
  fillExtracted(all, new Map([['/t', { tags: ['a', 'b'] }]]), new Map([['/t', { tags: ['a'] }]]));
  assert.deepEqual(all.pages.changed.find((c) => c.url === '/t')!.extracted, [
    { name: 'tags', before: ['a', 'b'], after: ['a'] },
  ]);
  assert.ok(!all.pages.changed.find((c) => c.url === '/u')!.changes.includes('extracted'));

  // a diff stored before extraction was compared reads with the empty parts
  const old = JSON.parse(JSON.stringify(d)) as {
    summary: Record<string, unknown>;
    pages: { changed: Record<string, unknown>[] };
  };
  delete old.summary['extracted'];
  for (const c of old.pages.changed) delete c['extracted'];
  const read = storedDiff(JSON.stringify(old));
  assert.deepEqual(read.summary.extracted, { names: [], changed: 0 });
  assert.ok(read.pages.changed.every((c) => Array.isArray(c.extracted)));
});
