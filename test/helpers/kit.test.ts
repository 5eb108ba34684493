// The test kit itself: one place (every helper under test/helpers), buildTestApp on every
// dialect, the factories (a user whose key works through the API, a report stored from the
// canned audit without any fetch), openTestDb's databases copied from the migrated templates
// (each its own, every migration applied, empty).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrations } from '../../src/store/migrations/index.js';
import { buildTestApp, describeEachDialect, type TestApp } from './app.js';
import { dialects, openTestDb } from './db.js';
import { buildReport, buildUser, cannedAudit, CANNED_DATE } from './factories.js';

const TEST_DIR = fileURLToPath(new URL('..', import.meta.url));

test('the test kit is in one place: every file under test/ that is not a test is in test/helpers or a fixtures folder', () => {
  const outside: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      const rel = relative(TEST_DIR, full).split('\\').join('/');
      if (e.isDirectory()) {
        if (rel !== 'helpers' && e.name !== 'fixtures') walk(full);
      } else if (/\.(ts|mts|cts|mjs|cjs|js)$/.test(e.name) && !/\.(test|bench|cluster)\.ts$/.test(e.name)) {
        outside.push(rel);
      }
    }
  };
  walk(TEST_DIR);
  assert.deepEqual(
    outside,
    [],
    'helpers belong in test/helpers (processes and data a test starts: a fixtures/ folder)',
  );
});

describeEachDialect('test kit', (dialect) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(dialect);
  });
  after(() => t.close());

  test('buildUser: the key authenticates API requests', async () => {
    const u = await buildUser(t.services);
    const res = await t.request({ method: 'GET', url: '/api/v1/reports', headers: u.auth });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().meta.total, 0);
  });

  test('buildReport: stored from the canned audit, no request to any server', async () => {
    const u = await buildUser(t.services, 'carol');
    const before = t.fixture.requests.length;
    const r = await buildReport(t.services, u, { path: '/pricing', site: 'shop', privacy: 1 });
    assert.equal(t.fixture.requests.length, before);
    const canned = cannedAudit('http://shop.canned.test/pricing');
    assert.equal(r.url, 'http://shop.canned.test/pricing');
    assert.equal(r.project, 'shop.canned.test');
    assert.equal(r.privacy, 1);
    assert.equal(r.score, canned.score);
    assert.equal(r.result, canned.result);
    assert.equal(r.generatedAt, CANNED_DATE.toISOString());
    const res = await t.request({ method: 'GET', url: `/api/v1/reports/${r.id}`, headers: u.auth });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.score, canned.score);
  });
});

for (const dialect of dialects)
  describe(`openTestDb [${dialect.name}]: copies of the migrated template`, { skip: dialect.skip }, () => {
    test('each is a database of its own with every migration applied and nothing else', async () => {
      const [a, b] = [await openTestDb(dialect), await openTestDb(dialect)];
      try {
        assert.notEqual(a.databaseUrl, b.databaseUrl);
        const applied = await a.db
          .selectFrom('kysely_migration' as never)
          .select('name' as never)
          .orderBy('name' as never)
          .execute();
        assert.deepEqual(
          applied.map((r) => (r as { name: string }).name),
          Object.keys(migrations).sort(),
        );
        await a.db
          .insertInto('users')
          .values({ name: 'only-in-a', created_at: new Date().toISOString() })
          .execute();
        const inB = await b.db.selectFrom('users').select('name').execute();
        assert.deepEqual(inB, [], 'a write to one copy is not in another (nor in the template)');
        const fresh = await openTestDb(dialect);
        try {
          assert.deepEqual(await fresh.db.selectFrom('users').select('name').execute(), []);
        } finally {
          await fresh.cleanup();
        }
      } finally {
        await a.cleanup();
        await b.cleanup();
      }
    });
  });
