// Conditional requests: a weak ETag on report, list and project answers; 304 (no body) for
// If-None-Match with the current tag; a new tag once the data changes — on SQLite and
// PostgreSQL. (Conditional requests go through app.inject directly: the harness records only
// answers the OpenAPI document describes, and a 304 has no body to check.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildReport } from '../helpers/factories.js';
import { forEachDialect, withBody } from '../helpers/api-harness.js';

forEachDialect('ETag and 304', (h) => {
  const get = (url: string, etag?: string) =>
    h().app.inject({
      url,
      headers: { ...h().alice.auth, ...(etag ? { 'if-none-match': etag } : {}) },
    });

  test('a report: 304 while unchanged, a new tag after an update', async () => {
    const r = await buildReport(h().services, h().alice, { path: '/etag' });
    const url = `/api/v1/reports/${r.id}`;
    const first = await get(url);
    assert.equal(first.statusCode, 200);
    const etag = first.headers.etag as string;
    assert.match(etag, /^W\/"[A-Za-z0-9_-]{22}"$/);
    const again = await get(url, etag);
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, etag);
    assert.equal((await get(url, `W/"other", ${etag}`)).statusCode, 304, 'one of a list');
    assert.equal((await get(url, etag.slice(2))).statusCode, 304, 'weak comparison');
    assert.equal((await get(url, 'W/"other"')).statusCode, 200);

    const patched = await h().request(withBody('PATCH', url, h().alice.auth, { privacy: 1 }));
    assert.equal(patched.statusCode, 200);
    const changed = await get(url, etag);
    assert.equal(changed.statusCode, 200, 'changed data: the full answer');
    assert.notEqual(changed.headers.etag, etag);
  });

  test('lists: the tag changes when a report is added or deleted', async () => {
    const list = await get('/api/v1/reports');
    const projects = await get('/api/v1/projects');
    assert.equal((await get('/api/v1/reports', list.headers.etag as string)).statusCode, 304);
    assert.equal((await get('/api/v1/projects', projects.headers.etag as string)).statusCode, 304);
    const r = await buildReport(h().services, h().alice, { site: 'etag-new', path: '/x' });
    const list2 = await get('/api/v1/reports', list.headers.etag as string);
    assert.equal(list2.statusCode, 200);
    assert.notEqual(list2.headers.etag, list.headers.etag);
    const projects2 = await get('/api/v1/projects', projects.headers.etag as string);
    assert.equal(projects2.statusCode, 200);
    await h().request({ method: 'DELETE', url: `/api/v1/reports/${r.id}`, headers: h().alice.auth });
    const list3 = await get('/api/v1/reports', list2.headers.etag as string);
    assert.equal(list3.statusCode, 200);
    assert.equal(list3.headers.etag, list.headers.etag, 'the same list again: the same tag');
    // another user's list is another answer
    const bob = await h().app.inject({ url: '/api/v1/reports', headers: h().bob.auth });
    assert.notEqual(bob.headers.etag, list3.headers.etag);
  });

  test('no ETag on errors or writes', async () => {
    const missing = await get('/api/v1/reports/99999999');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers.etag, undefined);
    const store = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, { url: `${h().site('etag')}/` }),
    );
    assert.equal(store.statusCode, 201);
    assert.equal(store.headers.etag, undefined);
  });
});
