// SPEC §4 through the one error handler: 400, 401, 404, 405, 413, 415, 500 (422 is covered
// with each endpoint); HTML 404 outside /api; request ids; health — over every dialect.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { createDb } from '../../src/store/database.js';
import { freePort } from '../helpers/service-process.js';
import { createServices } from '../../src/services/index.js';
import {
  DIALECTS,
  PUBLIC_URL,
  TEST_SERVICES_CONFIG,
  createHarness,
  forEachDialect,
  testAnalyze,
  withBody,
  type Harness,
} from '../helpers/api-harness.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const JSON_TYPE = /^application\/json; charset=utf-8$/;

forEachDialect('errors', (h) => {
  test('400: unparsable JSON, JSON that is not an object, an empty JSON body', async () => {
    for (const payload of [
      '{bad',
      '[1,2]',
      '"a string"',
      '42',
      'null',
      'true',
      '',
      '   ',
      '{"__proto__": {"x": 1}}',
    ]) {
      const res = await h().request({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { ...h().alice.auth, 'content-type': 'application/json' },
        payload,
      });
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
      assert.match(String(res.headers['content-type']), JSON_TYPE);
      const body = res.json() as { message: string };
      assert.deepEqual(Object.keys(body), ['message']);
    }
    // the same on update
    const res = await h().request({
      method: 'PATCH',
      url: '/api/v1/reports/1',
      headers: { ...h().alice.auth, 'content-type': 'application/json; charset=utf-8' },
      payload: '[]',
    });
    assert.equal(res.statusCode, 400);
  });

  test('a JSON content type with a charset parameter is parsed', async () => {
    const res = await h().request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...h().alice.auth, 'content-type': 'application/json; charset=utf-8' },
      payload: '{}',
    });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json(), {
      message: 'The url field is required.',
      errors: { url: ['The url field is required.'] },
    });
  });

  test('401 with WWW-Authenticate: Bearer for a missing, malformed, unknown or revoked key', async () => {
    const extra = await h().services.keys.create(h().alice.id);
    const ok = await h().request({
      url: '/api/v1/reports',
      headers: { authorization: `Bearer ${extra.key}` },
    });
    assert.equal(ok.statusCode, 200);
    await h().services.keys.revoke(extra.info.id);

    const headers: Record<string, string>[] = [
      {},
      { authorization: '' },
      { authorization: 'Basic YWxpY2U6c2VjcmV0' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `Bearer ${h().alice.key} extra` },
      { authorization: h().alice.key },
      { authorization: 'Bearer pg_unknownunknownunknownunknown' },
      { authorization: `Bearer ${h().alice.key}x` },
      { authorization: `Bearer ${extra.key}` },
    ];
    for (const hd of headers) {
      for (const o of [
        { url: '/api/v1/reports' },
        { url: '/api/v1/reports/1' },
        { url: '/api/v1/projects' },
        { method: 'POST' as const, url: '/api/v1/reports' },
        { method: 'DELETE' as const, url: '/api/v1/projects/x.test' },
      ]) {
        const res = await h().request({ ...o, headers: hd });
        assert.equal(res.statusCode, 401, `${JSON.stringify(hd)} ${o.url}`);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        assert.match(String(res.headers['content-type']), JSON_TYPE);
        assert.deepEqual(Object.keys(res.json() as object), ['message']);
      }
    }
    // the scheme is case-insensitive
    const lower = await h().request({
      url: '/api/v1/reports',
      headers: { authorization: `bearer ${h().alice.key}` },
    });
    assert.equal(lower.statusCode, 200);
  });

  test('404 JSON for unknown routes under /api; HTML elsewhere', async () => {
    for (const url of ['/api/v1/nope', '/api/v1/reports/1/nope', '/api/v2/reports', '/api', '/api/v1']) {
      const res = await h().request({ url, headers: h().alice.auth });
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), JSON_TYPE);
      assert.deepEqual(res.json(), { message: 'Not found.' });
    }
    for (const url of ['/nope', '/reports/abc/x', '/favicon-missing.ico']) {
      const res = await h().request({ url });
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /<h1[^>]*>Page not found<\/h1>/);
    }
  });

  test('405 with Allow for a known path and a method it does not take', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/api/v1/reports', 'GET, HEAD, POST'],
      ['PUT', '/api/v1/reports', 'GET, HEAD, POST'],
      ['PATCH', '/api/v1/reports', 'GET, HEAD, POST'],
      ['POST', '/api/v1/reports/1', 'GET, HEAD, PUT, PATCH, DELETE'],
      ['POST', '/api/v1/projects', 'GET, HEAD'],
      ['DELETE', '/api/v1/projects', 'GET, HEAD'],
      ['POST', '/api/v1/projects/example.com', 'GET, HEAD, PUT, PATCH, DELETE'],
      ['GET', '/api/v1/projects/example.com/crawls', 'POST'],
    ];
    for (const [method, url, allow] of cases) {
      for (const headers of [h().alice.auth, {}]) {
        const res = await h().request({ method: method as 'GET', url, headers });
        assert.equal(res.statusCode, 405, `${method} ${url}`);
        assert.equal(res.headers.allow, allow);
        assert.match(String(res.headers['content-type']), JSON_TYPE);
        assert.deepEqual(res.json(), { message: 'Method not allowed.' });
      }
    }
  });

  test('413 for a body over 1 MB (form and JSON)', async () => {
    const big = 'x'.repeat(1024 * 1024 + 1);
    for (const [type, payload] of [
      ['application/x-www-form-urlencoded', `url=${big}`],
      ['application/json', JSON.stringify({ url: big })],
    ]) {
      const res = await h().request({
        method: 'POST',
        url: '/api/v1/reports',
        headers: { ...h().alice.auth, 'content-type': type! },
        payload,
      });
      assert.equal(res.statusCode, 413, type);
      assert.deepEqual(Object.keys(res.json() as object), ['message']);
    }
    // just under the limit is parsed (and then validated)
    const under = await h().request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...h().alice.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `privacy=1&pad=${'x'.repeat(1024 * 1024 - 100)}`,
    });
    assert.equal(under.statusCode, 422);
  });

  test('415 for a body type other than form or JSON', async () => {
    for (const type of [
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
    ]) {
      for (const [method, url] of [
        ['POST', '/api/v1/reports'],
        ['PATCH', '/api/v1/reports/1'],
        ['PUT', '/api/v1/reports/1'],
      ]) {
        const res = await h().request({
          method: method as 'POST',
          url: url!,
          headers: { ...h().alice.auth, 'content-type': type },
          payload: 'url=http://a.test/',
        });
        assert.equal(res.statusCode, 415, `${type} ${method}`);
        assert.match(
          (res.json() as { message: string }).message,
          /x-www-form-urlencoded or application\/json/,
        );
      }
    }
  });

  test('form bodies: repeated fields are rejected, unknown fields ignored', async () => {
    const res = await h().request({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...h().alice.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'url=http://a.test/&url=http://b.test/',
    });
    assert.equal(res.statusCode, 422);
    assert.ok((res.json() as { errors: Record<string, string[]> }).errors.url);
    const unknown = await h().request(
      withBody('PATCH', '/api/v1/reports/999999', h().alice.auth, { colour: 'red' }),
    );
    assert.equal(unknown.statusCode, 404);
  });

  test('odd input never answers 5xx', async () => {
    const auth = h().alice.auth;
    const cases: { o: Parameters<Harness['request']>[0]; status: number }[] = [
      { o: { url: '/api/v1/reports?search=%00%FF%ZZ&page=%', headers: auth }, status: 422 },
      { o: { url: `/api/v1/reports?search=${'%E2%9C%93'.repeat(2100)}`, headers: auth }, status: 422 },
      { o: { url: '/api/v1/reports?search=%E2%9C%93%20%27%22%3B--', headers: auth }, status: 200 },
      { o: { url: '/api/v1/reports?per_page[]=10', headers: auth }, status: 200 },
      { o: { url: '/api/v1/reports/%E0%A4%A', headers: auth }, status: 404 },
      { o: { url: '/api/v1/nope/%E0%A4%A', headers: auth }, status: 404 },
      { o: { method: 'DELETE', url: '/api/v1/projects/a%2Fb', headers: auth }, status: 404 },
      {
        o: { method: 'DELETE', url: `/api/v1/projects/${'a'.repeat(300)}.test`, headers: auth },
        status: 404,
      },
      { o: withBody('POST', '/api/v1/reports', auth, { url: { a: 1 } } as never, 'json'), status: 422 },
      {
        o: withBody('POST', '/api/v1/reports', auth, { url: ['http://a.test/'] } as never, 'json'),
        status: 201,
      },
      {
        o: withBody(
          'POST',
          '/api/v1/reports',
          auth,
          { url: 'http://a.test/', privacy: [1, 2] } as never,
          'json',
        ),
        status: 422,
      },
      {
        o: {
          method: 'POST',
          url: '/api/v1/reports',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: '['.repeat(5000) + ']'.repeat(5000),
        },
        status: 400,
      },
      {
        o: {
          method: 'POST',
          url: '/api/v1/reports',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          payload: '%%%&&&===&url',
        },
        status: 422,
      },
    ];
    for (const { o, status } of cases) {
      const res = await h().request(o);
      assert.ok(
        res.statusCode < 500,
        `${o.method ?? 'GET'} ${String(o.url).slice(0, 80)}: ${res.statusCode} ${res.body.slice(0, 200)}`,
      );
      if (status !== 201)
        assert.equal(
          res.statusCode,
          status,
          `${o.method ?? 'GET'} ${String(o.url).slice(0, 80)}: ${res.body.slice(0, 200)}`,
        );
      assert.match(String(res.headers['content-type']), JSON_TYPE);
    }
  });

  test('HEAD, trailing slash, JSON content type on success', async () => {
    const head = await h().request({ method: 'HEAD', url: '/api/v1/reports', headers: h().alice.auth });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    const slash = await h().request({ url: '/api/v1/reports/', headers: h().alice.auth });
    assert.equal(slash.statusCode, 200);
    assert.match(String(slash.headers['content-type']), JSON_TYPE);
    assert.equal(slash.headers['x-content-type-options'], 'nosniff');
  });

  test('request ids: X-Request-Id echoed when sane, generated otherwise, and in the log', async () => {
    const given = await h().request({
      url: '/api/v1/reports',
      headers: { ...h().alice.auth, 'x-request-id': 'trace-abc.123' },
    });
    assert.equal(given.headers['x-request-id'], 'trace-abc.123');
    assert.ok(h().logs.some((l) => (JSON.parse(l) as { reqId?: string }).reqId === 'trace-abc.123'));
    const generated = await h().request({ url: '/api/v1/reports', headers: h().alice.auth });
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const insane = await h().request({ url: '/healthz', headers: { 'x-request-id': 'a b<script>' } });
    assert.match(String(insane.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    assert.notEqual(generated.headers['x-request-id'], insane.headers['x-request-id']);
  });

  test('logs never hold the API key', () => {
    assert.ok(h().logs.length > 0);
    assert.ok(!h().logs.some((l) => l.includes(h().alice.key)));
  });

  test('GET /healthz: 200 without a key', async () => {
    const res = await h().request({ url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
    assert.equal(res.headers['x-ratelimit-limit'], undefined);
  });

  test('with PAGEGRADE_RATE_LIMIT=0 there is no rate limit and no rate-limit headers', async () => {
    for (let i = 0; i < 70; i++) {
      const res = await h().app.inject({ url: '/api/v1/projects', headers: h().alice.auth });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], undefined);
    }
  });
});

describe('500: an unexpected fault', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness(DIALECTS[0]!, {
      wrapServices: (s) => ({
        ...s,
        reports: {
          ...s.reports,
          list: async () => {
            throw new Error('kaboom: connection string postgres://user:hunter2@db');
          },
          // the API's list reads through listText (the stored JSON spliced into the answer),
          // its finished answer kept by listAnswer
          listText: async () => {
            throw new Error('kaboom: connection string postgres://user:hunter2@db');
          },
          listAnswer: async () => {
            throw new Error('kaboom: connection string postgres://user:hunter2@db');
          },
        },
      }),
    });
  });
  after(() => h.close());

  test('answers a generic message; the details only in the log, with the request id', async () => {
    const res = await h.request({
      url: '/api/v1/reports',
      headers: { ...h.alice.auth, 'x-request-id': 'req-500' },
    });
    assert.equal(res.statusCode, 500);
    assert.match(String(res.headers['content-type']), JSON_TYPE);
    assert.deepEqual(res.json(), { message: 'Internal server error.' });
    assert.ok(!res.body.includes('kaboom'));
    const line = h.logs
      .map(
        (l) => JSON.parse(l) as { reqId?: string; level: number; err?: { message: string; stack: string } },
      )
      .find((l) => l.reqId === 'req-500' && l.level >= 50);
    assert.ok(line?.err?.message.includes('kaboom'), 'the error is logged');
    assert.ok(line?.err?.stack.includes('errors.test.ts'), 'with its stack');
    // the service stays up
    const next = await h.request({ url: '/api/v1/projects', headers: h.alice.auth });
    assert.equal(next.statusCode, 200);
  });
});

describe('GET /healthz when the database is unreachable', () => {
  test('503 JSON, logged', async () => {
    // a PostgreSQL URL on a port where nothing listens: every query fails
    const database = createDb(`postgres://127.0.0.1:${await freePort()}/none`);
    const lines: string[] = [];
    const app = await buildApp(
      { publicUrl: PUBLIC_URL, rateLimit: 0, logLevel: 'info' },
      {
        services: createServices({
          queue: embeddedQueue(database.db),
          db: database.db,
          analyze: testAnalyze,
          config: TEST_SERVICES_CONFIG,
        }),
        healthCheck: async () => {
          await sql`select 1`.execute(database.db);
        },
        logger: pino({ level: 'info' }, { write: (s: string) => void lines.push(s) }),
      },
    );
    try {
      const res = await app.inject({ url: '/healthz' });
      assert.equal(res.statusCode, 503);
      assert.match(String(res.headers['content-type']), JSON_TYPE);
      assert.deepEqual(Object.keys(res.json() as object), ['message']);
      assert.ok(lines.some((l) => l.includes('health check failed')));
    } finally {
      await app.close();
      await database.close();
    }
  });
});
