// Migrations on a fresh database of every dialect: three processes migrating at once apply
// each migration exactly once; running again is a no-op.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { createDb, migrate, sqlitePath } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { dialects } from '../helpers/db.js';

const databaseModule = fileURLToPath(new URL('../../src/store/database.ts', import.meta.url));

/** Runs migrate() in a separate Node process (a second SQLite connection in this process would
 * block the event loop in better-sqlite3's busy wait, as no real deployment does). */
function migrateInChild(databaseUrl: string): Promise<{ code: number | null; stderr: string }> {
  const code = `import { createDb, migrate } from ${JSON.stringify(pathToFileURL(databaseModule).href)};
const h = createDb(${JSON.stringify(databaseUrl)});
try { await migrate(h.db); } finally { await h.close(); }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, stderr }));
  });
}

for (const dialect of dialects) {
  describe(`migrations [${dialect.name}]`, { skip: dialect.skip }, () => {
    test('concurrent first migrations (three processes) apply once', { timeout: 120_000 }, async () => {
      const setup = await dialect.setup();
      const a = createDb(setup.databaseUrl);
      const b = createDb(setup.databaseUrl);
      try {
        const runs = await Promise.all([1, 2, 3].map(() => migrateInChild(setup.databaseUrl)));
        for (const r of runs) assert.equal(r.code, 0, r.stderr);
        await migrate(a.db);
        await migrate(b.db);
        const rows = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(
          a.db,
        );
        assert.deepEqual(
          rows.rows.map((r) => r.name),
          Object.keys(migrations).sort(),
        );
        for (const table of [
          'organizations',
          'users',
          'memberships',
          'api_keys',
          'reports',
          'report_runs',
          'projects',
          'settings',
        ] as const) {
          await a.db.selectFrom(table).selectAll().limit(1).execute();
        }
      } finally {
        await a.close();
        await b.close();
        await setup.cleanup();
      }
    });
  });
}

test('sqlite: the directory of the database file is created; pragmas set', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-dir-'));
  try {
    const file = join(dir, 'nested', 'deeper', 'pagegrade.db');
    const h = createDb(`sqlite:${file}`);
    await migrate(h.db);
    assert.ok(existsSync(file));
    const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(h.db);
    assert.equal(mode.rows[0]?.journal_mode, 'wal');
    const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(h.db);
    assert.equal(fk.rows[0]?.foreign_keys, 1);
    const busy = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(h.db);
    assert.equal(busy.rows[0]?.timeout, 5000);
    await h.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(sqlitePath('sqlite:./data/pagegrade.db'), './data/pagegrade.db');
  assert.equal(sqlitePath('sqlite:///var/lib/x.db'), '/var/lib/x.db');
  assert.equal(sqlitePath('sqlite::memory:'), ':memory:');
  assert.throws(() => createDb('mysql://x'));
});
