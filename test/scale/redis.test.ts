// The Redis plumbing on a real Redis: createRedis's key prefix, and the password-attempt
// store shared by two clients (as two processes would share it).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { closeRedis, createRedis, pingRedis } from '../../src/store/redis.js';
import { RedisAttemptStore } from '../../src/pages/attempt-store-redis.js';
import { MemoryAttemptStore, blockedFor, type AttemptStore } from '../../src/pages/throttle.js';
import {
  REDIS_URL,
  clearRedisPrefix,
  randomId,
  redisUnavailable,
  skipUnlessRequired,
} from '../helpers/services.js';

const prefix = `pagegrade-test-${randomId()}:`;
const unavailable = await redisUnavailable();

describe('Redis', () => {
  after(async () => {
    if (!unavailable) await clearRedisPrefix(prefix);
  });

  test('createRedis is null without REDIS_URL', () => {
    assert.equal(createRedis({ redisUrl: null, redisPrefix: prefix }), null);
  });

  test('createRedis prefixes every key with redisPrefix', async (t) => {
    if (skipUnlessRequired(t, unavailable, 'PAGEGRADE_REQUIRE_REDIS')) return;
    const a = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
    const raw = createRedis({ redisUrl: REDIS_URL, redisPrefix: '' })!;
    try {
      await pingRedis(a);
      await a.set('hello', 'world');
      assert.equal(await raw.get(`${prefix}hello`), 'world');
      assert.equal(await raw.get('hello'), null);
    } finally {
      await closeRedis(a);
      await closeRedis(raw);
    }
  });

  test('pingRedis fails fast with the address when Redis is unreachable', async () => {
    const c = createRedis({ redisUrl: 'redis://127.0.0.1:1', redisPrefix: prefix })!;
    const started = Date.now();
    try {
      await assert.rejects(pingRedis(c, 3000), /Redis at 127\.0\.0\.1:1 is unreachable/);
      assert.ok(Date.now() - started < 3500);
    } finally {
      await closeRedis(c);
    }
  });

  test('the attempt store counts across clients like the memory store does', async (t) => {
    if (skipUnlessRequired(t, unavailable, 'PAGEGRADE_REQUIRE_REDIS')) return;
    const c1 = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
    const c2 = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
    try {
      const s1: AttemptStore = new RedisAttemptStore(c1);
      const s2: AttemptStore = new RedisAttemptStore(c2);
      const memory: AttemptStore = new MemoryAttemptStore();
      const rule = { limit: 3, windowMs: 60_000 };

      assert.equal(await s1.peek('report:1:1.2.3.4'), null);
      for (let i = 1; i <= 3; i++) {
        const store = i % 2 ? s1 : s2;
        const got = await store.hit('report:1:1.2.3.4', rule.windowMs);
        const want = await memory.hit('report:1:1.2.3.4', rule.windowMs);
        assert.equal(got.count, want.count);
        assert.ok(got.resetMs > 59_000 && got.resetMs <= 60_000, `resetMs ${got.resetMs}`);
      }
      // the third wrong attempt, made through the other client, used up the limit for both
      const wait = await blockedFor(s2, 'report:1:1.2.3.4', rule);
      assert.ok(wait !== null && wait >= 59 && wait <= 60, `blocked for ${wait}`);
      assert.equal(await blockedFor(s1, 'report:1:5.6.7.8', rule), null);

      // keys live under the deployment prefix
      const raw = await c1.exists('attempts:report:1:1.2.3.4');
      assert.equal(raw, 1);

      await s2.reset('report:1:1.2.3.4');
      assert.equal(await s1.peek('report:1:1.2.3.4'), null);
    } finally {
      await closeRedis(c1);
      await closeRedis(c2);
    }
  });

  test('an attempt window expires', async (t) => {
    if (skipUnlessRequired(t, unavailable, 'PAGEGRADE_REQUIRE_REDIS')) return;
    const c = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
    try {
      const s = new RedisAttemptStore(c);
      assert.equal((await s.hit('short', 150)).count, 1);
      assert.equal((await s.hit('short', 150)).count, 2);
      const seen = await s.peek('short');
      assert.ok(seen && seen.count === 2 && seen.resetMs <= 150);
      await new Promise((r) => setTimeout(r, 250));
      assert.equal(await s.peek('short'), null);
      const fresh = await s.hit('short', 150);
      assert.equal(fresh.count, 1);
    } finally {
      await closeRedis(c);
    }
  });
});
