// One list contract: every paged list of the API goes through one `page` schema (a whole number
// from 1 to MAX_PAGE). A fuzz run once found `page=Infinity`, `1e309`, `-Infinity` and
// 99999999999999999999999 answering 500 (the database refused the number); every such value
// is a 422 naming `page`, on every list, and the highest page answers an empty page. The
// dashboard's lists fall back to the first page with a notice (test/pages/ui.test.ts).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PAGE } from '../../src/contract/lists.js';
import { forEachDialect } from '../helpers/api-harness.js';

const BAD_PAGES = [
  'Infinity',
  '-Infinity',
  '%2BInfinity',
  'NaN',
  '1e309',
  '-1e309',
  '99999999999999999999999',
  '9007199254740993',
  String(MAX_PAGE + 1),
  '0x10',
  '0',
  '-1',
  '1.5',
  'abc',
  '',
];

forEachDialect('paging', (h) => {
  // every paged list of the API, on resources alice owns
  let lists: string[] = [];

  before(async () => {
    const { alice } = h();
    const report = await h().services.reports.create(alice.id, { url: `${h().site('paging')}/` });
    const batch = await h().services.batches.create(alice.id, {
      url: `${h().site('paging')}/`,
      mode: 'list',
      urls: [`${h().site('paging')}/`],
    });
    const { webhook } = await h().services.webhooks.create(alice.id, {
      url: `${h().site('receiver')}/hook`,
      events: ['report.created'],
    });
    lists = [
      '/api/v1/reports',
      '/api/v1/projects',
      `/api/v1/reports/${report.id}/runs`,
      '/api/v1/batches',
      `/api/v1/batches/${batch.id}/failures`,
      '/api/v1/schedules',
      '/api/v1/webhooks',
      `/api/v1/webhooks/${webhook.id}/deliveries`,
    ];
  });

  test('a page that is not a whole number from 1 to the maximum is a 422 naming page, on every list', async () => {
    for (const list of lists) {
      for (const page of BAD_PAGES) {
        const res = await h().request({ url: `${list}?page=${page}`, headers: h().alice.auth });
        assert.equal(res.statusCode, 422, `${list}?page=${page}: ${res.body}`);
        const body = res.json() as { errors: Record<string, string[]> };
        assert.deepEqual(Object.keys(body.errors), ['page'], `${list}?page=${page}`);
        assert.match(body.errors.page![0]!, /page must be a whole number of at least 1/);
      }
    }
  });

  test('the highest page answers an empty page with the right envelope, on every list', async () => {
    for (const list of lists) {
      const res = await h().request({ url: `${list}?page=${MAX_PAGE}`, headers: h().alice.auth });
      assert.equal(res.statusCode, 200, `${list}: ${res.body}`);
      const body = res.json() as { data: unknown[]; meta: { current_page: number; from: number | null } };
      assert.deepEqual(body.data, [], list);
      assert.equal(body.meta.current_page, MAX_PAGE, list);
      assert.equal(body.meta.from, null, list);
    }
  });
});
