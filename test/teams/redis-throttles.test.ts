// The sign-in throttles and key revocation with Redis (docs/teams.md "Signing in"), on SQLite and
// PostgreSQL: two app instances — as two processes of one deployment — share one database and
// one Redis (a key prefix of the test's own, cleared at the end), each with its own connections. The attempts counted on one
// instance refuse the next on the other: wrong passwords per address and per account, wrong
// second-factor codes, reset-link requests and sign-ups; the counts are Redis keys under the
// prefix. A key in the other instance's key cache (5 minutes here) stops there at once when it is
// revoked through the first. Skipped with the reason without Redis (failed
// with PAGEGRADE_REQUIRE_REDIS=1).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import pino from 'pino';
import { buildApp, type App } from '../../src/app.js';
import { embeddedQueue } from '../../src/jobs/index.js';
import { createServices } from '../../src/services/index.js';
import { hashPersonPassword } from '../../src/services/signin/signin.service.js';
import type { Services } from '../../src/services/types.js';
import { createDb } from '../../src/store/database.js';
import { createPgChangeBus, pgKeyChanges } from '../../src/store/pg-changes.js';
import { closeRedis, createKeyBus, createRedis, type RedisClient } from '../../src/store/redis.js';
import { describeEachDialect } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { openTestDb, type TestDb } from '../helpers/db.js';
import { waitFor } from '../helpers/queues.js';
import {
  REDIS_URL,
  REQUIRE_REDIS,
  clearRedisPrefix,
  randomId,
  redisUnavailable,
  skipReason,
} from '../helpers/services.js';

const redisSkip = skipReason(await redisUnavailable(), REQUIRE_REDIS);
const LIGHT = { N: 2 ** 14, r: 8, p: 1 };
const PASSWORD = 'redis-throttle-password-1';
/** long enough that only a signal can make an instance forget a key within the test */
const KEY_CACHE_MS = 300_000;

interface Instance {
  app: App;
  services: Services;
  redis: RedisClient;
  close(): Promise<void>;
}

/**
 * One app instance as the service makes it: its own database connection (pool), the database's
 * key signal (SQLite's data_version, PostgreSQL's LISTEN), and its own Redis connections (rate
 * limits, sign-in attempts, the key bus).
 */
async function instance(databaseUrl: string, prefix: string): Promise<Instance> {
  const handle = createDb(databaseUrl);
  const pgBus = handle.dialect === 'postgres' ? createPgChangeBus(databaseUrl, handle.db) : null;
  await pgBus?.ready();
  const keyChanges = handle.keyChanges ?? pgKeyChanges(pgBus!);
  const redis = createRedis({ redisUrl: REDIS_URL, redisPrefix: prefix })!;
  const keyBus = createKeyBus(redis, { redisPrefix: prefix });
  const services = createServices({
    queue: embeddedQueue(handle.db),
    db: handle.db,
    analyze: testAnalyze,
    config: testServicesConfig({
      keyCacheMs: KEY_CACHE_MS,
      passwordScrypt: LIGHT,
      secretKey: 'c'.repeat(64),
    }),
    keyChanges,
    keyBus,
  });
  const app = await buildApp(
    { publicUrl: 'http://127.0.0.1:8080', rateLimit: 0, logLevel: 'silent' },
    { services, healthCheck: async () => {}, logger: pino({ level: 'silent' }), redis },
  );
  await app.ready();
  return {
    app,
    services,
    redis,
    async close() {
      await app.close();
      await keyBus.close();
      await closeRedis(redis);
      await pgBus?.close();
      await handle.close();
    },
  };
}

describeEachDialect('throttles and key revocation with Redis', { skip: redisSkip }, (dialect) => {
  let db: TestDb;
  let a: Instance;
  let b: Instance;
  const prefix = `pagegrade-test-${randomId()}:`;
  let ipCount = 0;
  /** a browser on `inst` from an address of its own (or `ip`) */
  const browserOn = (inst: Instance, ip = `10.77.${dialect.name === 'sqlite' ? 1 : 2}.${++ipCount}`) =>
    new Browser(inst.app, ip);

  const signIn = async (br: Browser, email: string, password: string) =>
    br.post('/login', { _csrf: await br.csrf('/login'), email, password, next: '/dashboard' });

  before(async () => {
    db = await openTestDb(dialect);
    a = await instance(db.databaseUrl, prefix);
    b = await instance(db.databaseUrl, prefix);
    await a.services.users.create('redis-root');
    for (const name of ['redis-anna', 'redis-bob', 'redis-carol'])
      await a.services.users.create(name, {
        email: `${name}@example.com`,
        passwordHash: await hashPersonPassword(PASSWORD, LIGHT),
      });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await db?.cleanup();
    await clearRedisPrefix(prefix);
  });

  test('wrong passwords per address: counted on A, the 11th try on B is 429', async () => {
    const ip = '10.77.9.1';
    const onA = browserOn(a, ip);
    for (let i = 0; i < 10; i++) {
      // other emails: the per-account rule is not the one that trips
      const res = await signIn(onA, `nobody-${i}@example.com`, 'wrong-password');
      assert.equal(res.statusCode, 401, `try ${i + 1}`);
    }
    const onB = browserOn(b, ip);
    const refused = await signIn(onB, 'redis-anna@example.com', PASSWORD);
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    // another address on B signs in
    assert.equal((await signIn(browserOn(b), 'redis-anna@example.com', PASSWORD)).statusCode, 303);
    // the count is in Redis, under the deployment's prefix
    const raw = await a.redis.get(`attempts:login:${ip}`);
    assert.equal(raw, '10');
  });

  test('wrong passwords per account: spread over addresses and instances, the account is held', async () => {
    for (let i = 0; i < 10; i++) {
      const inst = i % 2 === 0 ? a : b;
      const res = await signIn(browserOn(inst), 'redis-bob@example.com', 'wrong-password');
      assert.equal(res.statusCode, 401);
    }
    // the right password, from a fresh address, on either instance: refused until the window ends
    for (const inst of [a, b]) {
      const res = await signIn(browserOn(inst), 'redis-bob@example.com', PASSWORD);
      assert.equal(res.statusCode, 429, 'the account is throttled everywhere');
    }
    // another account is not held
    assert.equal((await signIn(browserOn(b), 'redis-carol@example.com', PASSWORD)).statusCode, 303);
  });

  test('wrong second-factor codes: 5 on A, the next on B is 429', async () => {
    const carol = (await a.services.users.find('redis-carol'))!;
    const { secret } = await a.services.signin.totpBegin(carol.id);
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await a.services.signin.totpConfirm(carol.id, totp.generate());
    const wrong = totp.generate() === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      // each try from a new address on A: only the per-person rule counts them all
      const br = browserOn(a);
      assert.equal((await signIn(br, 'redis-carol@example.com', PASSWORD)).statusCode, 303);
      const token = await br.csrf('/login/second-factor');
      const res = await br.post('/login/second-factor', { _csrf: token, code: wrong, next: '/dashboard' });
      assert.equal(res.statusCode, 401, `try ${i + 1}`);
    }
    const onB = browserOn(b);
    assert.equal((await signIn(onB, 'redis-carol@example.com', PASSWORD)).statusCode, 303);
    const token = await onB.csrf('/login/second-factor');
    const held = await onB.post('/login/second-factor', {
      _csrf: token,
      code: totp.generate(),
      next: '/dashboard',
    });
    assert.equal(held.statusCode, 429, 'even the right code waits for the window');
  });

  test('reset-link requests and sign-ups: 5 per address across the instances', async () => {
    const ip = '10.77.9.2';
    for (let i = 0; i < 5; i++) {
      const br = browserOn(i % 2 === 0 ? a : b, ip);
      const res = await br.post('/forgot-password', {
        _csrf: await br.csrf('/forgot-password'),
        email: 'redis-anna@example.com',
      });
      assert.equal(res.statusCode, 200, `request ${i + 1}`);
    }
    const br = browserOn(b, ip);
    const refused = await br.post('/forgot-password', {
      _csrf: await br.csrf('/forgot-password'),
      email: 'redis-anna@example.com',
    });
    assert.equal(refused.statusCode, 429);

    await a.services.signin.setSignupMode('open');
    const signupIp = '10.77.9.3';
    for (let i = 0; i < 5; i++) {
      const s = browserOn(i % 2 === 0 ? b : a, signupIp);
      const res = await s.post('/signup', {
        _csrf: await s.csrf('/signup'),
        email: `signup-${dialect.name}-${i}@example.com`,
        name: `redis-signup-${i}`,
        password: 'short',
      });
      assert.equal(res.statusCode, 422, 'a refused form counts too');
    }
    const s = browserOn(a, signupIp);
    const held = await s.post('/signup', {
      _csrf: await s.csrf('/signup'),
      email: `signup-${dialect.name}-ok@example.com`,
      name: 'redis-signup-ok',
      password: 'a-long-enough-password',
    });
    assert.equal(held.statusCode, 429);
    await a.services.signin.setSignupMode('closed');
  });

  test('a key revoked through A stops on B at once', async () => {
    const made = await a.services.keys.create('redis-anna');
    const ask = (inst: Instance) =>
      inst.app.inject({
        method: 'GET',
        url: '/api/v1/account',
        headers: { authorization: `Bearer ${made.key}` },
      });
    assert.equal((await ask(b)).statusCode, 200);
    assert.equal((await ask(b)).statusCode, 200, "now in B's key cache");
    // revoked on A's dashboard, by its owner
    const anna = browserOn(a);
    assert.equal((await signIn(anna, 'redis-anna@example.com', PASSWORD)).statusCode, 303);
    const token = await anna.csrf('/dashboard/keys');
    const res = await anna.post(`/dashboard/keys/${made.info.id}/revoke`, { _csrf: token });
    assert.ok(res.statusCode < 400, String(res.statusCode));
    assert.ok((await a.services.keys.list('redis-anna')).find((k) => k.id === made.info.id)?.revokedAt);
    // B hears it (Redis pub/sub and the database's signal, as a second process does), not after
    // its 5-minute cache
    await waitFor(async () => ((await ask(b)).statusCode === 401 ? true : null), 'B refuses the key', 2_000);
    assert.equal((await ask(a)).statusCode, 401);
  });
});
