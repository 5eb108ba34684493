// A batch's live changes reach the page that follows it: in one process through the services'
// own bus (a page done, a cancel), across processes through Redis pub/sub (createChangeBus:
// a worker elsewhere publishes, the process serving the events stream hears it, on a real
// Redis). The events stream wakes on them and otherwise looks every 2 s (src/web/batches.ts);
// the live page in Chromium: test/pages/batches-browser.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { closeRedis, createChangeBus, createRedis, type RedisClient } from '../../src/store/redis.js';
import { batchTopic, localChangeBus } from '../../src/services/shared/changes.js';
import { REDIS_URL, REQUIRE_REDIS, randomId, redisUnavailable, skipReason } from '../helpers/services.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildUser } from '../helpers/factories.js';

const redisSkip = skipReason(await redisUnavailable(), REQUIRE_REDIS);

const heard = (subscribe: (cb: () => void) => () => void, ms = 2_000) =>
  new Promise<boolean>((resolve) => {
    const t = setTimeout(() => {
      off();
      resolve(false);
    }, ms);
    const off = subscribe(() => {
      clearTimeout(t);
      off();
      resolve(true);
    });
  });

describe('batch changes', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(sqliteDialect);
  });
  after(() => t.close());

  test('in one process: a cancel is heard by the batch watcher, not by another batch', async () => {
    const user = await buildUser(t.services);
    const a = await t.services.batches.create(user.id, { url: `${t.site('a')}/`, mode: 'crawl' });
    const b = await t.services.batches.create(user.id, { url: `${t.site('b')}/`, mode: 'crawl' });
    const onA = heard((cb) => t.services.batches.watch(a.id, cb));
    const onB = heard((cb) => t.services.batches.watch(b.id, cb), 300);
    await t.services.batches.cancel(user.id, a.id);
    assert.equal(await onA, true);
    assert.equal(await onB, false);
  });

  test('the local bus: subscribe, publish, unsubscribe', () => {
    const bus = localChangeBus();
    let n = 0;
    const off = bus.subscribe(batchTopic(1), () => n++);
    bus.publish(batchTopic(1));
    bus.publish(batchTopic(2));
    off();
    bus.publish(batchTopic(1));
    assert.equal(n, 1);
  });

  describe('across processes, on Redis', { skip: redisSkip }, () => {
    let one: RedisClient;
    let two: RedisClient;
    const prefix = `pg-test-${randomId()}:`;
    before(() => {
      one = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
      two = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
    });
    after(async () => {
      await closeRedis(one);
      await closeRedis(two);
    });

    test("a worker's change is heard by the web process's bus", async () => {
      const worker = createChangeBus(one, { redisPrefix: prefix });
      const web = createChangeBus(two, { redisPrefix: prefix });
      try {
        // the subscription is set up asynchronously: publish until it is heard, at most 2 s
        const got = heard((cb) => web.subscribe(batchTopic(7), cb), 3_000);
        const tick = setInterval(() => worker.publish(batchTopic(7)), 100);
        try {
          assert.equal(await got, true);
        } finally {
          clearInterval(tick);
        }
        const other = heard((cb) => web.subscribe(batchTopic(8), cb), 300);
        worker.publish(batchTopic(7));
        assert.equal(await other, false, 'another batch hears nothing');
      } finally {
        await worker.close();
        await web.close();
      }
    });
  });
});
