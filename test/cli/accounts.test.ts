// `pagegrade users …` and `pagegrade keys …` run as real processes over a temp SQLite file
// (and a fresh PostgreSQL database when reachable).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli as run } from '../helpers/cli.js';
import { analyze } from '../../src/analyzer/index.js';
import { createServices } from '../../src/services/index.js';
import { createDb } from '../../src/store/database.js';
import { dialects, type DialectSetup, type TestDialect } from '../helpers/db.js';
import { testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const lastLine = (s: string) => s.trimEnd().split('\n').at(-1) ?? '';
const KEY_RE = /^pg_[A-Za-z0-9_-]{32}$/;

const [sqlite, postgres] = dialects as [TestDialect, TestDialect];

describe('pagegrade users/keys on PostgreSQL', { skip: postgres.skip }, () => {
  test('users create and keys list --json', { timeout: 120_000 }, async () => {
    const setup = await postgres.setup();
    try {
      const env = { DATABASE_URL: setup.databaseUrl };
      const created = await run(['users', 'create', 'pg-user'], env);
      assert.equal(created.code, 0, created.stderr);
      const key = lastLine(created.stdout);
      assert.match(key, KEY_RE);
      const list = await run(['keys', 'list', 'pg-user', '--json'], env);
      assert.equal(list.code, 0, list.stderr);
      const keys = JSON.parse(list.stdout) as { user: string; prefix: string }[];
      assert.deepEqual(
        keys.map((k) => [k.user, k.prefix]),
        [['pg-user', key.slice(0, 10)]],
      );
    } finally {
      await setup.cleanup();
    }
  });
});

for (const dialect of [sqlite]) {
  describe(`pagegrade users/keys [${dialect.name}]`, { skip: dialect.skip }, () => {
    let setup: DialectSetup;
    let env: Record<string, string>;

    before(async () => {
      setup = await dialect.setup();
      env = { DATABASE_URL: setup.databaseUrl };
    });
    after(() => setup?.cleanup());

    test('users create, keys create/list/revoke, errors exit 2', { timeout: 120_000 }, async () => {
      const created = await run(['users', 'create', 'ci-bot'], env);
      assert.equal(created.code, 0, created.stderr);
      const key1 = lastLine(created.stdout);
      assert.match(key1, KEY_RE, 'the key alone on the last line');

      const [dup, second, badUser] = await Promise.all([
        run(['users', 'create', 'ci-bot'], env),
        run(['keys', 'create', 'ci-bot'], env),
        run(['keys', 'create', 'nobody'], env),
      ]);
      assert.equal(dup.code, 2);
      assert.match(dup.stderr, /^error: .*already taken/m);
      assert.equal(second.code, 0, second.stderr);
      const key2 = lastLine(second.stdout);
      assert.match(key2, KEY_RE);
      assert.notEqual(key2, key1);
      assert.equal(badUser.code, 2);
      assert.match(badUser.stderr, /error: No such user: nobody/);

      const [json, text, byId] = await Promise.all([
        run(['keys', 'list', '--json'], env),
        run(['keys', 'list', 'ci-bot'], env),
        run(['keys', 'list', '1', '--json'], env),
      ]);
      assert.equal(json.code, 0, json.stderr);
      const keys = JSON.parse(json.stdout) as Record<string, unknown>[];
      assert.equal(keys.length, 2);
      assert.deepEqual(Object.keys(keys[0]!), [
        'id',
        'user',
        'organization',
        'prefix',
        'created_at',
        'last_used_at',
        'revoked_at',
        'scopes',
        'projects',
        'expires_at',
      ]);
      assert.equal(keys[0]!.user, 'ci-bot');
      assert.equal(keys[0]!.prefix, key1.slice(0, 10));
      assert.equal(keys[0]!.revoked_at, null);
      assert.deepEqual(JSON.parse(byId.stdout), keys);
      for (const out of [json.stdout, text.stdout]) {
        assert.equal(out.includes(key1) || out.includes(key2), false, 'never a secret');
      }
      const lines = text.stdout.trimEnd().split('\n');
      assert.equal(lines.length, 3, 'a header, then one key a line');
      assert.match(
        lines[0]!,
        /^ID\s+USER\s+ORGANIZATION\s+PREFIX\s+SCOPE\s+PROJECTS\s+CREATED\s+LAST USED\s+EXPIRES\s+REVOKED$/,
      );
      assert.match(
        lines[1]!,
        new RegExp(
          `^${keys[0]!.id}\\s+ci-bot\\s+ci-bot\\s+${key1.slice(0, 10)}\\s+write\\s+\\*\\s+\\S+Z\\s+never\\s+never\\s+-$`,
        ),
      );

      // the key works against the store until revoked (this process is another one than the
      // CLI's, without Redis between them: no key cache, so that it reads the revocation at once)
      const handle = createDb(setup.databaseUrl);
      try {
        const services = createServices({
          queue: embeddedQueue(handle.db),
          db: handle.db,
          analyze,
          config: testServicesConfig({
            allowPrivateHosts: false,
            fetchTimeoutMs: 1000,
            fetchMaxBytes: 1024,
            keyCacheMs: 0,
          }),
        });
        assert.ok(await services.auth.authenticate(key1));
        const revoked = await run(['keys', 'revoke', String(keys[0]!.id)], env);
        assert.equal(revoked.code, 0, revoked.stderr);
        assert.match(revoked.stdout, /Revoked key/);
        assert.equal(await services.auth.authenticate(key1), null);
        assert.ok(await services.auth.authenticate(key2));
      } finally {
        await handle.close();
      }

      const [after, unknownKey, notANumber, missingArg] = await Promise.all([
        run(['keys', 'list', '--json'], env),
        run(['keys', 'revoke', '424242'], env),
        run(['keys', 'revoke', 'abc'], env),
        run(['users', 'create'], env),
      ]);
      const listed = JSON.parse(after.stdout) as { revoked_at: string | null; last_used_at: string | null }[];
      assert.match(listed[0]!.revoked_at ?? '', /^\d{4}-.*Z$/);
      assert.notEqual(listed[0]!.last_used_at, null, 'last use recorded');
      assert.equal(listed[1]!.revoked_at, null);
      assert.equal(unknownKey.code, 2);
      assert.match(unknownKey.stderr, /No such key: 424242/);
      assert.equal(notANumber.code, 2);
      assert.equal(missingArg.code, 2);
    });
  });
}

describe('pagegrade keys create --scope --project --expires [sqlite]', () => {
  let setup: DialectSetup;
  let env: Record<string, string>;
  before(async () => {
    setup = await sqlite.setup();
    env = { DATABASE_URL: setup.databaseUrl };
  });
  after(() => setup?.cleanup());

  test('a read key limited to a project, expiring in 30 days', { timeout: 120_000 }, async () => {
    assert.equal((await run(['users', 'create', 'scoped'], env)).code, 0);
    const before = Date.now();
    const created = await run(
      ['keys', 'create', 'scoped', '--scope', 'read', '--project', 'www.Example.com', '--expires', '30d'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(lastLine(created.stdout), KEY_RE);
    assert.match(created.stdout, /scopes read; projects example\.com; expires \d{4}-/);
    const list = await run(['keys', 'list', 'scoped', '--json'], env);
    const keys = JSON.parse(list.stdout) as {
      scopes: string[];
      projects: string[] | null;
      expires_at: string;
    }[];
    assert.deepEqual(keys[1]!.scopes, ['read']);
    assert.deepEqual(keys[1]!.projects, ['example.com']);
    const days = (Date.parse(keys[1]!.expires_at) - before) / 86_400_000;
    assert.ok(days > 29.9 && days < 30.1, `expires in 30 days (${days})`);
    assert.deepEqual(keys[0]!.scopes, ['read', 'write'], 'the first key: everything');

    const [badScope, badExpiry, past] = await Promise.all([
      run(['keys', 'create', 'scoped', '--scope', 'admin'], env),
      run(['keys', 'create', 'scoped', '--expires', 'soon'], env),
      run(['keys', 'create', 'scoped', '--expires', '2001-01-01'], env),
    ]);
    assert.equal(badScope.code, 2);
    assert.match(badScope.stderr, /--scope must be one of: read, write/);
    assert.equal(badExpiry.code, 2);
    assert.match(badExpiry.stderr, /--expires must be a duration such as 30d/);
    assert.equal(past.code, 2);
    assert.match(past.stderr, /expires_at must be a date and time in the future/);
  });
});
