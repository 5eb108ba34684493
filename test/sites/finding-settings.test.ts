// The findings' thresholds as settings (issue 21 §1–§2; docs/sites.md "Every finding"), end to
// end on SQLite and PostgreSQL: a loopback site with a 100-word page, a pair of pages about 85 %
// similar and a chain of pages 1 to 4 links deep. The defaults (200 words, 90 %, depth 4) and
// the batch's or the project's settings (50 words, 80 %, depth 2) find what each says; values
// out of bounds are a 422 naming the field and its range.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { endedExport, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

/** n distinct words of a seed: no two seeds share a word */
const words = (seed: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${seed}q${i.toString(36)}`).join(' ');

async function site(): Promise<FixtureServer> {
  const s = await startFixtureServer();
  const page = (path: string, text: string, links: string[] = []) =>
    s.route(path, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Title of ${path}</title></head><body>
<h1>Heading of ${path}</h1><p>${text}</p><p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</p></body></html>`,
    });
  page('/', words('home', 300), ['/t100', '/near-a', '/near-b', '/d1']);
  page('/t100', words('hundred', 97)); // with its h1 (3 words): 100 words of main text
  // 919 of 1,000 words alike: the pair's 3-word shingles about 85 % the same (Jaccard 917/1,079)
  page('/near-a', `${words('near', 919)} ${words('taila', 81)}`);
  page('/near-b', `${words('near', 919)} ${words('tailb', 81)}`);
  page('/d1', words('dee1', 300), ['/d2']);
  page('/d2', words('dee2', 300), ['/d3']);
  page('/d3', words('dee3', 300), ['/d4']);
  page('/d4', words('dee4', 300));
  return s;
}

describeEachDialect('the findings thresholds as settings', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let s: FixtureServer;

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    user = await buildUser(t.services);
    s = await site();
  });
  after(async () => {
    await app?.close();
    await s?.close();
  });

  const u = (p: string) => `${s.origin}${p}`;
  const json = () => ({ ...user.auth, 'content-type': 'application/json' });

  async function ended(res: { statusCode: number; body: string; json(): unknown }) {
    assert.equal(res.statusCode, 202, res.body);
    const id = (res.json() as { data: { id: number } }).data.id;
    const body = await endedExport(t, user, id);
    const of = (fid: string) => {
      const f = body.findings.find((x) => x.id === fid);
      assert.ok(f, fid);
      return f;
    };
    return {
      of,
      urls: (fid: string) => [...new Set(of(fid).pages.map((p) => p.url))].sort(),
      options: body.batch.options,
    };
  }

  const batch = (extra: Record<string, unknown>) =>
    t.request({
      method: 'POST',
      url: '/api/v1/batches',
      headers: json(),
      payload: { url: u('/'), mode: 'crawl', max_pages: 20, ...extra },
    });

  test('the defaults: 200 words, 90 %, depth 4', async () => {
    const r = await ended(await batch({}));
    assert.deepEqual(r.urls('thin_content'), [u('/t100')]);
    assert.deepEqual(r.of('thin_content').pages[0]!.detail, '100 words');
    assert.deepEqual(r.urls('near_duplicates'), []);
    assert.deepEqual(r.urls('deep_pages'), []);
    assert.equal(r.of('thin_content').title, 'Pages with under 200 words of main text');
    assert.equal(r.options['thin_content_words'], 200);
    assert.equal(r.options['near_duplicate_threshold'], 90);
    assert.equal(r.options['deep_page_depth'], 4);
  });

  test("a batch's thresholds: 50 words, 80 %, depth 2", async () => {
    const r = await ended(
      await batch({ thin_content_words: 50, near_duplicate_threshold: 80, deep_page_depth: 2 }),
    );
    assert.deepEqual(r.urls('thin_content'), []);
    assert.deepEqual(r.urls('near_duplicates'), [u('/near-a'), u('/near-b')]);
    assert.match(r.of('near_duplicates').pages[0]!.detail!, /^8\d % similar to /);
    assert.deepEqual(r.urls('deep_pages'), [u('/d3'), u('/d4')]);
    assert.deepEqual(
      r.of('deep_pages').pages.map((p) => p.detail),
      ['depth 3', 'depth 4'],
    );
    assert.equal(r.of('deep_pages').title, 'Pages more than 2 links away from the start page');
    assert.equal(r.options['thin_content_words'], 50);
    assert.equal(r.options['near_duplicate_threshold'], 80);
    assert.equal(r.options['deep_page_depth'], 2);
  });

  test("a project's settings reach its crawls", async () => {
    const name = new URL(s.origin).hostname;
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/projects/${name}`,
      headers: json(),
      payload: {
        start_url: u('/'),
        max_pages: 20,
        thin_content_words: 150,
        near_duplicate_threshold: 80,
        deep_page_depth: 3,
      },
    });
    assert.ok(put.statusCode === 200 || put.statusCode === 201, put.body);
    const settings = (put.json() as { data: { settings: Record<string, unknown> } }).data.settings;
    assert.equal(settings['thin_content_words'], 150);
    assert.equal(settings['near_duplicate_threshold'], 80);
    assert.equal(settings['deep_page_depth'], 3);
    const r = await ended(
      await t.request({ method: 'POST', url: `/api/v1/projects/${name}/crawls`, headers: user.auth }),
    );
    assert.deepEqual(r.urls('thin_content'), [u('/t100')]);
    assert.deepEqual(r.urls('near_duplicates'), [u('/near-a'), u('/near-b')]);
    assert.deepEqual(r.urls('deep_pages'), [u('/d4')]);
  });

  test('out of bounds: a 422 naming the field and its range (batches and projects)', async () => {
    const name = new URL(s.origin).hostname;
    for (const [field, value, range] of [
      ['thin_content_words', 0, /1/],
      ['thin_content_words', 10_001, /10000/],
      ['near_duplicate_threshold', 49, /50/],
      ['near_duplicate_threshold', 100, /99/],
      ['deep_page_depth', 0, /1/],
      ['deep_page_depth', 101, /100/],
    ] as const) {
      for (const res of [
        await batch({ [field]: value }),
        await t.request({
          method: 'PATCH',
          url: `/api/v1/projects/${name}`,
          headers: json(),
          payload: { [field]: value },
        }),
      ]) {
        assert.equal(res.statusCode, 422, `${field}=${value}: ${res.body}`);
        const errors = (res.json() as { errors: Record<string, string[]> }).errors;
        assert.ok(errors[field], res.body);
        assert.match(errors[field]!.join(' '), range, res.body);
      }
    }
  });
});
