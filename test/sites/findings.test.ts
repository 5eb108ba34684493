// The site-level findings' registry (src/crawl/findings/): one rule a file, each registered once
// in FINDINGS under its file name, in the order the results list them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { computeFindings, FINDINGS, type PageForFindings } from '../../src/crawl/findings/index.js';

const dir = fileURLToPath(new URL('../../src/crawl/findings/', import.meta.url));
const NOT_RULES = new Set(['index.ts', 'context.ts', 'types.ts', 'summary.ts']);

test('findings: every rule file is registered once, under its file name', () => {
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts') && !NOT_RULES.has(n))
    .map((n) => n.replace(/\.ts$/, ''))
    .sort();
  const ids = FINDINGS.map((f) => f.id);
  assert.equal(new Set(ids).size, ids.length, 'ids repeat');
  assert.deepEqual([...ids].sort(), files);
});

const page = (
  url: string,
  links: string[],
  title: string,
  canonical: string | null = null,
): PageForFindings => ({
  url,
  state: 'done',
  inSitemap: false,
  statusCode: 200,
  finalUrl: url,
  error: null,
  facts: {
    title,
    description: null,
    canonical,
    hreflang: [],
    noindex: false,
    links,
    nofollow: [],
    redirected: false,
    result: 'good',
    score: 90,
    failed: [],
    totalMs: 10,
    htmlBytes: 100,
  },
});

test('findings: the results list every finding in registry order, empty ones included', () => {
  const a = 'http://127.0.0.1/a';
  const b = 'http://127.0.0.1/b';
  const gone = 'http://127.0.0.1/gone';
  const pages = [
    page(a, [b, gone], 'Same'),
    page(b, [a], 'Same'),
    {
      url: gone,
      state: 'failed',
      inSitemap: false,
      statusCode: 404,
      finalUrl: gone,
      error: null,
      facts: null,
    },
  ] satisfies PageForFindings[];
  const found = computeFindings(pages, a);
  assert.deepEqual(
    found.map((f) => f.id),
    FINDINGS.map((f) => f.id),
  );
  const byId = Object.fromEntries(found.map((f) => [f.id, f]));
  assert.deepEqual(byId.duplicate_titles?.pages, [
    { url: a, detail: 'Same' },
    { url: b, detail: 'Same' },
  ]);
  assert.deepEqual(byId.broken_links, {
    id: 'broken_links',
    priority: 'high',
    title: 'Internal links to pages that answered 4xx/5xx or could not be fetched',
    count: 1,
    pages: [{ url: a, detail: `${gone} (404)` }],
  });
  assert.equal(byId.orphans?.count, 0);
});

test('findings: canonical_template, when more than half the audited pages (and 5) canonicalise to one URL', () => {
  const home = 'http://127.0.0.1/';
  const p = (i: number) => `http://127.0.0.1/p/${i}`;
  const site = (n: number, pointing: number) => [
    page(home, [], 'Home', home),
    ...Array.from({ length: n }, (_, k) =>
      page(p(k + 1), [home], `Page ${k + 1}`, k < pointing ? home : p(k + 1)),
    ),
  ];
  const template = (pages: PageForFindings[]) =>
    computeFindings(pages, home).find((f) => f.id === 'canonical_template')!;
  // 6 of 7 pages name the home page: one finding naming it, with those 6 pages
  const found = template(site(6, 6));
  assert.equal(found.priority, 'high');
  assert.equal(found.count, 6);
  assert.deepEqual(
    found.pages,
    Array.from({ length: 6 }, (_, k) => ({ url: p(k + 1), detail: `canonicalised to ${home}` })),
  );
  // half is not more than half (5 of 10 + the home page), and fewer than 5 pages never count
  assert.equal(template(site(10, 5)).count, 0);
  assert.equal(template(site(4, 4)).count, 0);
  assert.equal(template(site(10, 6)).count, 6);
  // a page that names itself is not canonicalised
  assert.equal(template(site(6, 0)).count, 0);
});
