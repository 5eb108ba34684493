// The dashboard's lists take the same `page` schema as the API (a whole number from 1 to
// MAX_PAGE) and read it the forgiving way a person's address bar needs: a page that is not
// one (`Infinity`, `1e309`, one past the maximum) shows the first page with a notice, never
// an error page; the API answers the same values with a 422 (test/api/paging.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PAGE } from '../../src/contract/lists.js';
import { describeEachDialect } from '../helpers/app.js';
import { Browser, createPagesHarness, type PagesHarness } from '../helpers/pages-harness.js';

describeEachDialect('dashboard paging', (dialect) => {
  let h: PagesHarness;
  let b: Browser;
  let lists: string[] = [];

  before(async () => {
    h = await createPagesHarness(dialect);
    b = new Browser(h.app);
    await b.login(h.alice.key);
    await h.report(h.alice, '/');
    const batch = await h.services.batches.create(h.alice.id, {
      url: `${h.site('site')}/`,
      mode: 'list',
      urls: [`${h.site('site')}/`],
    });
    lists = ['/dashboard', '/dashboard/projects', '/dashboard/batches', `/dashboard/batches/${batch.id}`];
  });
  after(() => h.close());

  test('a page that is not one shows the first page with a notice, on every list', async () => {
    for (const list of lists) {
      for (const page of ['Infinity', '-Infinity', '1e309', '99999999999999999999999', String(MAX_PAGE + 1)]) {
        const res = await b.get(`${list}?page=${page}`);
        assert.equal(res.statusCode, 200, `${list}?page=${page}`);
        assert.ok(
          res.body.includes(`The page cannot be “${page}”, so the first page is shown.`),
          `${list}?page=${page}: the notice`,
        );
      }
      const last = await b.get(`${list}?page=${MAX_PAGE}`);
      assert.equal(last.statusCode, 200, `${list}?page=${MAX_PAGE}`);
      assert.doesNotMatch(last.body, /alert--notice/, `${list}?page=${MAX_PAGE} is a page`);
    }
  });
});
