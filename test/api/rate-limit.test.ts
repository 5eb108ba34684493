// Per-key rate limit (SPEC §7): X-RateLimit-Limit / X-RateLimit-Remaining, 429 + Retry-After
// in the API's error shape, one budget per key (not per user or address), the window resets;
// and the same counters shared through a real Redis by two app instances.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { buildApp, type App } from '../../src/app.js';
import { createRedis, closeRedis, type RedisClient } from '../../src/store/redis.js';
import { DIALECTS, PUBLIC_URL, createHarness, type Harness } from '../helpers/api-harness.js';
import { configFromEnv } from '../../src/config.js';
import { clearRedisPrefix, randomId, REDIS_URL, redisUnavailable, skipUnlessRequired } from '../helpers/services.js';

const LIMIT = 3;

describe('rate limit (in memory)', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness(DIALECTS[0]!, { rateLimit: LIMIT, rateLimitWindowMs: 1500 });
  });
  after(() => h.close());

  test('headers count down; the request over the limit is 429 with Retry-After', async () => {
    for (let i = 1; i <= LIMIT; i++) {
      const res = await h.request({ url: '/api/v1/reports', headers: h.alice.auth });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], String(LIMIT));
      assert.equal(res.headers['x-ratelimit-remaining'], String(LIMIT - i));
    }
    const over = await h.request({ url: '/api/v1/projects', headers: h.alice.auth });
    assert.equal(over.statusCode, 429);
    assert.match(String(over.headers['content-type']), /^application\/json; charset=utf-8$/);
    assert.deepEqual(over.json(), { message: 'Too many requests.' });
    const retryAfter = Number(over.headers['retry-after']);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 2,
      `Retry-After ${over.headers['retry-after']}`,
    );
    assert.equal(over.headers['x-ratelimit-limit'], String(LIMIT));
    assert.equal(over.headers['x-ratelimit-remaining'], '0');
    // every route of the API counts, writes too (and a bad body is still counted)
    const post = await h.request({ method: 'POST', url: '/api/v1/reports', headers: h.alice.auth });
    assert.equal(post.statusCode, 429);
  });

  test("one budget per key: bob's key, and alice's second key, are not limited by alice's first", async () => {
    const bob = await h.request({ url: '/api/v1/reports', headers: h.bob.auth });
    assert.equal(bob.statusCode, 200);
    assert.equal(bob.headers['x-ratelimit-remaining'], String(LIMIT - 1));
    const second = await h.services.keys.create(h.alice.id);
    const res = await h.request({
      url: '/api/v1/reports',
      headers: { authorization: `Bearer ${second.key}` },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-ratelimit-remaining'], String(LIMIT - 1));
  });

  test('requests without a valid key get 401, are not counted, and health is never limited', async () => {
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await h.request({
        url: '/api/v1/reports',
        headers: { authorization: 'Bearer nope-nope-nope' },
      });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['x-ratelimit-limit'], undefined);
      const health = await h.request({ url: '/healthz' });
      assert.equal(health.statusCode, 200);
    }
  });

  test('the window resets', async () => {
    const limited = await h.request({ url: '/api/v1/reports', headers: h.alice.auth });
    assert.equal(limited.statusCode, 429);
    await new Promise((r) => setTimeout(r, 1600));
    const res = await h.request({ url: '/api/v1/reports', headers: h.alice.auth });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-ratelimit-remaining'], String(LIMIT - 1));
  });
});

describe('rate limit default (issue 23 §5)', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness(DIALECTS[0]!, { rateLimit: configFromEnv({}).rateLimit });
  });
  after(() => h.close());

  test("the default is 240 a minute: a script's 70 quick requests are all answered", async () => {
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 70; i++) {
      const res = await h.request({ url: '/api/v1/reports', headers: h.alice.auth });
      statuses.push(res.statusCode);
      last = String(res.headers['x-ratelimit-remaining']);
    }
    assert.deepEqual(statuses, Array<number>(70).fill(200));
    assert.equal(h.recorded.at(-1)?.status, 200);
    assert.equal(last, String(240 - 70));
  });
});

describe('rate limit shared through Redis', () => {
  let h: Harness;
  let redis: RedisClient[] = [];
  let apps: App[] = [];
  let prefix = '';

  test('two app instances count the same key together', async (t) => {
    if (skipUnlessRequired(t, await redisUnavailable(), 'PAGEGRADE_REQUIRE_REDIS')) return;
    h = await createHarness(DIALECTS[0]!);
    prefix = `pagegrade-test-${randomId()}:`;
    const redisUrl = REDIS_URL;
    redis = [
      createRedis({ redisUrl, redisPrefix: prefix })!,
      createRedis({ redisUrl, redisPrefix: prefix })!,
    ];
    apps = await Promise.all(
      redis.map((client) =>
        buildApp(
          { publicUrl: PUBLIC_URL, rateLimit: LIMIT, logLevel: 'silent' },
          {
            services: h.services,
            healthCheck: async () => {
              await sql`select 1`.execute(h.database.db);
            },
            redis: client,
          },
        ),
      ),
    );
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await apps[i % 2]!.inject({ url: '/api/v1/reports', headers: h.alice.auth });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    const other = await apps[0]!.inject({ url: '/api/v1/reports', headers: h.bob.auth });
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers['x-ratelimit-remaining'], String(LIMIT - 1));
  });

  after(async () => {
    for (const app of apps) await app.close();
    for (const client of redis) await closeRedis(client);
    if (prefix) await clearRedisPrefix(prefix);
    await h?.close();
  });
});
