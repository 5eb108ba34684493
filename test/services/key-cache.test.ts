// The API key cache (src/services/accounts/accounts.service.ts): a key seen is authenticated from
// memory, without a query, for as long as the database says no key changed — SQLite's
// PRAGMA data_version and the counter the triggers bump, PostgreSQL's NOTIFY heard on the LISTEN
// bus (src/store/key-changes.ts). A change made on another connection is seen at once; the
// bookkeeping write of last_used_at is not a change; while the signal cannot be trusted (a
// transaction open on SQLite's connection, the LISTEN connection down on PostgreSQL) every
// request reads its key. Redis (src/store/redis.ts createKeyBus) still carries the revocations
// the services make. The same end to end with the service and the CLI as processes:
// test/api/key-revocation.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import { createServices } from '../../src/services/index.js';
import { type Services } from '../../src/services/types.js';
import { createDb, withTransaction, type DatabaseHandle, type Db } from '../../src/store/database.js';
import type { KeyChangeWatch } from '../../src/store/key-changes.js';
import {
  createPgChangeBus,
  pgKeyChanges,
  PG_CHANGES_APPLICATION,
  type PgChangeBus,
} from '../../src/store/pg-changes.js';
import { createKeyBus, createRedis, closeRedis } from '../../src/store/redis.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { dialects, openTestDb, sqliteDialect, type TestDb } from '../helpers/db.js';
import { waitFor } from '../helpers/queues.js';
import {
  REDIS_URL,
  REQUIRE_REDIS,
  randomId,
  redisUnavailable,
  skipReason,
  withPg,
} from '../helpers/services.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const redisSkip = skipReason(await redisUnavailable(), REQUIRE_REDIS);
/** long enough that only a signal can make a service forget a key within a test */
const LONG = 300_000;

/** `db` with a count of the statements run through it (the cache's hits run none) */
function counted(db: Db): { db: Db; queries(): number } {
  let n = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      n++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), queries: () => n };
}

function servicesOn(
  db: Db,
  options: {
    keyChanges?: KeyChangeWatch;
    keyCacheMs?: number;
    keyBus?: ReturnType<typeof createKeyBus>;
  } = {},
): Services {
  return createServices({
    queue: embeddedQueue(db),
    db,
    analyze: testAnalyze,
    config: testServicesConfig({ keyCacheMs: options.keyCacheMs ?? LONG }),
    ...(options.keyChanges ? { keyChanges: options.keyChanges } : {}),
    ...(options.keyBus ? { keyBus: options.keyBus } : {}),
  });
}

for (const dialect of dialects) {
  describe(`API key cache [${dialect.name}]`, { skip: dialect.skip }, () => {
    let t: TestDb;
    /** another connection to the same database, as another process has */
    let other: DatabaseHandle;
    let otherServices: Services;
    let bus: PgChangeBus | null = null;
    let keyChanges: KeyChangeWatch;

    before(async () => {
      t = await openTestDb(dialect);
      other = createDb(t.databaseUrl);
      otherServices = servicesOn(other.db);
      if (dialect.name === 'postgres') {
        bus = createPgChangeBus(t.databaseUrl, t.db);
        await bus.ready();
        keyChanges = pgKeyChanges(bus);
      } else keyChanges = t.keyChanges!;
    });
    after(async () => {
      await bus?.close();
      await other?.close();
      await t?.cleanup();
    });

    /** resolves at the next key change this process hears (at once on SQLite: it reads on demand) */
    const heard = (): Promise<void> =>
      bus ? new Promise((resolve) => bus!.subscribe('keys', resolve)) : Promise.resolve();

    test('a key seen is authenticated from memory: no query', async () => {
      const c = counted(t.db);
      const a = servicesOn(c.db, { keyChanges });
      const user = await a.users.create(`hit-${randomId()}`);
      assert.ok(await a.auth.authenticate(user.key.key));
      const before = c.queries();
      for (let i = 0; i < 5; i++) assert.ok(await a.auth.authenticate(user.key.key));
      assert.equal(c.queries(), before, 'served from the cache');
    });

    test('a revocation on another connection is refused at once; the other keys stay cached', async () => {
      const c = counted(t.db);
      const a = servicesOn(c.db, { keyChanges });
      const user = await a.users.create(`revoke-${randomId()}`);
      const second = await a.keys.create(user.user.name);
      assert.ok(await a.auth.authenticate(user.key.key));
      assert.ok(await a.auth.authenticate(second.key));
      const signal = heard();
      await otherServices.keys.revoke(user.key.info.id);
      // PostgreSQL: the NOTIFY comes on the LISTEN connection, not with the UPDATE's answer
      const t0 = performance.now();
      await signal;
      const ms = performance.now() - t0;
      assert.ok(ms < 1_000, `the change was heard after ${Math.round(ms)} ms`);
      assert.equal(await a.auth.authenticate(user.key.key), null);
      // the other key is read again once (the cache was dropped), then served from memory
      assert.ok(await a.auth.authenticate(second.key));
      const before = c.queries();
      assert.ok(await a.auth.authenticate(second.key));
      assert.equal(c.queries(), before);
    });

    test('a key made narrower, or its user deleted, on another connection is seen at once', async () => {
      const a = servicesOn(t.db, { keyChanges });
      const user = await a.users.create(`narrow-${randomId()}`);
      assert.deepEqual((await a.auth.authenticate(user.key.key))?.scopes, ['read', 'write']);
      let signal = heard();
      await other.db
        .updateTable('api_keys')
        .set({ scopes: 'read' })
        .where('id', '=', user.key.info.id)
        .execute();
      await signal;
      assert.deepEqual((await a.auth.authenticate(user.key.key))?.scopes, ['read']);
      signal = heard();
      await other.db.deleteFrom('users').where('id', '=', user.user.id).execute();
      await signal;
      assert.equal(await a.auth.authenticate(user.key.key), null);
    });

    test('a change on this process’s own connection, outside these services, is seen too', async () => {
      const a = servicesOn(t.db, { keyChanges });
      const user = await a.users.create(`own-${randomId()}`);
      assert.ok(await a.auth.authenticate(user.key.key));
      const signal = heard();
      // SQLite: data_version does not move for the connection's own writes; the statement
      // cache notices the write instead
      await t.db
        .updateTable('api_keys')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', user.key.info.id)
        .execute();
      await signal;
      assert.equal(await a.auth.authenticate(user.key.key), null);
    });

    test('last_used_at written by another process is no change: the cache stays', async () => {
      const c = counted(t.db);
      const a = servicesOn(c.db, { keyChanges });
      const user = await a.users.create(`touch-${randomId()}`);
      assert.ok(await a.auth.authenticate(user.key.key));
      await other.db
        .updateTable('api_keys')
        .set({ last_used_at: new Date().toISOString() })
        .where('id', '=', user.key.info.id)
        .execute();
      // a NOTIFY, were there one, would have come by now
      await new Promise((r) => setTimeout(r, 200));
      const before = c.queries();
      assert.ok(await a.auth.authenticate(user.key.key));
      assert.equal(c.queries(), before, 'still served from the cache');
    });

    test('PAGEGRADE_KEY_CACHE_MS=0, or no signal to follow: every request reads its key', async () => {
      for (const options of [{ keyChanges, keyCacheMs: 0 }, {}]) {
        const c = counted(t.db);
        const a = servicesOn(c.db, options);
        const user = await a.users.create(`nocache-${randomId()}`);
        assert.ok(await a.auth.authenticate(user.key.key));
        const before = c.queries();
        assert.ok(await a.auth.authenticate(user.key.key));
        assert.ok(c.queries() > before, 'read from the database');
      }
    });
  });
}

describe('API key cache [sqlite]: a transaction open on the connection', () => {
  let t: TestDb;
  before(async () => {
    t = await openTestDb(sqliteDialect);
  });
  after(() => t?.cleanup());

  test('while another request holds a transaction, the key is read (after it), not trusted from memory', async () => {
    const a = servicesOn(t.db, { keyChanges: t.keyChanges! });
    const user = await a.users.create(`trx-${randomId()}`);
    assert.ok(await a.auth.authenticate(user.key.key));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    // a transaction of this process that revokes the key and has not committed yet
    const trx = withTransaction(t.db, async (trx) => {
      await trx.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).execute();
      inside();
      await held;
    });
    await entered;
    assert.equal(t.keyChanges!.generation(), null, 'no signal inside a transaction');
    const answer = a.auth.authenticate(user.key.key);
    release();
    await trx;
    assert.equal(await answer, null, 'read after the commit: revoked');
  });
});

describe('API key cache [postgres]: the LISTEN connection down', { skip: dialects[1]!.skip }, () => {
  let t: TestDb;
  let bus: PgChangeBus;
  before(async () => {
    t = await openTestDb(dialects[1]!);
    bus = createPgChangeBus(t.databaseUrl, t.db);
    await bus.ready();
  });
  after(async () => {
    await bus?.close();
    await t?.cleanup();
  });

  test('a revocation made while it is down is refused at once; once back, keys are cached again', async () => {
    const keyChanges = pgKeyChanges(bus);
    const c = counted(t.db);
    const a = servicesOn(c.db, { keyChanges });
    const user = await a.users.create(`down-${randomId()}`);
    // the bus reconnects after ~100 ms: an attempt counts when the revocation and the request
    // both fell inside the outage (a few tries at most, on a loaded machine)
    let during = 0;
    for (let attempt = 0; attempt < 10 && during === 0; attempt++) {
      const key = await a.keys.create(user.user.name);
      assert.ok(await a.auth.authenticate(key.key));
      const before = c.queries();
      assert.ok(await a.auth.authenticate(key.key));
      assert.equal(c.queries(), before, 'cached while the bus listens');
      await withPg(t.databaseUrl, (pg) =>
        pg.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
          [PG_CHANGES_APPLICATION],
        ),
      );
      await waitFor(() => !bus.listening(), 'the bus to see its connection drop', 5_000);
      assert.equal(keyChanges.generation(), null, 'no signal while down');
      // revoked by another connection, whose NOTIFY nobody here hears
      await withPg(t.databaseUrl, (pg) =>
        pg.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [key.info.id]),
      );
      assert.equal(await a.auth.authenticate(key.key), null, 'refused at once, the bus being down');
      if (!bus.listening()) during++;
      await waitFor(() => bus.listening(), 'the bus to listen again', 10_000);
    }
    assert.equal(during, 1, 'a revocation was made and refused while the bus was down');
    // back: keys are served from memory again
    const last = await a.keys.create(user.user.name);
    assert.ok(await a.auth.authenticate(last.key));
    const before = c.queries();
    assert.ok(await a.auth.authenticate(last.key));
    assert.equal(c.queries(), before);
  });
});

describe('API key cache with Redis', { skip: redisSkip }, () => {
  let t: TestDb;
  const closers: (() => Promise<void>)[] = [];
  before(async () => {
    t = await openTestDb(sqliteDialect);
  });
  after(async () => {
    for (const c of closers.reverse()) await c();
    await t?.cleanup();
  });

  test('a revocation made by a service reaches the others through Redis too', async () => {
    const prefix = `pagegrade-test-${randomId()}:`;
    const bus = () => {
      const client = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
      const b = createKeyBus(client, { redisPrefix: prefix });
      closers.push(async () => {
        await b.close();
        await closeRedis(client);
      });
      return b;
    };
    // a database signal that never changes: only the Redis message can make `a` forget
    const still: KeyChangeWatch = { generation: () => 0 };
    const other = createDb(t.databaseUrl);
    closers.push(() => other.close());
    const a = servicesOn(t.db, { keyChanges: still, keyBus: bus() });
    const b = servicesOn(other.db, { keyChanges: still, keyBus: bus() });
    const user = await a.users.create(`bus-${randomId()}`);
    assert.ok(await a.auth.authenticate(user.key.key));
    // the subscriptions are made in the background: wait until a message gets through (a fresh
    // probe key each attempt: a late message for the previous one must not fail it)
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
  });
});
