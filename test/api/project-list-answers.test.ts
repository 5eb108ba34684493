// GET /api/v1/projects keeps its finished answers per process while the version of the
// organisation's reports is the one they were made at (docs/api.md, "Kept answers"): a repeated
// list is the same bytes without reading the rows again — shown by a row changed behind the
// services' back (no new version), which the kept answer does not show — and every change a
// project's row shows (a report stored or deleted in it, a project made or deleted, a crawl's
// page: no trailing here) makes a new version, so the next answer is fresh. A key limited to
// projects is answered fresh, with only its projects. Every dialect; real audits of fixture pages.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { forEachDialect } from '../helpers/api-harness.js';
import { bumpReportsVersion } from '../../src/store/organizations.repository.js';

interface Project {
  project: string;
  created_at: string;
  reports_count: number;
}
interface ListBody {
  data: Project[];
  meta: { total: number };
}

forEachDialect('kept project list answers', (h) => {
  before(async () => {
    for (const name of ['keptproj-a', 'keptproj-b'])
      await h().services.reports.create(h().alice.id, { url: `${h().site(name)}/` });
  });

  const list = async (query: string, who = h().alice.auth) => {
    const res = await h().request({ url: `/api/v1/projects${query}`, headers: who });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers.etag), /^W\/"/);
    return { text: res.body, body: res.json() as ListBody, etag: String(res.headers.etag) };
  };
  /** a project's creation date changed behind the services' back: no new version */
  const changeBehind = (name: string, createdAt: string) =>
    sql`UPDATE projects SET created_at = ${createdAt} WHERE name = ${name}`.execute(h().database.db);
  const row = (b: ListBody, name: string) => b.data.find((p) => p.project === name);

  test('a repeated list is the kept answer (bytes and ETag); a 304 for its tag; another query is its own', async () => {
    for (const q of ['?search=keptproj', '?sort_by=project&sort=asc&per_page=100']) {
      const first = await list(q);
      assert.equal(row(first.body, 'keptproj-a.test')?.reports_count, 1, first.text);
      const was = row(first.body, 'keptproj-a.test')!.created_at;
      await changeBehind('keptproj-a.test', '2001-01-01T00:00:00.000Z');
      const again = await list(q);
      assert.equal(again.text, first.text, `${q}: the kept answer`);
      assert.equal(again.etag, first.etag);
      // (app.inject, not recorded: the OpenAPI check reads the recorded answers, and a 304 is
      // every GET's under the ETag rule, src/http/plugins/etag.ts)
      const notModified = await h().app.inject({
        url: `/api/v1/projects${q}`,
        headers: { ...h().alice.auth, 'if-none-match': first.etag },
      });
      assert.equal(notModified.statusCode, 304);
      // another query string: made afresh, so it shows the row as it is now
      const other = await list(`${q}&x=1`);
      assert.equal(row(other.body, 'keptproj-a.test')?.created_at, '2001-01-01T00:00:00.000Z', other.text);
      await changeBehind('keptproj-a.test', was);
      await bumpReportsVersion(h().database.db, h().alice.id);
      assert.equal(row((await list(q)).body, 'keptproj-a.test')?.created_at, was);
    }
  });

  test("a report stored in a project, a new project, a crawl's page and a delete show at once", async () => {
    const q = '?search=keptproj';
    assert.equal((await list(q)).body.meta.total, 2);
    await h().services.reports.create(h().alice.id, { url: `${h().site('keptproj-a')}/two` });
    let now = await list(q);
    assert.equal(row(now.body, 'keptproj-a.test')?.reports_count, 2, 'a second report: counted');
    await h().services.reports.create(h().alice.id, { url: `${h().site('keptproj-c')}/` });
    now = await list(q);
    assert.equal(now.body.meta.total, 3, 'a new project: listed');
    // as a crawl's page stores its report: a new version counted as a crawl's write; the
    // projects list does not trail it (unlike a reports list)
    await changeBehind('keptproj-c.test', '2002-02-02T00:00:00.000Z');
    await bumpReportsVersion(h().database.db, h().alice.id, true);
    assert.equal(row((await list(q)).body, 'keptproj-c.test')?.created_at, '2002-02-02T00:00:00.000Z');
    const del = await h().request({
      method: 'DELETE',
      url: '/api/v1/projects/keptproj-c.test',
      headers: h().alice.auth,
    });
    assert.equal(del.statusCode, 200, del.body);
    now = await list(q);
    assert.equal(now.body.meta.total, 2, 'deleted: gone');
    assert.equal(row(now.body, 'keptproj-c.test'), undefined);
  });

  test("another organisation's list and a key limited to projects are answers of their own", async () => {
    const q = '?search=keptproj';
    const alices = await list(q);
    assert.ok(alices.body.meta.total >= 2);
    const bobs = await list(q, h().bob.auth);
    assert.equal(bobs.body.meta.total, 0, "bob has none of alice's projects");
    const limited = await h().services.keys.create(h().alice.id, { projects: ['keptproj-b.test'] });
    const only = await list(q, { authorization: `Bearer ${limited.key}` });
    assert.deepEqual(
      only.body.data.map((p) => p.project),
      ['keptproj-b.test'],
    );
    // and alice's whole list is still her kept one
    assert.equal((await list(q)).text, alices.text);
  });
});
