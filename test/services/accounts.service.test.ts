// Users, API keys, authentication, bootstrap and settings over every dialect.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../src/analyzer/index.js';
import { AppError } from '../../src/errors.js';
import { bootstrap, createServices } from '../../src/services/index.js';
import { type Services } from '../../src/services/types.js';
import { hashApiKey, hashPassword, sameHash, verifyPassword } from '../../src/services/shared/secrets.js';
import { dialects, openTestDb, type TestDb } from '../helpers/db.js';
import { testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const config = testServicesConfig();

test('secrets: scrypt password hashes are salted and verify', async () => {
  const a = await hashPassword('correct horse');
  const b = await hashPassword('correct horse');
  assert.notEqual(a, b, 'salted');
  assert.match(a, /^scrypt\$16384\$8\$1\$/);
  assert.equal(a.includes('correct'), false);
  assert.equal(await verifyPassword('correct horse', a), true);
  assert.equal(await verifyPassword('correct horsf', a), false);
  assert.equal(await verifyPassword('correct horse', 'garbage'), false);
  // NFC: the same text typed two ways matches
  assert.equal(await verifyPassword('caf\u00e9', await hashPassword('cafe\u0301')), true);
});

test('secrets: hash comparison', () => {
  const h = hashApiKey('pg_x');
  assert.equal(sameHash(h, hashApiKey('pg_x')), true);
  assert.equal(sameHash(h, hashApiKey('pg_y')), false);
  assert.equal(sameHash(h, ''), false);
  assert.equal(sameHash('', ''), false);
});

for (const dialect of dialects) {
  describe(`accounts [${dialect.name}]`, { skip: dialect.skip }, () => {
    let t: TestDb;
    let clock = new Date('2026-01-01T00:00:00.000Z');
    let s: Services;

    before(async () => {
      t = await openTestDb(dialect);
      s = createServices({ queue: embeddedQueue(t.db), db: t.db, analyze, config, now: () => clock });
    });
    after(() => t?.cleanup());

    test('bootstrap creates admin once, with a random key', async () => {
      const [k1, k2] = await Promise.all([bootstrap(s, config), bootstrap(s, config)]);
      const keys = [k1, k2].filter((k): k is string => k !== null);
      assert.equal(keys.length, 1, 'exactly one process gets the key');
      assert.match(keys[0]!, /^pg_[A-Za-z0-9_-]{32}$/);
      assert.equal(await bootstrap(s, config), null);
      const admin = await s.users.find('admin');
      assert.ok(admin);
      const auth = await s.auth.authenticate(keys[0]!);
      assert.equal(auth?.memberId, admin.id);
      assert.equal((await s.users.list()).length, 1);
    });

    test('bootstrap with a fixed key on an empty database', async () => {
      const other = await openTestDb(dialect);
      try {
        const s2 = createServices({ queue: embeddedQueue(other.db), db: other.db, analyze, config });
        const fixed = 'fixed-bootstrap-key-0123456789abcdef';
        assert.equal(await bootstrap(s2, { bootstrapKey: fixed }), fixed);
        const auth = await s2.auth.authenticate(fixed);
        assert.ok(auth);
        const [info] = await s2.keys.list('admin');
        assert.equal(info?.prefix, fixed.slice(0, 10));
      } finally {
        await other.cleanup();
      }
    });

    test('users: create, find by name or id, validation, duplicates', async () => {
      const { user, key } = await s.users.create('carol');
      assert.equal(user.name, 'carol');
      assert.match(key.key, /^pg_[A-Za-z0-9_-]{32}$/);
      assert.equal(key.info.userId, user.id);
      assert.equal(key.info.prefix, key.key.slice(0, 10));
      assert.deepEqual(await s.users.find('carol'), user);
      assert.deepEqual(await s.users.find(String(user.id)), user);
      assert.deepEqual(await s.users.find(user.id), user);
      assert.deepEqual(await s.users.get(user.id), user);
      assert.equal(await s.users.find('nobody'), null);
      assert.equal(await s.users.find('99999999999999'), null);
      for (const bad of ['', ' x', '123', 'a'.repeat(65), 'with space', 'ünï']) {
        await assert.rejects(
          s.users.create(bad),
          (e: unknown) => e instanceof AppError && e.status === 422 && !!e.fields?.name,
        );
      }
      await assert.rejects(
        s.users.create('carol'),
        (e: unknown) => e instanceof AppError && e.status === 422 && /taken/.test(e.message),
      );
      const race = await Promise.allSettled([s.users.create('dave'), s.users.create('dave')]);
      assert.equal(race.filter((r) => r.status === 'fulfilled').length, 1);
    });

    test('keys: issue, authenticate, list without secrets, revoke', async () => {
      const created = await s.users.create('erin');
      const { user } = created;
      const k2 = await s.keys.create('erin');
      const k3 = await s.keys.create(String(user.id));
      assert.notEqual(k2.key, k3.key);
      const list = await s.keys.list('erin');
      assert.equal(list.length, 3);
      assert.ok(
        list.every(
          (k) =>
            k.userName === 'erin' && k.userId === user.id && k.lastUsedAt === null && k.revokedAt === null,
        ),
      );
      assert.equal(JSON.stringify(list).includes(k2.key), false, 'no secret listed');
      const stored = await t.db.selectFrom('api_keys').selectAll().execute();
      assert.equal(JSON.stringify(stored).includes(k2.key), false, 'no secret stored');
      assert.ok(stored.some((r) => r.hash === hashApiKey(k2.key)));
      assert.ok((await s.keys.list()).length >= 4);
      await assert.rejects(
        s.keys.create('nobody'),
        (e: unknown) => e instanceof AppError && e.status === 404,
      );
      await assert.rejects(s.keys.list('nobody'), (e: unknown) => e instanceof AppError && e.status === 404);

      assert.deepEqual(await s.auth.authenticate(k2.key), {
        // the key acts in the user's own organisation, as its owner
        orgId: created.organization.id,
        memberId: user.id,
        role: 'owner',
        keyId: k2.info.id,
        scopes: ['read', 'write'],
        projects: null,
      });
      assert.equal(await s.auth.authenticate(k2.key + 'x'), null);
      assert.equal(await s.auth.authenticate(k2.key.slice(0, -1)), null);
      assert.equal(await s.auth.authenticate(''), null);
      assert.equal(await s.auth.authenticate('x'.repeat(10_000)), null);

      const revoked = await s.keys.revoke(k2.info.id);
      assert.equal(revoked.revokedAt, clock.toISOString());
      assert.equal(await s.auth.authenticate(k2.key), null);
      assert.ok(await s.auth.authenticate(k3.key), 'other keys still work');
      clock = new Date(clock.getTime() + 1000);
      assert.equal(
        (await s.keys.revoke(k2.info.id)).revokedAt,
        revoked.revokedAt,
        'first revocation date kept',
      );
      await assert.rejects(s.keys.revoke(999_999), (e: unknown) => e instanceof AppError && e.status === 404);
    });

    test('last_used_at is recorded at most once a minute', async () => {
      const { key } = await s.users.create('frank');
      const lastUsed = async () => (await s.keys.list('frank'))[0]!.lastUsedAt;
      const t0 = clock;
      await s.auth.authenticate(key.key);
      assert.equal(await lastUsed(), t0.toISOString());
      clock = new Date(t0.getTime() + 30_000);
      await s.auth.authenticate(key.key);
      assert.equal(await lastUsed(), t0.toISOString(), 'not rewritten within the minute');
      clock = new Date(t0.getTime() + 61_000);
      await s.auth.authenticate(key.key);
      assert.equal(await lastUsed(), clock.toISOString());
    });

    test('the session secret is generated once and kept', async () => {
      const a = await s.settings.sessionSecret();
      assert.ok(a.length >= 40);
      const again = createServices({ queue: embeddedQueue(t.db), db: t.db, analyze, config });
      assert.equal(await again.settings.sessionSecret(), a);
      const fixed = createServices({
        queue: embeddedQueue(t.db),
        db: t.db,
        analyze,
        config: { ...config, sessionSecret: 'f'.repeat(32) },
      });
      assert.equal(await fixed.settings.sessionSecret(), 'f'.repeat(32));
    });
  });
}
