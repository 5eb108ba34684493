// The API key cache (src/services/accounts/accounts.service.ts): a key seen is authenticated from memory
// for PAGEGRADE_KEY_CACHE_MS; a revocation clears it at once in the process that made it and,
// through Redis (src/store/redis.ts createKeyBus), in the others. Two service instances over one
// database stand for two processes.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServices } from '../../src/services/index.js';
import { type Services } from '../../src/services/types.js';
import { createKeyBus, createRedis, closeRedis, type RedisClient } from '../../src/store/redis.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { openTestDb, sqliteDialect, type TestDb } from '../helpers/db.js';
import { waitFor } from '../helpers/queues.js';
import { REDIS_URL, REQUIRE_REDIS, randomId, redisUnavailable, skipReason } from '../helpers/services.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const redisSkip = skipReason(await redisUnavailable(), REQUIRE_REDIS);

function servicesOn(t: TestDb, keyCacheMs?: number, keyBus?: ReturnType<typeof createKeyBus>): Services {
  return createServices({
    queue: embeddedQueue(t.db),
    db: t.db,
    analyze: testAnalyze,
    config: testServicesConfig(keyCacheMs === undefined ? {} : { keyCacheMs }),
    ...(keyBus ? { keyBus } : {}),
  });
}

describe('API key cache', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  test('a key seen is served from memory; a revocation in the same process counts at once', async () => {
    const t = await openTestDb(sqliteDialect);
    cleanups.push(() => t.cleanup());
    const a = servicesOn(t);
    const b = servicesOn(t);
    const user = await a.users.create(`cache-${randomId()}`);
    assert.ok(await a.auth.authenticate(user.key.key));
    // revoked by another process that cannot tell this one (no Redis): this one still has it
    // in memory, for at most PAGEGRADE_KEY_CACHE_MS — which shows that the cache is used
    await b.keys.revoke(user.key.info.id);
    assert.ok(await a.auth.authenticate(user.key.key), 'served from the cache');
    assert.equal(await b.auth.authenticate(user.key.key), null, 'the revoking process refuses at once');
    // a revocation in the process itself clears its cache at once
    const other = await a.keys.create(user.user.name);
    assert.ok(await a.auth.authenticate(other.key));
    await a.keys.revoke(other.info.id);
    assert.equal(await a.auth.authenticate(other.key), null);
  });

  test('PAGEGRADE_KEY_CACHE_MS=0: every request reads the key', async () => {
    const t = await openTestDb(sqliteDialect);
    cleanups.push(() => t.cleanup());
    const a = servicesOn(t, 0);
    const b = servicesOn(t, 0);
    const user = await a.users.create(`nocache-${randomId()}`);
    assert.ok(await a.auth.authenticate(user.key.key));
    await b.keys.revoke(user.key.info.id);
    assert.equal(await a.auth.authenticate(user.key.key), null);
  });

  test(
    'with Redis, a revocation in one process reaches the others at once',
    { skip: redisSkip },
    async () => {
      const t = await openTestDb(sqliteDialect);
      cleanups.push(() => t.cleanup());
      const prefix = `pagegrade-test-${randomId()}:`;
      const clients: RedisClient[] = [];
      const bus = () => {
        const client = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
        clients.push(client);
        const b = createKeyBus(client, { redisPrefix: prefix });
        cleanups.push(async () => {
          await b.close();
          await closeRedis(client);
        });
        return b;
      };
      // a long cache life: only the message can make the other process forget the key
      const a = servicesOn(t, 300_000, bus());
      const b = servicesOn(t, 300_000, bus());
      const user = await a.users.create(`bus-${randomId()}`);
      assert.ok(await a.auth.authenticate(user.key.key));
      // the subscriptions are made in the background: wait until a message gets through (a
      // fresh probe key each attempt: a late message for the previous one must not fail it)
      await waitFor(
        async () => {
          const probe = await a.keys.create(user.user.name);
          assert.ok(await a.auth.authenticate(probe.key));
          await b.keys.revoke(probe.info.id);
          for (let i = 0; i < 10; i++) {
            if ((await a.auth.authenticate(probe.key)) === null) return true;
            await new Promise((r) => setTimeout(r, 20));
          }
          return false;
        },
        'the first revocation message',
        10_000,
      );
      await b.keys.revoke(user.key.info.id);
      await waitFor(
        async () => (await a.auth.authenticate(user.key.key)) === null,
        'the revocation to arrive',
        5000,
      );
    },
  );
});
