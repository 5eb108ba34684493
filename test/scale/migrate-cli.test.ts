// `pagegrade migrate` run by three processes at once on a fresh PostgreSQL database: all
// succeed, each migration is recorded once; and on a fresh SQLite file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations } from '../../src/store/migrations/index.js';
import { ROOT } from '../helpers/service-process.js';
import { createTempDatabase, postgresUnavailable, skipUnlessRequired, withPg } from '../helpers/services.js';

function run(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/pagegrade.js', 'migrate'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const reason = await postgresUnavailable();

test('pagegrade migrate: three processes at once on a fresh PostgreSQL database', async (t) => {
  if (skipUnlessRequired(t, reason, 'PAGEGRADE_REQUIRE_POSTGRES')) return;
  const database = await createTempDatabase('pagegrade_migrate_cli');
  try {
    const results = await Promise.all([1, 2, 3].map(() => run({ DATABASE_URL: database.url })));
    for (const r of results) {
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /The PostgreSQL database .*is up to date\./);
    }
    await withPg(database.url, async (c) => {
      const rows = (await c.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows;
      assert.deepEqual(
        rows.map((r) => r.name),
        Object.keys(migrations).sort(),
      );
    });
  } finally {
    await database.drop();
  }
});

test('pagegrade migrate on a fresh SQLite file, and a bad DATABASE_URL exits 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-migrate-'));
  try {
    const ok = await run({ DATABASE_URL: `sqlite:${join(dir, 'x.db')}` });
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /The SQLite database .*is up to date\./);
    const bad = await run({ DATABASE_URL: 'mysql://nope' });
    assert.equal(bad.code, 2, bad.out);
    assert.match(bad.out, /DATABASE_URL/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
