// Messages with the obvious hint (issue 13 item 15) through the API, every dialect: a URL
// without its scheme suggests the https one; privacy takes the words public/private/password as
// well as 0/1/2, and a wrong value names both. Every response is checked against the OpenAPI
// document by the harness.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachDialect, withBody } from '../helpers/api-harness.js';

interface Body {
  data?: { privacy: number; has_password: boolean; id: number };
  message?: string;
  errors?: Record<string, string[]>;
}

forEachDialect('messages with the obvious hint', (h) => {
  test('url=example.com → 422 "… did you mean https://example.com/?"', async () => {
    for (const as of ['form', 'json'] as const) {
      const res = await h().request(
        withBody('POST', '/api/v1/reports', h().alice.auth, { url: 'example.com' }, as),
      );
      assert.equal(res.statusCode, 422);
      assert.deepEqual((res.json() as Body).errors?.url, [
        'The url must be an http or https URL; did you mean https://example.com/?',
      ]);
    }
    const other = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, { url: 'not a url' }),
    );
    assert.deepEqual((other.json() as Body).errors?.url, ['The url must be an http or https URL.']);
  });

  test('privacy accepts public, private and password as aliases of 0, 1, 2 (form and JSON, store and update)', async () => {
    const url = `${h().site('words')}/`;
    const pub = await h().request(
      withBody('POST', '/api/v1/reports', h().alice.auth, { url, privacy: 'public' }),
    );
    assert.equal(pub.statusCode, 201, pub.body);
    assert.equal((pub.json() as Body).data?.privacy, 0);
    const pw = await h().request(
      withBody(
        'POST',
        '/api/v1/reports',
        h().alice.auth,
        { url, privacy: 'password', password: 's3cret' },
        'json',
      ),
    );
    assert.equal(pw.statusCode, 201, pw.body);
    assert.equal((pw.json() as Body).data?.privacy, 2);
    assert.equal((pw.json() as Body).data?.has_password, true);
    const id = (pub.json() as Body).data!.id;
    const priv = await h().request(
      withBody('PATCH', `/api/v1/reports/${id}`, h().alice.auth, { privacy: 'private' }),
    );
    assert.equal(priv.statusCode, 200, priv.body);
    assert.equal((priv.json() as Body).data?.privacy, 1);
    const num = await h().request(
      withBody('PATCH', `/api/v1/reports/${id}`, h().alice.auth, { privacy: 0 }, 'json'),
    );
    assert.equal((num.json() as Body).data?.privacy, 0, 'numbers still work');
  });

  test('a wrong privacy names the numbers and the words', async () => {
    for (const privacy of ['publik', '3', 'Public ']) {
      const res = await h().request(
        withBody('POST', '/api/v1/reports', h().alice.auth, { url: `${h().site('words')}/`, privacy }),
      );
      assert.equal(res.statusCode, 422, privacy);
      assert.deepEqual((res.json() as Body).errors?.privacy, [
        'The privacy must be one of: 0, 1, 2 (or the words public, private, password).',
      ]);
    }
  });

  test('the OpenAPI document describes privacy as a number or a word', async () => {
    const res = await h().request({ url: '/api/v1/openapi.json' });
    const doc = res.json() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    const text = JSON.stringify(doc.paths['/api/v1/reports']?.post?.requestBody);
    assert.ok(text.includes('"enum":["public","private","password"]'), text.slice(0, 400));
    assert.ok(text.includes('"enum":[0,1,2]'));
  });
});
