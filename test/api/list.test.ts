// GET /api/v1/reports and GET /api/v1/projects: every parameter, its validation, sorting, and
// the pagination envelope (empty, exact multiple, past the end) — over every dialect.
// The reports are stored through the services with real audits of fixture pages.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PUBLIC_URL, forEachDialect } from '../helpers/api-harness.js';

interface Item {
  id: number;
  url: string;
  project: string;
  result: 'good' | 'decent' | 'bad';
  score: number;
  generated_at: string;
  results?: unknown;
  page?: unknown;
  links: { self: string; page: string };
}
interface ListBody<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    to: number | null;
    last_page: number;
    per_page: number;
    total: number;
    path: string;
  };
}
interface ProjectItem {
  project: string;
  created_at: string;
  reports_count: number;
}

const RANK = { good: 0, decent: 1, bad: 2 };

forEachDialect('list endpoints', (h) => {
  // alice: 20 reports in beta.test (an exact multiple of 10), 3 in gamma.test, 2 in alpha.test
  const seeded: { project: string; count: number }[] = [
    { project: 'beta', count: 20 },
    { project: 'gamma', count: 3 },
    { project: 'alpha', count: 2 },
  ];
  const TOTAL = 25;

  before(async () => {
    // alternate a good page and a poor one so that results differ
    const store = (project: string, i: number) =>
      h().services.reports.create(h().alice.id, {
        url: `${h().site(project)}${i % 2 === 0 ? '/' : '/bad'}?n=${i}`,
      });
    for (const { project, count } of seeded) {
      // the project's first report alone (projects are created in this order), then 4 at a time
      await store(project, 0);
      for (let i = 1; i < count; i += 4) {
        await Promise.all(Array.from({ length: Math.min(4, count - i) }, (_, k) => store(project, i + k)));
      }
    }
  });

  async function list<T = Item>(query: string, who = h().alice.auth) {
    const res = await h().request({ url: `/api/v1/reports${query}`, headers: who });
    return { res, body: res.json() as ListBody<T> };
  }

  test('defaults: per_page 10, page 1, newest first, no results/page in items', async () => {
    const { res, body } = await list('');
    assert.equal(res.statusCode, 200);
    assert.equal(body.data.length, 10);
    assert.deepEqual(body.meta, {
      current_page: 1,
      from: 1,
      to: 10,
      last_page: 3,
      per_page: 10,
      total: TOTAL,
      path: `${PUBLIC_URL}/api/v1/reports`,
    });
    assert.deepEqual(body.links, {
      first: `${PUBLIC_URL}/api/v1/reports?page=1`,
      last: `${PUBLIC_URL}/api/v1/reports?page=3`,
      prev: null,
      next: `${PUBLIC_URL}/api/v1/reports?page=2`,
    });
    const ids = body.data.map((r) => r.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );
    for (const r of body.data) {
      assert.equal(r.results, undefined);
      assert.equal(r.page, undefined);
      assert.equal(r.links.self, `${PUBLIC_URL}/api/v1/reports/${r.id}`);
    }
  });

  test('links keep the other query parameters (unknown ones too) and replace page', async () => {
    const { body } = await list('?sort=asc&per_page=10&utm=x&page=2');
    const next = new URL(body.links.next!);
    assert.equal(next.origin + next.pathname, `${PUBLIC_URL}/api/v1/reports`);
    assert.deepEqual(Object.fromEntries(next.searchParams), {
      sort: 'asc',
      per_page: '10',
      utm: 'x',
      page: '3',
    });
    assert.deepEqual(Object.fromEntries(new URL(body.links.prev!).searchParams), {
      sort: 'asc',
      per_page: '10',
      utm: 'x',
      page: '1',
    });
    assert.equal(new URL(body.links.first).searchParams.get('page'), '1');
    assert.equal(new URL(body.links.last).searchParams.get('page'), '3');
  });

  test('last page, exact multiple, page past the end', async () => {
    let { body } = await list('?page=3');
    assert.equal(body.data.length, 5);
    assert.equal(body.meta.from, 21);
    assert.equal(body.meta.to, 25);
    assert.equal(body.links.next, null);
    assert.ok(body.links.prev?.endsWith('page=2'));

    ({ body } = await list('?project=beta.test&page=2'));
    assert.equal(body.meta.total, 20);
    assert.equal(body.meta.last_page, 2);
    assert.equal(body.data.length, 10);
    assert.equal(body.meta.to, 20);
    assert.equal(body.links.next, null);

    const past = await list('?page=9');
    assert.equal(past.res.statusCode, 200);
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.from, null);
    assert.equal(past.body.meta.to, null);
    assert.equal(past.body.meta.total, TOTAL);
    assert.equal(past.body.meta.current_page, 9);
    assert.equal(past.body.links.next, null);
    assert.ok(past.body.links.prev?.endsWith('page=3'), 'prev leads back to the last page');
  });

  test('empty list: from and to null, last_page 1', async () => {
    const { res, body } = await list('', h().bob.auth);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(body.data, []);
    assert.deepEqual(body.meta, {
      current_page: 1,
      from: null,
      to: null,
      last_page: 1,
      per_page: 10,
      total: 0,
      path: `${PUBLIC_URL}/api/v1/reports`,
    });
    assert.equal(body.links.prev, null);
    assert.equal(body.links.next, null);
    assert.equal(body.links.last, `${PUBLIC_URL}/api/v1/reports?page=1`);
  });

  test('per_page 10, 25, 50, 100', async () => {
    for (const n of [10, 25, 50, 100]) {
      const { res, body } = await list(`?per_page=${n}`);
      assert.equal(res.statusCode, 200);
      assert.equal(body.meta.per_page, n);
      assert.equal(body.data.length, Math.min(n, TOTAL));
      assert.equal(body.meta.last_page, Math.ceil(TOTAL / n));
    }
  });

  test('sort_by id / generated_at / url / result / score, asc and desc, ties by id in the same direction', async () => {
    const all = async (q: string) => (await list(`?per_page=100&${q}`)).body.data;
    const asc = await all('sort=asc');
    assert.deepEqual(
      asc.map((r) => r.id),
      [...asc.map((r) => r.id)].sort((a, b) => a - b),
    );
    const byId = await all('sort_by=id&sort=desc');
    assert.deepEqual(
      byId.map((r) => r.id),
      [...asc.map((r) => r.id)].reverse(),
    );

    const cmp = (key: (r: Item) => string | number, dir: 1 | -1) => (a: Item, b: Item) => {
      const ka = key(a);
      const kb = key(b);
      if (ka < kb) return -dir;
      if (ka > kb) return dir;
      return (a.id - b.id) * dir;
    };
    const keys: Record<string, (r: Item) => string | number> = {
      url: (r) => r.url,
      generated_at: (r) => r.generated_at,
      result: (r) => RANK[r.result],
      score: (r) => r.score,
    };
    for (const [sortBy, key] of Object.entries(keys)) {
      for (const [sort, dir] of [
        ['asc', 1],
        ['desc', -1],
      ] as const) {
        const got = await all(`sort_by=${sortBy}&sort=${sort}`);
        assert.equal(got.length, TOTAL);
        assert.deepEqual(
          got.map((r) => r.id),
          [...got].sort(cmp(key, dir)).map((r) => r.id),
          `${sortBy} ${sort}`,
        );
      }
    }
    // result asc: good, decent, bad
    const byResult = await all('sort_by=result&sort=asc');
    const ranks = byResult.map((r) => RANK[r.result]);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
    // url: code point order
    const byUrl = (await all('sort_by=url&sort=asc')).map((r) => r.url);
    assert.deepEqual(byUrl, [...byUrl].sort());
  });

  test('search (case-insensitive substring of the url), search_by, project, result filters', async () => {
    let { body } = await list('?search=GAMMA&per_page=100');
    assert.equal(body.meta.total, 3);
    assert.ok(body.data.every((r) => r.url.includes('gamma')));
    ({ body } = await list('?search=gamma&search_by=url'));
    assert.equal(body.meta.total, 3);
    ({ body } = await list('?search=BAD%3Fn&per_page=100'));
    assert.ok(body.data.length > 0 && body.data.every((r) => r.url.includes('/bad?n')));
    ({ body } = await list('?search=%25'));
    assert.equal(body.meta.total, 0, '% is a literal character');
    ({ body } = await list('?search='));
    assert.equal(body.meta.total, TOTAL, 'an empty search filters nothing');
    // NUL (short and long terms: LIKE and the trigram index) matches nothing, never a 500
    for (const term of ['%00', '%00alpha', 'alpha%00', 'a%00']) {
      const r = await list(`?search=${term}&per_page=100`);
      assert.equal(r.res.statusCode, 200, `${term}: ${r.res.body}`);
      assert.equal(r.body.meta.total, 0, term);
      const p = await projects(`?search=${term}`);
      assert.equal(p.res.statusCode, 200, `${term}: ${p.res.body}`);
      assert.equal(p.body.meta.total, 0, term);
    }
    // a NUL in a project name: 422 as a filter, 404 as a project to delete (never a 500)
    const nul = await list('?project=%00');
    assert.equal(nul.res.statusCode, 422, nul.res.body);
    assert.ok((nul.res.json() as { errors: Record<string, string[]> }).errors.project);
    const del = await h().request({
      method: 'DELETE',
      url: '/api/v1/projects/a%00',
      headers: h().alice.auth,
    });
    assert.equal(del.statusCode, 404, del.body);
    ({ body } = await list('?project=alpha.test'));
    assert.equal(body.meta.total, 2);
    assert.ok(body.data.every((r) => r.project === 'alpha.test'));
    ({ body } = await list('?project=WWW.Alpha.Test'));
    assert.equal(body.meta.total, 2, 'a project filter is named as projects are: www. and case dropped');
    ({ body } = await list('?project=nope.test'));
    assert.equal(body.meta.total, 0);

    const everything = (await list('?per_page=100')).body.data;
    for (const result of ['good', 'decent', 'bad'] as const) {
      ({ body } = await list(`?result=${result}&per_page=100`));
      assert.ok(body.data.every((r) => r.result === result));
      assert.equal(body.meta.total, everything.filter((r) => r.result === result).length);
    }
    ({ body } = await list('?result=bad&project=beta.test&search=n%3D1&per_page=100'));
    assert.ok(
      body.data.every((r) => r.result === 'bad' && r.project === 'beta.test' && r.url.includes('n=1')),
    );
  });

  test('unknown query parameters are ignored', async () => {
    const { res, body } = await list('?foo=bar&include=results');
    assert.equal(res.statusCode, 200);
    assert.equal(body.meta.total, TOTAL);
  });

  test('bad values are 422 naming the field and the allowed values — never defaulted', async () => {
    const cases: [string, string, RegExp][] = [
      ['per_page=11', 'per_page', /10, 25, 50, 100/],
      ['per_page=abc', 'per_page', /10, 25, 50, 100/],
      ['per_page=', 'per_page', /10, 25, 50, 100/],
      ['sort=up', 'sort', /desc, asc/],
      ['sort=ASC', 'sort', /desc, asc/],
      ['sort_by=size', 'sort_by', /id, generated_at, url, result, score/],
      ['result=great', 'result', /good, decent, bad/],
      ['page=0', 'page', /at least 1/],
      ['page=-2', 'page', /at least 1/],
      ['page=abc', 'page', /whole number/],
      ['page=1.5', 'page', /whole number/],
      ['page=', 'page', /whole number/],
      ['page=1&page=2', 'page', /whole number/],
      ['search_by=title', 'search_by', /url/],
    ];
    for (const [q, field, allowed] of cases) {
      const res = await h().request({ url: `/api/v1/reports?${q}`, headers: h().alice.auth });
      assert.equal(res.statusCode, 422, `${q}: ${res.body}`);
      const body = res.json() as { message: string; errors: Record<string, string[]> };
      assert.deepEqual(Object.keys(body.errors), [field], q);
      assert.match(body.errors[field]![0]!, allowed, q);
      assert.match(body.errors[field]![0]!, new RegExp(field), 'the message names the field');
      assert.equal(body.message, body.errors[field]![0]);
    }
    const several = await h().request({
      url: '/api/v1/reports?per_page=11&sort=up&page=0',
      headers: h().alice.auth,
    });
    assert.deepEqual(Object.keys((several.json() as { errors: object }).errors).sort(), [
      'page',
      'per_page',
      'sort',
    ]);
  });

  // ---- projects

  async function projects(query: string, who = h().alice.auth) {
    const res = await h().request({ url: `/api/v1/projects${query}`, headers: who });
    return { res, body: res.json() as ListBody<ProjectItem> };
  }

  test('projects: list with reports_count, default sort created_at desc', async () => {
    const { res, body } = await projects('');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      body.data.map((p) => [p.project, p.reports_count]),
      [
        ['alpha.test', 2],
        ['gamma.test', 3],
        ['beta.test', 20],
      ],
    );
    assert.deepEqual(Object.keys(body.data[0]!), ['project', 'created_at', 'reports_count']);
    assert.equal(body.meta.total, 3);
    assert.equal(body.meta.path, `${PUBLIC_URL}/api/v1/projects`);
    assert.equal(body.links.next, null);
    const created = body.data.map((p) => p.created_at);
    assert.deepEqual(created, [...created].sort().reverse());
  });

  test('projects: sort_by project, search, search_by, per_page, pagination', async () => {
    let { body } = await projects('?sort_by=project&sort=asc');
    assert.deepEqual(
      body.data.map((p) => p.project),
      ['alpha.test', 'beta.test', 'gamma.test'],
    );
    ({ body } = await projects('?sort_by=project&sort=desc'));
    assert.deepEqual(
      body.data.map((p) => p.project),
      ['gamma.test', 'beta.test', 'alpha.test'],
    );
    ({ body } = await projects('?sort_by=created_at&sort=asc'));
    assert.deepEqual(
      body.data.map((p) => p.project),
      ['beta.test', 'gamma.test', 'alpha.test'],
    );
    ({ body } = await projects('?search=AMM&search_by=project'));
    assert.deepEqual(
      body.data.map((p) => p.project),
      ['gamma.test'],
    );
    ({ body } = await projects('?per_page=25&page=2&keep=1'));
    assert.deepEqual(body.data, []);
    assert.equal(body.meta.from, null);
    assert.deepEqual(Object.fromEntries(new URL(body.links.first).searchParams), {
      per_page: '25',
      page: '1',
      keep: '1',
    });
    const empty = await projects('', h().bob.auth);
    assert.deepEqual(empty.body.data, []);
    assert.equal(empty.body.meta.last_page, 1);
  });

  test('projects: bad values are 422 naming the field', async () => {
    const cases: [string, string, RegExp][] = [
      ['sort_by=name', 'sort_by', /created_at, project/],
      ['sort_by=id', 'sort_by', /created_at, project/],
      ['search_by=url', 'search_by', /project/],
      ['sort=up', 'sort', /desc, asc/],
      ['per_page=5', 'per_page', /10, 25, 50, 100/],
      ['page=0', 'page', /at least 1/],
    ];
    for (const [q, field, allowed] of cases) {
      const res = await h().request({ url: `/api/v1/projects?${q}`, headers: h().alice.auth });
      assert.equal(res.statusCode, 422, q);
      assert.match((res.json() as { errors: Record<string, string[]> }).errors[field]![0]!, allowed, q);
    }
  });

  test("projects: delete answers reports_deleted; another user's project is 404", async () => {
    const bobs = await h().request({
      method: 'DELETE',
      url: '/api/v1/projects/gamma.test',
      headers: h().bob.auth,
    });
    assert.equal(bobs.statusCode, 404);
    const missing = await h().request({
      method: 'DELETE',
      url: '/api/v1/projects/nope.test',
      headers: h().alice.auth,
    });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { message: 'No such project.' });

    // the name is matched as projects are named: lower-cased, one leading www. removed
    const res = await h().request({
      method: 'DELETE',
      url: '/api/v1/projects/WWW.Gamma.TEST',
      headers: h().alice.auth,
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      project: 'gamma.test',
      object: 'project',
      deleted: true,
      reports_deleted: 3,
    });
    const left = await list('?project=gamma.test');
    assert.equal(left.body.meta.total, 0);
    const all = await list('');
    assert.equal(all.body.meta.total, TOTAL - 3);
    const again = await h().request({
      method: 'DELETE',
      url: '/api/v1/projects/gamma.test',
      headers: h().alice.auth,
    });
    assert.equal(again.statusCode, 404);
  });

  test('projects: a search follows new reports, new projects and deleted ones at once (its total and page are cached per version)', async () => {
    const search = async () => {
      const { body } = await projects('?search=zeta&sort_by=project&sort=asc');
      return { total: body.meta.total, rows: body.data.map((p) => [p.project, p.reports_count]) };
    };
    assert.deepEqual(await search(), { total: 0, rows: [] });
    const store = (site: string, path = '/') =>
      h().services.reports.create(h().alice.id, { url: `${h().site(site)}${path}` });
    await store('zeta-one');
    assert.deepEqual(await search(), { total: 1, rows: [['zeta-one.test', 1]] });
    await store('zeta-one', '/bad');
    assert.deepEqual(await search(), { total: 1, rows: [['zeta-one.test', 2]] }, 'the count read fresh');
    await store('zeta-two');
    assert.deepEqual(await search(), {
      total: 2,
      rows: [
        ['zeta-one.test', 2],
        ['zeta-two.test', 1],
      ],
    });
    const res = await h().request({
      method: 'DELETE',
      url: '/api/v1/projects/zeta-one.test',
      headers: h().alice.auth,
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await search(), { total: 1, rows: [['zeta-two.test', 1]] });
  });
});
