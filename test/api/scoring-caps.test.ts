// The scoring caps through the API (issue 13 item 2): a page answering 4xx/5xx is stored as
// "bad" whatever else it scores; a page kept out of search engines (noindex, robots.txt) is at
// most "decent". Real fetches from the fixture site, every dialect.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SCORING } from '../../src/analyzer/scoring.js';
import { goodPage, html } from '../helpers/fixture-server.js';
import { forEachDialect, withBody } from '../helpers/api-harness.js';

interface Stored {
  data: {
    result: string;
    score: number;
    results: Record<string, { passed: boolean | null; message: string }>;
  };
}

forEachDialect('scoring caps through the API', (h) => {
  before(() => {
    const origin = h().fixture.origin;
    const page = goodPage(origin);
    h().fixture.route('/gone', html(page, {}, 404));
    h().fixture.route('/broken', html(page, {}, 500));
    h().fixture.route(
      '/hidden',
      html(page.replace('<head>', '<head><meta name="robots" content="noindex">')),
    );
    h().fixture.route('/private/page', html(page));
    h().fixture.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    });
  });

  async function store(path: string): Promise<Stored['data']> {
    const res = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, { url: `${h().site('caps')}${path}` }),
    );
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as Stored).data;
  }

  test('the well-made page itself is good (the baseline the caps act on)', async () => {
    const r = await store('/');
    assert.equal(r.result, 'good', `score ${r.score}`);
  });

  for (const [path, status] of [
    ['/gone', 404],
    ['/broken', 500],
  ] as const) {
    test(`the same page answering ${status} is stored as bad, score capped at 48, and says why`, async () => {
      const r = await store(path);
      assert.equal(r.result, 'bad');
      assert.equal(r.score, SCORING.caps[0].max);
      assert.equal(r.results.http_status!.passed, false);
      const m = /the checks alone give (\d+)\./.exec(r.results.http_status!.message);
      assert.ok(m, r.results.http_status!.message);
      assert.ok(Number(m[1]) > 48, `uncapped ${m[1]}: the cap changed the result`);
      // the list filter agrees with the band
      const list = await h().request({
        url: `/api/v1/reports?result=bad&search=${encodeURIComponent(path)}`,
        headers: h().alice.auth,
      });
      assert.ok((list.json() as { data: { score: number }[] }).data.some((x) => x.score === 48));
    });
  }

  test('noindex caps the page at 79 (decent)', async () => {
    const r = await store('/hidden');
    assert.equal(r.results.noindex!.passed, false);
    assert.equal(r.result, 'decent');
    assert.equal(r.score, 79);
    assert.match(r.results.noindex!.message, /capped at 79 \(decent\)/);
  });

  test('a page robots.txt disallows is capped at 79 (decent)', async () => {
    const r = await store('/private/page');
    assert.equal(r.results.robots!.passed, false);
    assert.equal(r.result, 'decent');
    assert.equal(r.score, 79);
    assert.match(r.results.robots!.message, /capped at 79 \(decent\)/);
  });
});
