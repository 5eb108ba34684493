// PostgreSQL through Kysely: createDb hands Kysely a pool whose clients query through pg's
// callback API (src/store/pg-pool.ts). The results and errors are pg's; and the rows of a
// chunked read do not pile up on the heap — through pg's promise API each chunk's rows survived
// the young generation's collections and stayed as old-generation garbage until a full
// collection (about as many megabytes of heap as the rows read). Real PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createDb } from '../../src/store/database.js';
import {
  createTempDatabase,
  POSTGRES_UNAVAILABLE,
  REQUIRE_POSTGRES,
  skipUnlessRequired,
} from '../helpers/services.js';

test('PostgreSQL through Kysely: rows, an error with its SQLSTATE and the caller in its stack, a transaction', async (t) => {
  if (skipUnlessRequired(t, POSTGRES_UNAVAILABLE, REQUIRE_POSTGRES)) return;
  const temp = await createTempDatabase();
  const h = createDb(temp.url);
  try {
    await sql`CREATE TABLE t (id int PRIMARY KEY, s text)`.execute(h.db);
    await sql`INSERT INTO t VALUES (1, 'one'), (2, 'two')`.execute(h.db);
    const r = await sql<{ id: number; s: string }>`SELECT id, s FROM t WHERE id > ${0} ORDER BY id`.execute(
      h.db,
    );
    assert.deepEqual(r.rows, [
      { id: 1, s: 'one' },
      { id: 2, s: 'two' },
    ]);
    const err = await sql`INSERT INTO t VALUES (1, 'again')`.execute(h.db).then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    assert.ok(err instanceof Error, 'a duplicate key rejects');
    assert.equal(err.code, '23505');
    assert.match(err.stack ?? '', /pg-pool\.test\.ts/, "the stack leads back to the query's caller");
    // a transaction rolled back by its error: nothing of it stays
    await assert.rejects(
      h.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t VALUES (3, 'three')`.execute(trx);
        await sql`INSERT INTO t VALUES (3, 'three again')`.execute(trx);
      }),
      (e: { code?: string }) => e.code === '23505',
    );
    const n = await sql<{ n: string }>`SELECT count(*) AS n FROM t`.execute(h.db);
    assert.equal(Number(n.rows[0]!.n), 2);
  } finally {
    await h.close();
    await temp.drop();
  }
});

test('PostgreSQL through Kysely: 40,000 rows of 1 kB read in chunks leave far less garbage on the heap than the bytes read', async (t) => {
  if (skipUnlessRequired(t, POSTGRES_UNAVAILABLE, REQUIRE_POSTGRES)) return;
  const temp = await createTempDatabase();
  const h = createDb(temp.url);
  try {
    const N = 40_000;
    await sql`CREATE TABLE t (url text PRIMARY KEY, a text, b text)`.execute(h.db);
    await sql`INSERT INTO t SELECT 'https://example.com/p/' || lpad(i::text, 6, '0'), repeat('a', 700) || i, repeat('b', 300) || i
      FROM generate_series(1, ${N}) i`.execute(h.db);
    // a process that already holds some heap (as the API's does): V8 lets the old generation
    // grow in proportion, so garbage promoted there stays until the read is over
    const held = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `held ${i}` }));
    const idle = process.memoryUsage().heapUsed;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    let rows = 0;
    let bytes = 0;
    try {
      for (let after = ''; ;) {
        const chunk = await sql<{ url: string; a: string; b: string }>`
          SELECT url, a, b FROM t WHERE url > ${after} ORDER BY url LIMIT 1000`.execute(h.db);
        if (chunk.rows.length === 0) break;
        for (const r of chunk.rows) bytes += r.url.length + r.a.length + r.b.length;
        rows += chunk.rows.length;
        after = chunk.rows[chunk.rows.length - 1]!.url;
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
    } finally {
      clearInterval(sampler);
    }
    assert.equal(rows, N);
    assert.equal(held.length, 300_000);
    const grew = peak - idle;
    t.diagnostic(
      `heap peak +${(grew / 1048576).toFixed(1)} MB for ${(bytes / 1048576).toFixed(1)} MB of rows read`,
    );
    // through pg's promise API: most of the bytes read (measured +35.5 MB for these 39.6 MB)
    assert.ok(
      grew < bytes * 0.5,
      `heap peak +${(grew / 1048576).toFixed(1)} MB for ${(bytes / 1048576).toFixed(1)} MB of rows read`,
    );
  } finally {
    await h.close();
    await temp.drop();
  }
});
