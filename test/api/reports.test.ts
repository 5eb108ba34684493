// /api/v1/reports: store (real fetches from the fixture site), show, update (PUT and PATCH,
// re-audit with history), delete, isolation between users — over every dialect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../helpers/service-process.js';
import { PUBLIC_URL, forEachDialect, withBody } from '../helpers/api-harness.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

interface ReportJson {
  id: number;
  url: string;
  final_url: string;
  project: string;
  result: string;
  score: number;
  privacy: number;
  has_password: boolean;
  generated_at: string;
  created_at: string;
  updated_at: string;
  categories: Record<string, { score: number; passed: number; failed: number }>;
  results?: Record<
    string,
    { category: string; priority: string; passed: boolean | null; title: string; message: string }
  >;
  page?: {
    status: number;
    http_version: string;
    redirects: unknown[];
    timings: Record<string, number | null>;
    sizes: Record<string, number>;
    requests: Record<string, number>;
  };
  links: { self: string; page: string };
}

forEachDialect('reports API', (h) => {
  let first: ReportJson;

  async function totalFor(auth: Record<string, string>): Promise<number> {
    const res = await h().request({ url: '/api/v1/reports', headers: auth });
    assert.equal(res.statusCode, 200);
    return (res.json() as { meta: { total: number } }).meta.total;
  }

  test('store (form body) fetches and audits the page: 201, {data}, Location', async () => {
    const url = `${h().site('Alpha')}/#section`;
    const res = await h().request(withBody('POST', '/api/v1/reports', h().alice.auth, { url }));
    assert.equal(res.statusCode, 201, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
    const data = (res.json() as { data: ReportJson }).data;
    first = data;
    assert.equal(res.headers.location, `${PUBLIC_URL}/api/v1/reports/${data.id}`);
    assert.equal(data.url, `${h().site('alpha')}/`, 'normalised: host lower-cased, fragment dropped');
    assert.equal(data.final_url, `${h().site('alpha')}/`);
    assert.equal(data.project, 'alpha.test');
    assert.ok(['good', 'decent', 'bad'].includes(data.result));
    assert.ok(Number.isInteger(data.score) && data.score >= 0 && data.score <= 100);
    assert.equal(data.privacy, 0);
    assert.equal(data.has_password, false);
    for (const d of [data.generated_at, data.created_at, data.updated_at]) assert.match(d, ISO_UTC);
    assert.deepEqual(Object.keys(data.categories).sort(), [
      'accessibility',
      'ai',
      'miscellaneous',
      'performance',
      'security',
      'seo',
    ]);
    assert.ok(data.results && Object.keys(data.results).length > 0);
    for (const [, r] of Object.entries(data.results)) {
      assert.ok(['high', 'medium', 'low'].includes(r.priority));
      assert.ok(r.passed === true || r.passed === false || r.passed === null);
    }
    assert.equal(data.page?.status, 200);
    assert.equal(typeof data.page?.timings.total_ms, 'number');
    assert.deepEqual(data.links, {
      self: `${PUBLIC_URL}/api/v1/reports/${data.id}`,
      page: `${PUBLIC_URL}/reports/${data.id}`,
    });
    assert.deepEqual(Object.keys(data), [
      'id',
      'url',
      'final_url',
      'project',
      'result',
      'score',
      'privacy',
      'has_password',
      'generated_at',
      'created_at',
      'updated_at',
      'categories',
      'results',
      'page',
      'links',
    ]);
  });

  test('store with a JSON body, www. removed from the project', async () => {
    const res = await h().request(
      withBody(
        'POST',
        '/api/v1/reports',
        h().alice.auth,
        { url: `${h().site('www.beta')}/`, privacy: 1 },
        'json',
      ),
    );
    assert.equal(res.statusCode, 201, res.body);
    const data = (res.json() as { data: ReportJson }).data;
    assert.equal(data.project, 'beta.test');
    assert.equal(data.privacy, 1);
  });

  test('store privacy 2 needs a password; the password is never returned', async () => {
    const bad = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, { url: `${h().site('alpha')}/`, privacy: 2 }),
    );
    assert.equal(bad.statusCode, 422);
    assert.ok((bad.json() as { errors: Record<string, string[]> }).errors.password);
    const ok = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, {
        url: `${h().site('alpha')}/`,
        privacy: 2,
        password: 's3cret-pass',
      }),
    );
    assert.equal(ok.statusCode, 201, ok.body);
    const data = (ok.json() as { data: ReportJson }).data;
    assert.equal(data.privacy, 2);
    assert.equal(data.has_password, true);
    assert.ok(!ok.body.includes('s3cret-pass'));
    assert.ok(!/password_hash|scrypt\$/.test(ok.body));
    const shown = await h().request({ url: `/api/v1/reports/${data.id}`, headers: h().alice.auth });
    assert.ok(!/s3cret-pass|password_hash|scrypt\$/.test(shown.body));
  });

  test('store validation: every field named with what it allows (422), nothing stored', async () => {
    const before = await totalFor(h().alice.auth);
    const cases: [Record<string, string | number>, string, RegExp][] = [
      [{}, 'url', /required/],
      [{ url: '' }, 'url', /required/],
      [{ url: 'ftp://example.test/' }, 'url', /http or https/],
      [{ url: 'not a url' }, 'url', /http or https/],
      [{ url: `http://a.test/${'x'.repeat(2040)}` }, 'url', /2048/],
      [{ url: `${h().site('alpha')}/`, privacy: 3 }, 'privacy', /0, 1, 2/],
      [{ url: `${h().site('alpha')}/`, privacy: 'publik' }, 'privacy', /0, 1, 2 \(or the words public, private, password\)/],
      [{ url: `${h().site('alpha')}/`, privacy: 2, password: 'p'.repeat(129) }, 'password', /128/],
    ];
    for (const [fields, field, message] of cases) {
      for (const as of ['form', 'json'] as const) {
        const res = await h().request(withBody('POST', '/api/v1/reports', h().alice.auth, fields, as));
        assert.equal(res.statusCode, 422, `${JSON.stringify(fields)} ${as}: ${res.body}`);
        const body = res.json() as { message: string; errors: Record<string, string[]> };
        assert.ok(body.errors[field], `${JSON.stringify(fields)}: ${res.body}`);
        assert.match(body.errors[field]![0]!, message);
        assert.equal(typeof body.message, 'string');
      }
    }
    assert.equal(await totalFor(h().alice.auth), before);
  });

  test('a URL of exactly 2,048 characters is accepted by validation', async () => {
    const base = `${h().site('alpha')}/long?`;
    const url = base + 'q'.repeat(2048 - base.length);
    const res = await h().request(withBody('POST', '/api/v1/reports', h().alice.auth, { url }));
    assert.equal(res.statusCode, 201, res.body.slice(0, 300));
  });

  test('a URL pasted with surrounding white space is stored trimmed', async () => {
    const url = `${h().site('alpha')}/`;
    for (const as of ['form', 'json'] as const) {
      const res = await h().request(
        withBody('POST', '/api/v1/reports', h().alice.auth, { url: ` \n${url}\t ` }, as),
      );
      assert.equal(res.statusCode, 201, `${as}: ${res.body.slice(0, 300)}`);
      assert.equal((res.json() as { data: ReportJson }).data.url, url);
    }
  });

  test('unreachable site, non-HTML page, unresolvable host: 422 under errors.url, nothing stored', async () => {
    const before = await totalFor(h().alice.auth);
    const port = await freePort();
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `${h().fixture.origin}/json`,
      'http://no-such-host.invalid/',
      // credentials would be stored and shown on the report page: refused before any fetch
      `${h().fixture.origin.replace('://', '://user:secret@')}/`,
      `${h().fixture.origin.replace('://', '://user@')}/`,
    ]) {
      const res = await h().request(withBody('POST', '/api/v1/reports', h().alice.auth, { url }));
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      const body = res.json() as { message: string; errors: { url: string[] } };
      assert.equal(body.errors.url.length, 1);
      assert.equal(body.message, body.errors.url[0]);
      if (url.includes('@')) assert.match(body.message, /user name or password/);
    }
    assert.equal(await totalFor(h().alice.auth), before);
  });

  test('a page answering 404 with HTML is audited and stored', async () => {
    const res = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, { url: `${h().site('alpha')}/gone` }),
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((res.json() as { data: ReportJson }).data.page?.status, 404);
  });

  test('show: {data} with results and page; ids that name nothing are 404', async () => {
    const res = await h().request({ url: `/api/v1/reports/${first.id}`, headers: h().alice.auth });
    assert.equal(res.statusCode, 200);
    const data = (res.json() as { data: ReportJson }).data;
    assert.deepEqual(data, first);
    const n = first.id;
    // forms the validator would coerce to an existing id (hex, exponent, sign, space, decimal)
    const coercible = [`0x${n.toString(16)}`, `${n}e0`, `+${n}`, `%20${n}`, `${n}.0`, `${n}%20`];
    for (const id of [
      'abc',
      '0',
      '-1',
      '1.5',
      '1e3',
      '99999999',
      '99999999999999999999',
      `${n}x`,
      ...coercible,
    ]) {
      const r = await h().request({ url: `/api/v1/reports/${id}`, headers: h().alice.auth });
      assert.equal(r.statusCode, 404, `id ${id}: ${r.body}`);
      assert.deepEqual(r.json(), { message: 'No such report.' });
    }
  });

  test("another user's report answers 404 to show, update and delete — exactly as a missing one", async () => {
    const missing = await h().request({ url: '/api/v1/reports/99999999', headers: h().bob.auth });
    const paths = [
      { method: 'GET' as const, url: `/api/v1/reports/${first.id}`, headers: h().bob.auth },
      withBody('PUT', `/api/v1/reports/${first.id}`, h().bob.auth, { privacy: 1 }),
      withBody('PATCH', `/api/v1/reports/${first.id}`, h().bob.auth, { results: 1 }),
      { method: 'DELETE' as const, url: `/api/v1/reports/${first.id}`, headers: h().bob.auth },
    ];
    for (const o of paths) {
      const r = await h().request(o);
      assert.equal(r.statusCode, 404, `${o.method}: ${r.body}`);
      assert.equal(r.body, missing.body);
    }
    const bobs = await h().request({ url: '/api/v1/reports', headers: h().bob.auth });
    assert.equal((bobs.json() as { meta: { total: number } }).meta.total, 0);
    // untouched for its owner
    const still = await h().request({ url: `/api/v1/reports/${first.id}`, headers: h().alice.auth });
    assert.equal((still.json() as { data: ReportJson }).data.privacy, 0);
  });

  test('update with PUT and PATCH: privacy and password rules', async () => {
    const url = `/api/v1/reports/${first.id}`;
    const put = await h().request(withBody('PUT', url, h().alice.auth, { privacy: 1 }));
    assert.equal(put.statusCode, 200, put.body);
    let data = (put.json() as { data: ReportJson }).data;
    assert.equal(data.privacy, 1);
    assert.ok(data.results && data.page, 'update answers the full report');
    assert.equal(data.generated_at, first.generated_at, 'no re-audit without results=1');

    const noPassword = await h().request(withBody('PATCH', url, h().alice.auth, { privacy: 2 }));
    assert.equal(noPassword.statusCode, 422);
    assert.ok((noPassword.json() as { errors: Record<string, string[]> }).errors.password);

    const withPassword = await h().request(
      withBody('PATCH', url, h().alice.auth, { privacy: 2, password: 'open sesame' }, 'json'),
    );
    assert.equal(withPassword.statusCode, 200, withPassword.body);
    data = (withPassword.json() as { data: ReportJson }).data;
    assert.equal(data.privacy, 2);
    assert.equal(data.has_password, true);

    // privacy 2 again without a password: it has one already
    const keep = await h().request(withBody('PATCH', url, h().alice.auth, { privacy: 2 }));
    assert.equal(keep.statusCode, 200, keep.body);

    const away = await h().request(
      withBody('PATCH', url, h().alice.auth, { privacy: 0, password: 'ignored' }),
    );
    assert.equal(away.statusCode, 200);
    data = (away.json() as { data: ReportJson }).data;
    assert.equal(data.privacy, 0);
    assert.equal(data.has_password, false, 'moving away from privacy 2 clears the password');

    const jsonTypes = await h().request(
      withBody('PUT', url, h().alice.auth, { privacy: '1', results: false }, 'json'),
    );
    assert.equal(
      jsonTypes.statusCode,
      200,
      'numeric strings and booleans are accepted for 0/1 fields in JSON',
    );
    assert.equal((jsonTypes.json() as { data: ReportJson }).data.privacy, 1);
    await h().request(withBody('PUT', url, h().alice.auth, { privacy: 0 }, 'json'));

    const empty = await h().request({ method: 'PATCH', url, headers: h().alice.auth });
    assert.equal(empty.statusCode, 200, 'an empty update changes nothing');
    assert.equal((empty.json() as { data: ReportJson }).data.privacy, 0);
  });

  test('update validation: 422 naming the field and its allowed values', async () => {
    const url = `/api/v1/reports/${first.id}`;
    const cases: [Record<string, string | number>, string, RegExp][] = [
      [{ privacy: 5 }, 'privacy', /0, 1, 2/],
      [{ results: 2 }, 'results', /0, 1/],
      [{ results: 'yes' }, 'results', /0, 1/],
      [{ password: 'x'.repeat(129), privacy: 2 }, 'password', /128/],
    ];
    for (const [fields, field, message] of cases) {
      const res = await h().request(withBody('PATCH', url, h().alice.auth, fields));
      assert.equal(res.statusCode, 422, res.body);
      assert.match((res.json() as { errors: Record<string, string[]> }).errors[field]![0]!, message);
    }
    // JSON null is a bad value, not the default (the validator would coerce it to 0 or "")
    const nullCases: [string, RegExp][] = [
      ['{"privacy": null}', /0, 1, 2/],
      ['{"results": null}', /0, 1/],
      ['{"privacy": 2, "password": null}', /string/],
    ];
    for (const [payload, message] of nullCases) {
      const res = await h().request({
        method: 'PATCH',
        url,
        headers: { ...h().alice.auth, 'content-type': 'application/json' },
        payload,
      });
      assert.equal(res.statusCode, 422, `${payload}: ${res.body}`);
      const errors = (res.json() as { errors: Record<string, string[]> }).errors;
      const field = Object.keys(JSON.parse(payload) as object).at(-1)!;
      assert.match(errors[field]![0]!, message, payload);
    }
    const created = await h().request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...h().alice.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: `${h().site('alpha')}/`, privacy: null }),
    });
    assert.equal(created.statusCode, 422, created.body);
    assert.match((created.json() as { errors: Record<string, string[]> }).errors.privacy![0]!, /0, 1, 2/);
  });

  test('results=1 audits again, replaces the results and keeps the earlier run as history', async () => {
    const url = `/api/v1/reports/${first.id}`;
    const before = (await h().request({ url, headers: h().alice.auth })).json() as { data: ReportJson };
    h().fixture.route('/', {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<html><body>changed</body></html>',
    });
    try {
      const res = await h().request(withBody('PUT', url, h().alice.auth, { results: 1 }));
      assert.equal(res.statusCode, 200, res.body);
      const data = (res.json() as { data: ReportJson }).data;
      assert.ok(data.generated_at > before.data.generated_at, 'generated_at moves');
      assert.equal(data.created_at, before.data.created_at);
      assert.notDeepEqual(data.results, before.data.results);
      const runs = await h().services.reports.runs(h().alice.id, first.id, {});
      assert.equal(runs.total, 2);
      assert.equal(runs.items[1]!.generatedAt, before.data.generated_at);
    } finally {
      h().fixture.route('/', { status: 200, headers: { 'content-type': 'text/html' }, body: '' });
    }
  });

  test('a re-audit that cannot fetch the page answers 422 and leaves the report as it was', async () => {
    const url = `/api/v1/reports/${first.id}`;
    const before = (await h().request({ url, headers: h().alice.auth })).json();
    h().fixture.route('/', { status: 200, headers: { 'content-type': 'application/pdf' }, body: '%PDF' });
    const res = await h().request(withBody('PATCH', url, h().alice.auth, { results: 1, privacy: 1 }));
    assert.equal(res.statusCode, 422, res.body);
    assert.ok((res.json() as { errors: Record<string, string[]> }).errors.url);
    const after = (await h().request({ url, headers: h().alice.auth })).json();
    assert.deepEqual(after, before);
  });

  test('delete: 200 {id, object, deleted}; then 404', async () => {
    const created = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, { url: `${h().site('delete-me')}/bad` }),
    );
    const id = (created.json() as { data: ReportJson }).data.id;
    const res = await h().request({
      method: 'DELETE',
      url: `/api/v1/reports/${id}`,
      headers: h().alice.auth,
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { id, object: 'report', deleted: true });
    const again = await h().request({
      method: 'DELETE',
      url: `/api/v1/reports/${id}`,
      headers: h().alice.auth,
    });
    assert.equal(again.statusCode, 404);
    const show = await h().request({ url: `/api/v1/reports/${id}`, headers: h().alice.auth });
    assert.equal(show.statusCode, 404);
    const projects = await h().request({ url: '/api/v1/projects?search=delete-me', headers: h().alice.auth });
    assert.equal(
      (projects.json() as { meta: { total: number } }).meta.total,
      0,
      'the project went with its last report',
    );
  });

  test('ids are assigned in ascending creation order', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await h().request(
        withBody('POST', '/api/v1/reports', h().alice.auth, { url: `${h().site('order')}/bad?${i}` }),
      );
      ids.push((r.json() as { data: ReportJson }).data.id);
    }
    assert.deepEqual(
      [...ids].sort((a, b) => a - b),
      ids,
    );
  });
});
