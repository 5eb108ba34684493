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

test('findings: the results list every finding in registry order, empty ones included', () => {
  const page = (url: string, links: string[], title: string): PageForFindings => ({
    url,
    state: 'done',
    inSitemap: false,
    statusCode: 200,
    finalUrl: url,
    error: null,
    facts: {
      title,
      description: null,
      canonical: null,
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
    title: 'Internal links to pages that answered 4xx/5xx or could not be fetched',
    count: 1,
    pages: [{ url: a, detail: `${gone} (404)` }],
  });
  assert.equal(byId.orphans?.count, 0);
});
