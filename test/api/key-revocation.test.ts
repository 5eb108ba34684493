// A revoked API key is refused by a running service at once, whatever made the change (issue 22
// §1): the service runs as a real process (helpers/service-process.ts) with a key cache life of
// 5 minutes, so that only the database's signal can make it forget a key — SQLite's
// PRAGMA data_version and counter (src/store/key-changes.ts), PostgreSQL's NOTIFY through the
// LISTEN bus (src/store/pg-changes.ts). The revocations come from `pagegrade keys revoke` run as
// another process without REDIS_URL, from an UPDATE on another connection, and from deleting the
// user, and a member demoted or removed with `pagegrade members`; each time the very next request with the key is 401 (on PostgreSQL, for the changes this
// test makes itself, the first after the NOTIFY reached the service: see afterChange). On
// SQLite, on PostgreSQL, and on PostgreSQL with Redis (where the service's live changes go
// through Redis, but keys still follow the database). The outage of the LISTEN connection:
// test/services/key-cache.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PG_CHANGES_CHANNEL } from '../../src/store/pg-changes.js';
import { runCli } from '../helpers/cli.js';
import { api, startService, type ServiceProcess } from '../helpers/service-process.js';
import {
  REDIS_URL,
  REQUIRE_POSTGRES,
  REQUIRE_REDIS,
  clearRedisPrefix,
  createTempDatabase,
  postgresUnavailable,
  randomId,
  redisUnavailable,
  skipReason,
  withPg,
} from '../helpers/services.js';

const pgSkip = skipReason(await postgresUnavailable(), REQUIRE_POSTGRES);
const redisSkip = pgSkip || skipReason(await redisUnavailable(), REQUIRE_REDIS);

interface TestDatabase {
  url: string;
  /**
   * runs `statement` on another connection; on PostgreSQL, unless `silent`, returns once a
   * listener of the database (a connection of its own, as the service's is) has had the
   * triggers' NOTIFY: the notification is sent at the commit, but the committing client may be
   * answered before the listeners are (docs/api.md, "The key cache")
   */
  exec(statement: string, options?: { silent?: boolean }): Promise<void>;
  drop(): Promise<void>;
}

interface Setup {
  name: string;
  skip: false | string;
  database(): Promise<TestDatabase>;
  redis?: boolean;
}

async function postgresDatabase(): Promise<TestDatabase> {
  const db = await createTempDatabase();
  const run = (statement: string) => withPg(db.url, (c) => c.query(statement).then(() => {}));
  return {
    url: db.url,
    async exec(statement, { silent = false } = {}) {
      if (silent) return run(statement);
      await withPg(db.url, async (listener) => {
        await listener.query(`LISTEN ${PG_CHANGES_CHANNEL}`);
        const heard = new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no NOTIFY of the key change within 5 s')), 5_000);
          listener.on('notification', (n) => {
            if (n.payload !== 'keys') return;
            clearTimeout(timer);
            resolve();
          });
        });
        await run(statement);
        await heard;
      });
    },
    drop: db.drop,
  };
}

const setups: Setup[] = [
  {
    name: 'SQLite',
    skip: false,
    async database() {
      const dir = mkdtempSync(join(tmpdir(), 'pagegrade-revoke-'));
      const file = join(dir, 'pagegrade.db');
      return {
        url: `sqlite:${file}`,
        // a connection of its own, opened for the statement (as the sqlite3 shell would)
        async exec(statement) {
          const other = new Database(file);
          try {
            other.pragma('busy_timeout = 5000');
            other.pragma('foreign_keys = ON');
            other.exec(statement);
          } finally {
            other.close();
          }
        },
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: pgSkip,
    database: postgresDatabase,
  },
  {
    name: 'PostgreSQL with Redis',
    skip: redisSkip,
    redis: true,
    database: postgresDatabase,
  },
];

const lastLine = (s: string) => s.trimEnd().split('\n').at(-1) ?? '';

for (const setup of setups) {
  describe(
    `a revoked key is refused at once by a running service [${setup.name}]`,
    { skip: setup.skip },
    () => {
      let database: TestDatabase;
      let service: ServiceProcess;
      let cliEnv: Record<string, string>;
      const prefix = `pagegrade-test-${randomId()}:`;

      before(async () => {
        database = await setup.database();
        // the CLI as an operator runs it on the same machine: DATABASE_URL only, no REDIS_URL
        cliEnv = { DATABASE_URL: database.url, REDIS_URL: '' };
        service = await startService(
          {
            DATABASE_URL: database.url,
            PAGEGRADE_BOOTSTRAP_KEY: `pg_boot_${randomId()}${randomId()}${randomId()}`,
            // only a signal can make the service forget a key within the test
            PAGEGRADE_KEY_CACHE_MS: '300000',
            PAGEGRADE_WORKER: '0',
            PAGEGRADE_RATE_LIMIT: '0',
            ...(setup.redis ? { REDIS_URL, PAGEGRADE_REDIS_PREFIX: prefix } : {}),
          },
          90_000,
        );
      });

      after(async () => {
        await service?.stop();
        await database?.drop();
        if (setup.redis) await clearRedisPrefix(prefix);
      });

      /** a new key of a new user, through the CLI: its secret and id */
      async function newKey(): Promise<{ key: string; id: number; user: string }> {
        const user = `u${randomId()}`;
        const created = await runCli(['users', 'create', user], cliEnv);
        assert.equal(created.code, 0, created.stderr);
        const key = lastLine(created.stdout);
        const list = await runCli(['keys', 'list', user, '--json'], cliEnv);
        assert.equal(list.code, 0, list.stderr);
        const [info] = JSON.parse(list.stdout) as { id: number }[];
        return { key, id: info!.id, user };
      }

      /**
       * The status of the first request after a change made in the database. SQLite: the very
       * next request. PostgreSQL: the first after the NOTIFY has reached the service — sent at the
       * commit, it crosses in well under a millisecond on a quiet machine, but under load this
       * test (the committing client) can be answered and ask before the service has read it, so
       * the requests are repeated for up to a second (the delay is in the message).
       */
      async function afterChange(
        expected: number,
        request: () => Promise<{ status: number }>,
      ): Promise<void> {
        const t0 = performance.now();
        let status = (await request()).status;
        while (setup.name !== 'SQLite' && status !== expected && performance.now() - t0 < 1_000) {
          await new Promise((r) => setTimeout(r, 5));
          status = (await request()).status;
        }
        assert.equal(status, expected, `after ${Math.round(performance.now() - t0)} ms`);
      }

      /** the key works, twice (the second time from the service's cache) */
      async function seen(key: string): Promise<void> {
        for (let i = 0; i < 2; i++)
          assert.equal((await api(service.origin, key, 'GET', '/api/v1/account')).status, 200);
      }

      test(
        'the service serves a key from its cache: a revocation made without the signal is not seen',
        { timeout: 120_000 },
        async () => {
          const { key, id } = await newKey();
          await seen(key);
          // the triggers' signal suppressed: only the key's row changes
          await database.exec(
            setup.name === 'SQLite'
              ? `BEGIN; UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00.000Z' WHERE id = ${id};
             UPDATE auth_generation SET n = n - 1 WHERE id = 1; COMMIT;`
              : `BEGIN; ALTER TABLE api_keys DISABLE TRIGGER api_keys_changed;
             UPDATE api_keys SET revoked_at = now() WHERE id = ${id};
             ALTER TABLE api_keys ENABLE TRIGGER api_keys_changed; COMMIT;`,
            { silent: true },
          );
          assert.equal(
            (await api(service.origin, key, 'GET', '/api/v1/reports')).status,
            200,
            'from the cache',
          );
        },
      );

      test(
        '`pagegrade keys revoke` in another process (no REDIS_URL): the next request is 401',
        { timeout: 120_000 },
        async () => {
          const { key, id } = await newKey();
          await seen(key);
          const revoked = await runCli(['keys', 'revoke', String(id)], cliEnv);
          assert.equal(revoked.code, 0, revoked.stderr);
          const res = await api(service.origin, key, 'GET', '/api/v1/account');
          assert.equal(res.status, 401);
          assert.match(String(res.body.message), /unknown or revoked/);
          // and it stays refused
          assert.equal((await api(service.origin, key, 'GET', '/api/v1/reports')).status, 401);
        },
      );

      test(
        'an UPDATE on another connection (as psql or the sqlite3 shell): the next request is 401',
        { timeout: 120_000 },
        async () => {
          const { key, id } = await newKey();
          const other = await newKey();
          await seen(key);
          await seen(other.key);
          await database.exec(`UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00.000Z' WHERE id = ${id}`);
          await afterChange(401, () => api(service.origin, key, 'GET', '/api/v1/account'));
          // the other key, still valid, still works
          assert.equal((await api(service.origin, other.key, 'GET', '/api/v1/account')).status, 200);
          // a narrower scope is seen at once too: a write (of nothing) is 404 for a write key,
          // 403 for a read key
          const remove = () => api(service.origin, other.key, 'DELETE', '/api/v1/projects/nothing.example');
          assert.equal((await remove()).status, 404);
          await database.exec(`UPDATE api_keys SET scopes = 'read' WHERE id = ${other.id}`);
          await afterChange(403, remove);
        },
      );

      test(
        "`pagegrade members set|remove` in another process: a demoted member's key may no longer write, a removed one's is 401",
        { timeout: 180_000 },
        async () => {
          const owner = await newKey();
          const { user: member } = await newKey();
          const added = await runCli(['members', 'add', owner.user, member, '--role', 'member'], cliEnv);
          assert.equal(added.code, 0, added.stderr);
          const made = await runCli(['keys', 'create', member, '--org', owner.user], cliEnv);
          assert.equal(made.code, 0, made.stderr);
          const key = lastLine(made.stdout);
          await seen(key);
          // a write (of nothing) is 404 for a member, 403 for a viewer
          const remove = () => api(service.origin, key, 'DELETE', '/api/v1/projects/nothing.example');
          assert.equal((await remove()).status, 404);
          const demoted = await runCli(['members', 'set', owner.user, member, '--role', 'viewer'], cliEnv);
          assert.equal(demoted.code, 0, demoted.stderr);
          await afterChange(403, remove);
          assert.match(String((await remove()).body.message), /member role or higher/);
          const removed = await runCli(['members', 'remove', owner.user, member], cliEnv);
          assert.equal(removed.code, 0, removed.stderr);
          await afterChange(401, () => api(service.origin, key, 'GET', '/api/v1/account'));
        },
      );

      test(
        'a user deleted on another connection: the next request with its key is 401',
        { timeout: 120_000 },
        async () => {
          const { key, user } = await newKey();
          await seen(key);
          await database.exec(
            `DELETE FROM api_keys WHERE user_id = (SELECT id FROM users WHERE name = '${user}')`,
          );
          await afterChange(401, () => api(service.origin, key, 'GET', '/api/v1/account'));
          const second = await newKey();
          await seen(second.key);
          await database.exec(`DELETE FROM users WHERE name = '${second.user}'`);
          await afterChange(401, () => api(service.origin, second.key, 'GET', '/api/v1/account'));
        },
      );
    },
  );
}
