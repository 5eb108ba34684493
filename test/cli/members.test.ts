// `pagegrade orgs …` and `pagegrade members …` run as real processes (docs/teams.md), on a temp
// SQLite file and a fresh PostgreSQL database: an agency's organisation, a client added as a
// viewer limited to their site, a key made in the agency for them (read-only by default), the
// role changed and the member removed — and what their key may do after each step, asked of
// the services over the same database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli as run } from '../helpers/cli.js';
import { createServices } from '../../src/services/index.js';
import { createDb, type DatabaseHandle } from '../../src/store/database.js';
import { dialects, type DialectSetup } from '../helpers/db.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const lastLine = (s: string) => s.trimEnd().split('\n').at(-1) ?? '';

for (const dialect of dialects) {
  describe(`pagegrade orgs/members [${dialect.name}]`, { skip: dialect.skip }, () => {
    let setup: DialectSetup;
    let env: Record<string, string>;
    before(async () => {
      setup = await dialect.setup();
      env = { DATABASE_URL: setup.databaseUrl };
    });
    after(() => setup?.cleanup());

    test('an organisation, a client viewer limited to a project, a key in it; set and remove follow at once', async () => {
      assert.equal((await run(['users', 'create', 'anna'], env)).code, 0);
      assert.equal((await run(['users', 'create', 'client-bob'], env)).code, 0);
      const org = await run(['orgs', 'create', 'Acme Agency', '--owner', 'anna'], env);
      assert.equal(org.code, 0, org.stderr);
      assert.match(org.stdout, /Created organization "Acme Agency"/);

      const add = await run(
        [
          'members',
          'add',
          'Acme Agency',
          'client-bob',
          '--role',
          'viewer',
          '--project',
          'www.Client-Bob.com',
        ],
        env,
      );
      assert.equal(add.code, 0, add.stderr);
      assert.match(add.stdout, /Added client-bob to Acme Agency as viewer of client-bob\.com/);
      const badRole = await run(['members', 'add', 'Acme Agency', 'anna', '--role', 'boss'], env);
      assert.equal(badRole.code, 2);
      assert.match(badRole.stderr, /--role must be one of: viewer, member, admin, owner/);
      const twice = await run(['members', 'add', 'Acme Agency', 'client-bob', '--role', 'member'], env);
      assert.equal(twice.code, 2);
      assert.match(twice.stderr, /already a member/);

      const made = await run(['keys', 'create', 'client-bob', '--org', 'Acme Agency'], env);
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /in organization "Acme Agency": scopes read;/);
      const key = lastLine(made.stdout);
      const notMember = await run(['keys', 'create', 'client-bob', '--org', 'anna'], env);
      assert.equal(notMember.code, 2);
      assert.match(notMember.stderr, /client-bob is not a member of anna/);

      const list = await run(['members', 'list', 'Acme Agency', '--json'], env);
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual(
        (JSON.parse(list.stdout) as { name: string; role: string; projects: string[] | null }[]).map((m) => [
          m.name,
          m.role,
          m.projects,
        ]),
        [
          ['anna', 'owner', null],
          ['client-bob', 'viewer', ['client-bob.com']],
        ],
      );
      const orgs = await run(['orgs', 'list', '--json'], env);
      assert.deepEqual(
        (JSON.parse(orgs.stdout) as { name: string }[]).map((o) => o.name),
        ['anna', 'client-bob', 'Acme Agency'],
      );

      // what the key may do, read by the services over the same database
      let handle: DatabaseHandle | null = createDb(setup.databaseUrl);
      const services = () =>
        createServices({
          db: handle!.db,
          analyze: testAnalyze,
          config: testServicesConfig(),
          queue: embeddedQueue(handle!.db),
        });
      try {
        const a = await services().auth.authenticate(key);
        assert.deepEqual([a?.role, a?.scopes, a?.projects], ['viewer', ['read'], ['client-bob.com']]);

        const set = await run(
          ['members', 'set', 'Acme Agency', 'client-bob', '--role', 'member', '--all-projects'],
          env,
        );
        assert.equal(set.code, 0, set.stderr);
        assert.match(set.stdout, /client-bob is now member of Acme Agency\./);
        const b = await services().auth.authenticate(key);
        assert.deepEqual([b?.role, b?.scopes, b?.projects], ['member', ['read'], null]);

        const lastOwner = await run(['members', 'set', 'Acme Agency', 'anna', '--role', 'admin'], env);
        assert.equal(lastOwner.code, 2);
        assert.match(lastOwner.stderr, /last owner/);
        const nothing = await run(['members', 'set', 'Acme Agency', 'anna'], env);
        assert.equal(nothing.code, 2);
        assert.match(nothing.stderr, /nothing to change/);

        const removed = await run(['members', 'remove', 'Acme Agency', 'client-bob'], env);
        assert.equal(removed.code, 0, removed.stderr);
        assert.equal(await services().auth.authenticate(key), null);
        const gone = await run(['members', 'remove', 'Acme Agency', 'client-bob'], env);
        assert.equal(gone.code, 2);
        assert.match(gone.stderr, /No such member/);
      } finally {
        await handle.close();
        handle = null;
      }
    });
  });
}
