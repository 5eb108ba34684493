// `pagegrade users create --email --password-stdin`, `users reset-link`, `users admin`,
// `users disable|enable`, `users reset-2fa` and `instance signup` run as real processes
// (docs/teams.md "Signing in"), on a temp SQLite file and a fresh PostgreSQL database; what they
// did is asked of the services over the same database (the password signs in, the link is a
// working one, the key of a disabled person stops).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli as run } from '../helpers/cli.js';
import { createServices } from '../../src/services/index.js';
import { createDb, type DatabaseHandle } from '../../src/store/database.js';
import { dialects, type DialectSetup } from '../helpers/db.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const bin = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));

/** the command with `input` on its standard input */
function runWithInput(args: string[], env: Record<string, string>, input: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

for (const dialect of dialects) {
  describe(`pagegrade users (signing in) [${dialect.name}]`, { skip: dialect.skip }, () => {
    let setup: DialectSetup;
    let env: Record<string, string>;
    let handle: DatabaseHandle;
    before(async () => {
      setup = await dialect.setup();
      env = { DATABASE_URL: setup.databaseUrl, PAGEGRADE_PUBLIC_URL: 'https://pagegrade.example' };
    });
    after(async () => {
      await handle?.close();
      await setup?.cleanup();
    });

    test('create with an email and a password from stdin; reset-link; admin; disable; signup mode', async () => {
      const made = await runWithInput(
        ['users', 'create', 'anna', '--email', 'Anna@Example.com', '--password-stdin'],
        env,
        'anna-cli-password\n',
      );
      assert.equal(made.code, 0, made.stderr);
      assert.ok(!made.stdout.includes('anna-cli-password') && !made.stderr.includes('anna-cli-password'));
      const short = await runWithInput(
        ['users', 'create', 'bob', '--email', 'bob@example.com', '--password-stdin'],
        env,
        'short\n',
      );
      assert.equal(short.code, 2);
      assert.match(short.stderr, /8 to 256 characters/);
      assert.equal((await run(['users', 'create', 'bob', '--email', 'not-an-email'], env)).code, 2);
      const bob = await run(['users', 'create', 'bob', '--email', 'bob@example.com'], env);
      assert.equal(bob.code, 0, bob.stderr);
      const bobKey = bob.stdout.trimEnd().split('\n').at(-1)!;

      handle = createDb(setup.databaseUrl);
      const services = createServices({
        db: handle.db,
        analyze: testAnalyze,
        config: testServicesConfig({ publicUrl: 'https://pagegrade.example' }),
        queue: embeddedQueue(handle.db),
      });
      const signed = await services.signin.withPassword('anna@example.com', 'anna-cli-password');
      assert.equal(signed.ok, true);

      const link = await run(['users', 'reset-link', 'anna@example.com'], env);
      assert.equal(link.code, 0, link.stderr);
      const url = /https:\/\/pagegrade\.example\/reset-password\/([\w-]{43})/.exec(link.stdout);
      assert.ok(url, link.stdout);
      assert.equal(await services.signin.checkReset(url[1]!), 'ok');
      assert.equal((await run(['users', 'reset-link', 'nobody@example.com'], env)).code, 2);

      // the first person is the admin; never the last one unmade
      assert.equal((await run(['users', 'admin', 'anna', '--off'], env)).code, 2);
      const on = await run(['users', 'admin', 'bob', '--on'], env);
      assert.equal(on.code, 0, on.stderr);
      assert.match(on.stdout, /bob is now an instance admin/);

      assert.ok(await services.auth.authenticate(bobKey));
      const off = await run(['users', 'disable', 'bob@example.com'], env);
      assert.equal(off.code, 0, off.stderr);
      assert.equal(await services.auth.authenticate(bobKey), null);
      assert.equal((await run(['users', 'enable', 'bob'], env)).code, 0);
      assert.ok(await services.auth.authenticate(bobKey));
      assert.equal((await run(['users', 'reset-2fa', 'bob'], env)).code, 0);

      assert.equal((await run(['instance', 'signup'], env)).stdout.trim(), 'closed');
      const bad = await run(['instance', 'signup', 'wide'], env);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /closed, invite, open/);
      assert.equal((await run(['instance', 'signup', 'open'], env)).code, 0);
      assert.equal(await services.signin.signupMode(), 'open');
    });
  });
}
