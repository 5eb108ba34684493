// The AI readiness and accessibility site findings (issue 21 §4–§5, docs/sites.md), from the
// per-page facts: accessibility_common lists the axe rules failing on most rendered pages,
// llms_txt_invalid the site's /llms.txt status once, ai_crawlers_blocked the pages kept from
// AI crawlers. The facts themselves come from a report (categoryFacts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { categoryFacts, type PageFacts } from '../../src/crawl/facts.js';
import { computeFindings, type PageForFindings } from '../../src/crawl/findings/index.js';
import type { AuditReport } from '../../src/analyzer/types.js';

const page = (url: string, extra: Partial<PageFacts>): PageForFindings => ({
  url,
  state: 'done',
  inSitemap: false,
  statusCode: 200,
  finalUrl: url,
  error: null,
  facts: {
    title: url,
    description: null,
    canonical: null,
    hreflang: [],
    noindex: false,
    links: [],
    nofollow: [],
    redirected: false,
    result: 'good',
    score: 90,
    failed: [],
    totalMs: 10,
    htmlBytes: 100,
    ...extra,
  },
});
const find = (pages: PageForFindings[], id: string) =>
  computeFindings(pages, pages[0]!.url).find((f) => f.id === id)!;

test('accessibility_common: rules broken on more than half of the judged pages (and at least 2), per page', () => {
  const pages = [
    page('https://s.test/a', { axe: ['color-contrast', 'image-alt'] }),
    page('https://s.test/b', { axe: ['color-contrast', 'link-name'] }),
    page('https://s.test/c', { axe: ['image-alt', 'color-contrast'] }),
    page('https://s.test/d', { axe: [] }),
    page('https://s.test/raw', {}), // not judged by axe: not counted
  ];
  const f = find(pages, 'accessibility_common');
  assert.equal(f.priority, 'high');
  assert.deepEqual(f.pages, [
    { url: 'https://s.test/a', detail: 'color-contrast' },
    { url: 'https://s.test/b', detail: 'color-contrast' },
    { url: 'https://s.test/c', detail: 'color-contrast' },
  ]);
  // image-alt on 2 of 4 is not "most"; one page alone never makes a rule common
  assert.equal(find([page('https://s.test/x', { axe: ['image-alt'] })], 'accessibility_common').count, 0);
  // a raw crawl has no axe facts: nothing
  assert.equal(
    find([page('https://s.test/r1', {}), page('https://s.test/r2', {})], 'accessibility_common').count,
    0,
  );
});

test('llms_txt_invalid and ai_crawlers_blocked: the site summary in two small findings', () => {
  const ai = (blocked: string[], directives: string[], llms: string | null) => ({
    ai: { blocked, directives, llms },
  });
  const pages = [
    page('https://s.test/', ai(['GPTBot'], [], 'The site has no /llms.txt (it answered 404).')),
    page('https://s.test/open', ai([], [], 'The site has no /llms.txt (it answered 404).')),
    page(
      'https://s.test/art',
      ai(['GPTBot', 'CCBot'], ['noai (meta robots)'], 'The site has no /llms.txt (it answered 404).'),
    ),
  ];
  assert.deepEqual(find(pages, 'llms_txt_invalid').pages, [
    { url: 'https://s.test/', detail: 'The site has no /llms.txt (it answered 404).' },
  ]);
  assert.deepEqual(find(pages, 'ai_crawlers_blocked').pages, [
    { url: 'https://s.test/', detail: 'robots.txt blocks GPTBot' },
    { url: 'https://s.test/art', detail: 'robots.txt blocks GPTBot, CCBot; noai (meta robots)' },
  ]);
  const valid = [page('https://s.test/', ai([], [], 'valid'))];
  assert.equal(find(valid, 'llms_txt_invalid').count, 0);
  assert.equal(find(valid, 'ai_crawlers_blocked').count, 0);
});

test('categoryFacts: what a report gives the crawl (blocked agents, directives, llms.txt, axe rule ids)', () => {
  const result = (id: string, passed: boolean | null, value: unknown, message = '') => ({
    id,
    category: 'ai',
    priority: 'low',
    passed,
    title: id,
    message,
    value,
    how_to_fix: '',
  });
  const report = {
    results: {
      ai_crawlers: result('ai_crawlers', true, ['GPTBot']),
      ai_directives: result('ai_directives', true, []),
      llms_txt: result('llms_txt', false, 'invalid', '/llms.txt does not follow the format: …'),
    },
    render: { accessibility: { counts: {}, violations: [{ id: 'image-alt' }, { id: 'link-name' }] } },
  } as unknown as AuditReport;
  assert.deepEqual(categoryFacts(report), {
    ai: { blocked: ['GPTBot'], directives: [], llms: '/llms.txt does not follow the format: …' },
    axe: ['image-alt', 'link-name'],
  });
  const raw = { results: { llms_txt: result('llms_txt', true, 'valid') } } as unknown as AuditReport;
  assert.deepEqual(categoryFacts(raw), { ai: { blocked: [], directives: [], llms: 'valid' } });
});
