// The CLI starts light and speaks plainly about its database (issue 13 item 14, issue 8's fast
// CLI): --version; each command imports only what it uses (recorded module by module); account
// commands say which database they opened; the commands that only read or change what exists
// never create an empty SQLite file, and say where they looked and how to point them elsewhere.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli as run } from '../helpers/cli.js';
import { postgresDialect } from '../helpers/db.js';

const recorder = fileURLToPath(new URL('../helpers/module-recorder.mjs', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrade-cli-start-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The modules a command loaded (URLs), from the recorder preload. */
async function modulesOf(args: string[], env: Record<string, string>, name: string) {
  const log = join(dir, `${name}.modules`);
  // the sources, so the recorder sees src/ paths whether or not dist/ is current
  const r = await run(
    args,
    { ...env, PAGEGRADE_FROM_SOURCE: '1', PAGEGRADE_MODULE_LOG: log },
    { nodeArgs: ['--import', recorder] },
  );
  const loaded = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { r, loaded };
}

test('--version prints the package version', async () => {
  const r = await run(['--version']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), pkg.version);
});

describe('commands import only what they use', () => {
  test('--help loads neither the store nor the analyzer', { timeout: 120_000 }, async () => {
    const { r, loaded } = await modulesOf(['--help'], {}, 'help');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      loaded.some((u) => u.includes('/src/cli/index.ts')),
      'the recorder saw the CLI load',
    );
    const heavy = loaded.filter((u) =>
      /\/node_modules\/(kysely|better-sqlite3|pg|typebox|undici|htmlparser2)\//.test(u),
    );
    assert.deepEqual(heavy, []);
    assert.deepEqual(
      loaded.filter((u) => /\/src\/(store\/database\.ts|services|analyzer\/(?!types\.ts))/.test(u)),
      [],
    );
  });

  test(
    'keys list loads the store and the account services, not the analyzer',
    { timeout: 120_000 },
    async () => {
      const env = { DATABASE_URL: `sqlite:${join(dir, 'keys.db')}` };
      assert.equal((await run(['users', 'create', 'lister'], env)).code, 0);
      const { r, loaded } = await modulesOf(['keys', 'list'], env, 'keys');
      assert.equal(r.code, 0, r.stderr);
      assert.ok(loaded.some((u) => u.includes('/src/store/database.ts')));
      assert.ok(loaded.some((u) => u.includes('/src/services/accounts/accounts.service.ts')));
      const analyzer = loaded.filter((u) => /\/src\/analyzer\/(?!types\.ts)/.test(u));
      assert.deepEqual(analyzer, [], 'no analyzer module beyond its constants');
      const heavy = loaded.filter((u) =>
        /\/node_modules\/(typebox|undici|htmlparser2|fastify|bullmq|ioredis)\//.test(u),
      );
      assert.deepEqual(heavy, []);
      assert.deepEqual(
        loaded.filter((u) => /\/src\/(http|pages|jobs)\//.test(u)),
        [],
      );
    },
  );
});

describe('account commands and their database', () => {
  test('users create and users list name the SQLite file they opened', { timeout: 120_000 }, async () => {
    const file = join(dir, 'accounts.db');
    const env = { DATABASE_URL: `sqlite:${file}` };
    const created = await run(['users', 'create', 'ana'], env);
    assert.equal(created.code, 0, created.stderr);
    assert.match(
      created.stderr,
      new RegExp(`^Using the SQLite database ${file.replace(/[.]/g, '\\.')}\\.$`, 'm'),
    );
    assert.equal((await run(['users', 'create', 'ben'], env)).code, 0);
    assert.equal((await run(['keys', 'create', 'ben'], env)).code, 0);

    const text = await run(['users', 'list'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stderr, /Using the SQLite database .*accounts\.db/);
    const lines = text.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+NAME\s+CREATED\s+ACTIVE KEYS$/);
    assert.match(lines[1]!, /^1\s+ana\s+\S+Z\s+1$/);
    assert.match(lines[2]!, /^2\s+ben\s+\S+Z\s+2$/);

    const json = await run(['users', 'list', '--json'], env);
    const users = JSON.parse(json.stdout) as { name: string; active_keys: number }[];
    assert.deepEqual(
      users.map((u) => [u.name, u.active_keys]),
      [
        ['ana', 1],
        ['ben', 2],
      ],
    );
  });

  test('keys list, keys revoke and users list never create a database', { timeout: 120_000 }, async () => {
    const file = join(dir, 'nowhere', 'pagegrade.db');
    const env = { DATABASE_URL: `sqlite:${file}` };
    for (const args of [
      ['keys', 'list'],
      ['keys', 'revoke', '1'],
      ['users', 'list'],
    ]) {
      const r = await run(args, env);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}`);
      assert.ok(r.stderr.includes(`no database at ${file}`), r.stderr);
      assert.match(r.stderr, /DATABASE_URL=sqlite:/, 'says how to point it at the service database');
      assert.equal(existsSync(file), false, `${args.join(' ')} created ${file}`);
      assert.equal(existsSync(join(dir, 'nowhere')), false, `${args.join(' ')} created the directory`);
    }
  });

  test(
    'on PostgreSQL the message names the database, host and user',
    { skip: postgresDialect.skip, timeout: 120_000 },
    async () => {
      const setup = await postgresDialect.setup();
      try {
        const r = await run(['users', 'list'], { DATABASE_URL: setup.databaseUrl });
        assert.equal(r.code, 0, r.stderr);
        const u = new URL(setup.databaseUrl);
        assert.match(
          r.stderr,
          new RegExp(`^Using the PostgreSQL database ${u.pathname.slice(1)} on ${u.hostname}:`, 'm'),
        );
        assert.doesNotMatch(r.stderr, /:[^@/\s]+@/, 'no password');
      } finally {
        await setup.cleanup();
      }
    },
  );
});
