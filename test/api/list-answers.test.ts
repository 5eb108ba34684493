// GET /api/v1/reports keeps its finished answers per process while the version of the
// organisation's reports is current (docs/api.md, "Kept answers"): a repeated list is the same
// bytes without reading the rows again — shown here by a row changed behind the services' back
// (no new version), which the kept answer does not show — and every change a list row shows
// through the API (a new report, privacy and password, a re-audit, a delete) makes a new
// version, so the next answer is fresh. Another organisation's list and another query string
// are answers of their own. Every dialect; real audits of fixture pages.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { forEachDialect, withBody } from '../helpers/api-harness.js';
import { AnswerCache } from '../../src/services/shared/list-cache.js';
import { CRAWL_TRAIL_MS } from '../../src/services/reports/reports.service.js';
import { bumpReportsVersion } from '../../src/store/organizations.repository.js';

interface Item {
  id: number;
  final_url: string;
  privacy: number;
  has_password: boolean;
  generated_at: string;
}
interface ListBody {
  data: Item[];
  meta: { total: number };
}

forEachDialect('kept list answers', (h) => {
  const ids: number[] = [];

  before(async () => {
    for (let i = 0; i < 3; i++) {
      const r = await h().services.reports.create(h().alice.id, { url: `${h().site('kept')}/?n=${i}` });
      ids.push(r.id);
    }
  });

  const list = async (query = '', who = h().alice.auth) => {
    const res = await h().request({ url: `/api/v1/reports${query}`, headers: who });
    assert.equal(res.statusCode, 200, res.body);
    return { text: res.body, body: res.json() as ListBody };
  };
  /** a row changed behind the services' back: no new version */
  const changeBehind = (id: number, finalUrl: string) =>
    sql`UPDATE reports SET final_url = ${finalUrl} WHERE id = ${id}`.execute(h().database.db);
  const item = (b: ListBody, id: number) => b.data.find((x) => x.id === id)!;

  test("a crawl's pages: a kept answer trails them by at most CRAWL_TRAIL_MS; any other change shows at once", async () => {
    const q = '?sort_by=url&per_page=25';
    const first = await list(q);
    const was = item(first.body, ids[1]!).final_url;
    // as a crawl's page stores its report: a new version, counted as a crawl's write
    await changeBehind(ids[1]!, 'http://crawled.test/');
    await bumpReportsVersion(h().database.db, h().alice.id, true);
    const trailing = await list(q);
    assert.equal(trailing.text, first.text, 'within the second: the kept answer');
    await new Promise((r) => setTimeout(r, CRAWL_TRAIL_MS + 100));
    const later = await list(q);
    assert.equal(item(later.body, ids[1]!).final_url, 'http://crawled.test/', 'after it: made again');
    // anything else (an API write, a batch's end): shown at once
    await changeBehind(ids[1]!, 'http://api.test/');
    await bumpReportsVersion(h().database.db, h().alice.id);
    const now = await list(q);
    assert.equal(item(now.body, ids[1]!).final_url, 'http://api.test/');
    await changeBehind(ids[1]!, was);
    await bumpReportsVersion(h().database.db, h().alice.id);
  });

  test('a repeated list is the kept answer; another query string or organisation is its own', async () => {
    const first = await list();
    assert.equal(first.body.meta.total, 3);
    await changeBehind(ids[0]!, 'http://behind.test/');
    const again = await list();
    assert.equal(again.text, first.text, 'the same bytes: the rows were not read again');
    // a query string of its own is an answer of its own (its links name it): read fresh
    const other = await list('?per_page=10');
    assert.equal(item(other.body, ids[0]!).final_url, 'http://behind.test/');
    // bob's list is not alice's
    assert.equal((await list('', h().bob.auth)).body.meta.total, 0);
  });

  test('privacy and password make a new version: the next answer shows them', async () => {
    const res = await h().request(
      withBody('PATCH', `/api/v1/reports/${ids[1]}`, h().alice.auth, {
        privacy: 2,
        password: 'a long secret',
      }),
    );
    assert.equal(res.statusCode, 200, res.body);
    const after = await list();
    assert.equal(item(after.body, ids[1]!).privacy, 2);
    assert.equal(item(after.body, ids[1]!).has_password, true);
    // fresh rows: the change made behind the services' back shows too
    assert.equal(item(after.body, ids[0]!).final_url, 'http://behind.test/');
  });

  test('a re-audit, a new report and a delete make new versions', async () => {
    const before = await list();
    await changeBehind(ids[2]!, 'http://behind-again.test/');
    assert.equal((await list()).text, before.text, 'kept until something changes');
    const reaudit = await h().request(
      withBody('PUT', `/api/v1/reports/${ids[2]}`, h().alice.auth, { results: 1 }),
    );
    assert.equal(reaudit.statusCode, 200, reaudit.body);
    const afterReaudit = await list();
    assert.notEqual(afterReaudit.text, before.text);
    assert.notEqual(
      item(afterReaudit.body, ids[2]!).final_url,
      'http://behind-again.test/',
      'the audit wrote it',
    );
    const created = await h().services.reports.create(h().alice.id, { url: `${h().site('kept')}/?n=new` });
    assert.equal((await list()).body.meta.total, 4);
    const del = await h().request({
      method: 'DELETE',
      url: `/api/v1/reports/${created.id}`,
      headers: h().alice.auth,
    });
    assert.equal(del.statusCode, 200, del.body);
    const afterDelete = await list();
    assert.equal(afterDelete.body.meta.total, 3);
    assert.ok(!afterDelete.body.data.some((x) => x.id === created.id));
  });
});

describe('AnswerCache', () => {
  test('bounded by bytes: the least recently used go first; an answer over the bound is not kept', () => {
    const cache = new AnswerCache<{ bytes: number; name: string }>(1_000);
    const answer = (name: string, bytes = 200) => ({ name, bytes });
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, answer(k));
    assert.equal(cache.get('a')?.name, 'a'); // a is now the most recently used
    cache.set('e', answer('e'));
    assert.equal(cache.get('b'), undefined, 'the least recently used went');
    assert.equal(cache.get('a')?.name, 'a');
    assert.ok(cache.size.bytes <= 1_000, `${cache.size.bytes} bytes held`);
    cache.set('huge', answer('huge', 600_000));
    assert.equal(cache.get('huge'), undefined);
    cache.set('a', answer('short', 10));
    assert.equal(cache.get('a')?.name, 'short', 'replaced, its bytes counted once');
    assert.ok(cache.size.bytes <= 1_000);
  });
});
