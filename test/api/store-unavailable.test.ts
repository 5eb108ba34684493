// PostgreSQL going away under a request (a restart, an administrator ending the session): the
// request gets a clear 503 with Retry-After, never a 500 with a stack, and the next request is
// served again without a restart of the service. Real PostgreSQL: an in-flight list request's
// session is ended by pg_terminate_backend while it waits in the database (the cluster test,
// test/cluster, restarts the whole server). The errors pg gives for a refused connection and an
// ended session are recognised as the store being away; a real SQL error is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import { buildTestApp } from '../helpers/app.js';
import { postgresDialect } from '../helpers/db.js';
import { freePort } from '../helpers/service-process.js';
import {
  ADMIN_POSTGRES_URL,
  POSTGRES_UNAVAILABLE,
  REQUIRE_POSTGRES,
  skipUnlessRequired,
  withPg,
} from '../helpers/services.js';
import { isStoreUnavailable } from '../../src/web/errors.js';

test('PostgreSQL: a request whose session is ended mid-query answers 503 with Retry-After; the next is served', async (t) => {
  if (skipUnlessRequired(t, POSTGRES_UNAVAILABLE, REQUIRE_POSTGRES)) return;
  let slow = false;
  const h = await buildTestApp(postgresDialect, {
    wrapServices: (s) => ({
      ...s,
      reports: {
        ...s.reports,
        // the request waits in the database (pg_sleep) before it lists (the API's list: its
        // kept answer, listAnswer), when the test asks
        listAnswer: async (...args: Parameters<typeof s.reports.listAnswer>) => {
          if (slow) await sql`SELECT pg_sleep(5), 'store-unavailable-test'`.execute(h.database.db);
          return s.reports.listAnswer(...args);
        },
      },
    }),
  });
  try {
    const { key: created } = await h.services.users.create('restart-watcher');
    const key = created.key;
    const get = () =>
      h.request({ method: 'GET', url: '/api/v1/reports', headers: { authorization: `Bearer ${key}` } });
    assert.equal((await get()).statusCode, 200);

    slow = true;
    const inFlight = get();
    // end the session that runs the request's query, as a shutdown of the server does
    const database = new URL(h.database.databaseUrl).pathname.slice(1);
    let ended = 0;
    for (let i = 0; i < 100 && ended === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      ended = await withPg(ADMIN_POSTGRES_URL, async (c) => {
        const r = await c.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = $1 AND query LIKE '%store-unavailable-test%' AND pid <> pg_backend_pid()`,
          [database],
        );
        return r.rowCount ?? 0;
      });
    }
    assert.equal(ended, 1, 'the request was found waiting in the database');
    const res = await inFlight;
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers['retry-after'], '5');
    assert.deepEqual(JSON.parse(res.body), {
      message: 'The service cannot reach its database right now; try again in a few seconds.',
    });
    assert.doesNotMatch(res.body, /at |stack|terminat/i, 'no stack, no driver message');

    slow = false;
    // the pool drops the ended connection when it reports its error; a request that picked it
    // up just before may still get the 503 — recovery, without a restart, within a few requests
    let again = await get();
    for (let i = 0; i < 4 && again.statusCode === 503; i++) {
      await new Promise((r) => setTimeout(r, 250));
      again = await get();
    }
    assert.equal(again.statusCode, 200, 'served again without a restart');
  } finally {
    await h.close();
  }
});

test('the errors of a refused connection and an ended session mean "unavailable"; a SQL error does not', async (t) => {
  if (skipUnlessRequired(t, POSTGRES_UNAVAILABLE, REQUIRE_POSTGRES)) return;
  // nothing listens on this port
  const port = await freePort();
  const refused = await new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'x' }).connect().then(
    () => null,
    (err: unknown) => err,
  );
  assert.equal((refused as { code?: string }).code, 'ECONNREFUSED');
  assert.ok(isStoreUnavailable(refused));

  // a session ended by the server (57P01, as at a shutdown)
  const c = new pg.Client({ connectionString: ADMIN_POSTGRES_URL });
  c.on('error', () => {});
  await c.connect();
  const ended = await c.query('SELECT pg_terminate_backend(pg_backend_pid())').then(
    () => null,
    (err: unknown) => err,
  );
  assert.ok(isStoreUnavailable(ended), String(ended));
  const after = await c.query('SELECT 1').then(
    () => null,
    (err: unknown) => err,
  );
  assert.ok(isStoreUnavailable(after), `the ended client's next query: ${String(after)}`);
  await c.end().catch(() => {});

  const syntax = await withPg(ADMIN_POSTGRES_URL, (db) =>
    db.query('SELEC 1').then(
      () => null,
      (err: unknown) => err,
    ),
  );
  assert.equal((syntax as { code?: string }).code, '42601');
  assert.equal(isStoreUnavailable(syntax), false);
  assert.equal(isStoreUnavailable(new Error('boom')), false);
});
