// A process cut off from PostgreSQL in the middle of a transaction must not hold its row locks
// for ever (the cluster test's cut-off host stalled a whole crawl on its batch row): the pool's
// sessions carry idle_in_transaction_session_timeout (30 s, or as the URL sets it), so PostgreSQL
// ends such a session and the others go on. Real PostgreSQL; a transaction left open on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createDb, PG_IDLE_IN_TRANSACTION_MS } from '../../src/store/database.js';
import {
  createTempDatabase,
  POSTGRES_UNAVAILABLE,
  REQUIRE_POSTGRES,
  skipUnlessRequired,
} from '../helpers/services.js';

test('PostgreSQL: a session idle in its transaction is ended after the timeout and its locks freed', async (t) => {
  if (skipUnlessRequired(t, POSTGRES_UNAVAILABLE, REQUIRE_POSTGRES)) return;
  const temp = await createTempDatabase();
  const plain = createDb(temp.url);
  const url = new URL(temp.url);
  url.searchParams.set('idle_in_transaction_session_timeout', '500');
  const short = createDb(url.toString());
  try {
    const shown = await sql<{
      v: string;
    }>`SELECT current_setting('idle_in_transaction_session_timeout') AS v`.execute(plain.db);
    assert.equal(shown.rows[0]!.v, `${PG_IDLE_IN_TRANSACTION_MS / 1000}s`, 'the default is on every session');
    await sql`CREATE TABLE t (id int PRIMARY KEY, n int)`.execute(plain.db);
    await sql`INSERT INTO t VALUES (1, 0)`.execute(plain.db);

    // a transaction that takes the row's lock and then never comes back (a lost host)
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    const held = short.db
      .transaction()
      .execute(async (trx) => {
        await sql`SELECT n FROM t WHERE id = 1 FOR UPDATE`.execute(trx);
        await stuck;
        await sql`UPDATE t SET n = n + 100 WHERE id = 1`.execute(trx);
      })
      .then(
        () => 'committed',
        (err: Error) => err.message,
      );
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    // another process's update of the row waits for the lock, then gets it once the session is ended
    await sql`UPDATE t SET n = n + 1 WHERE id = 1`.execute(plain.db);
    const waited = Date.now() - started;
    assert.ok(waited >= 300 && waited < 5000, `the lock was freed after ${waited} ms`);
    release();
    const outcome = await held;
    assert.match(
      outcome,
      /idle-in-transaction timeout|terminat|connection error/i,
      'the stuck transaction failed',
    );
    const rows = await sql<{ n: number }>`SELECT n FROM t WHERE id = 1`.execute(plain.db);
    assert.equal(rows.rows[0]!.n, 1, 'the stuck transaction did not commit');
    // the pool goes on with a fresh session
    const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(short.db);
    assert.equal(again.rows[0]!.one, 1);
  } finally {
    await short.close();
    await plain.close();
    await temp.drop();
  }
});
