// A broad search of the reports (more than SEARCH_COUNT_BOUND matches, every project) answers
// an estimated total, flagged `meta.total_is_estimate: true`, made from the share of the newest
// reports it matches; everything else stays exact and unflagged: a search at the bound, one
// within a project, a list without a search (docs/api.md, "Estimated totals"); the dashboard
// says "about" before the estimate. 16,500 reports seeded in bulk, two in three of them
// matching; every dialect.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachDialect } from '../helpers/api-harness.js';
import { insertReports } from '../helpers/db.js';
import { Browser } from '../helpers/browser.js';
import { SEARCH_COUNT_BOUND } from '../../src/services/reports/reports.service.js';

interface ListBody {
  data: { url: string }[];
  links: { last: string; next: string | null };
  meta: { total: number; last_page: number; total_is_estimate?: true };
}

const N = 16_500;
const url = (i: number) => `https://site-${i % 50}.test/${i % 3 === 0 ? 'plain' : 'tomato'}/${i}`;
const MATCHES = Array.from({ length: N }, (_, i) => i).filter((i) => i % 3 !== 0).length; // 11,000

forEachDialect('estimated totals', (h) => {
  before(async () => {
    await insertReports(
      h().database.db,
      h().alice.id,
      Array.from({ length: N }, (_, i) => ({ url: url(i) })),
    );
  });

  const list = async (query: string) => {
    const res = await h().request({ url: `/api/v1/reports${query}`, headers: h().alice.auth });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as ListBody;
  };

  test('a search with more matches than the bound: an estimated total, flagged, near the exact one', async () => {
    assert.ok(MATCHES > SEARCH_COUNT_BOUND);
    const body = await list('?search=tomato');
    assert.equal(body.meta.total_is_estimate, true);
    assert.ok(
      Math.abs(body.meta.total - MATCHES) <= MATCHES * 0.02,
      `estimated ${body.meta.total}, exactly ${MATCHES}`,
    );
    assert.ok(body.meta.total > SEARCH_COUNT_BOUND);
    assert.equal(body.meta.last_page, Math.ceil(body.meta.total / 10));
    assert.equal(body.data.length, 10);
    assert.ok(body.data.every((r) => r.url.includes('/tomato/')));
    assert.notEqual(body.links.next, null);
  });

  test('exact and unflagged: a search at the bound, within a project, and no search', async () => {
    const plain = await list('?search=plain');
    assert.equal(plain.meta.total, N - MATCHES);
    assert.equal(plain.meta.total_is_estimate, undefined);
    const inProject = await list('?search=tomato&project=site-1.test');
    assert.equal(
      inProject.meta.total,
      Array.from({ length: N }, (_, i) => i).filter((i) => i % 50 === 1 && i % 3 !== 0).length,
    );
    assert.equal(inProject.meta.total_is_estimate, undefined);
    const all = await list('');
    assert.equal(all.meta.total, N);
    assert.equal(all.meta.total_is_estimate, undefined);
  });

  test('the dashboard says "about" before an estimated total, never before an exact one', async () => {
    const b = new Browser(h().app);
    await b.login(h().alice.key);
    const broad = await b.get('/dashboard?search=tomato');
    assert.equal(broad.statusCode, 200);
    const about = /<p class="muted">1–10 of about (\d+)<\/p>/.exec(broad.body);
    assert.ok(about, 'the broad search shows "about"');
    // the API's estimate, as the dashboard reads it from the same service
    assert.equal(Number(about[1]), (await list('?search=tomato')).meta.total);
    const exact = await b.get('/dashboard?search=plain');
    assert.equal(exact.statusCode, 200);
    assert.match(exact.body, new RegExp(`<p class="muted">1–10 of ${N - MATCHES}</p>`));
    assert.doesNotMatch(exact.body, /of about/);
  });
});
