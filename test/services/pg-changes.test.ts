// The change bus on PostgreSQL's LISTEN/NOTIFY (src/store/pg-changes.ts), for PostgreSQL without
// Redis: two real processes on one fresh database (this one and test/services/fixtures/pg-bus-peer.ts, a
// child that builds the bus as `pagegrade worker` does). A change published in one is heard in
// the other well within the events stream's 2 s fallback; when the LISTEN connections are cut
// (pg_terminate_backend) they come back by themselves, wake their followers once (a change may
// have been missed) and hear again. The same bus in the service and a worker process, end to
// end: test/services/pg-changes-processes.test.ts.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { createDb, type DatabaseHandle } from '../../src/store/database.js';
import { createPgChangeBus, PG_CHANGES_APPLICATION, type PgChangeBus } from '../../src/store/pg-changes.js';
import { batchTopic } from '../../src/services/shared/changes.js';
import { postgresDialect } from '../helpers/db.js';
import { createTempDatabase, withPg, type TempDatabase } from '../helpers/services.js';
import { ROOT } from '../helpers/service-process.js';

/** the events stream's fallback: a push must beat it by far */
const FALLBACK_MS = 2_000;

const heard = (subscribe: (cb: () => void) => () => void, ms: number) =>
  new Promise<number | null>((resolve) => {
    const t0 = performance.now();
    const t = setTimeout(() => {
      off();
      resolve(null);
    }, ms);
    const off = subscribe(() => {
      clearTimeout(t);
      off();
      resolve(performance.now() - t0);
    });
  });

describe('change bus on PostgreSQL LISTEN/NOTIFY, two processes', { skip: postgresDialect.skip }, () => {
  let database: TempDatabase;
  let handle: DatabaseHandle;
  let bus: PgChangeBus;
  let peer: ChildProcess;
  let peerOut = '';

  before(async () => {
    database = await createTempDatabase();
    handle = createDb(database.url);
    bus = createPgChangeBus(database.url, handle.db);
    peer = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/services/fixtures/pg-bus-peer.ts', database.url],
      {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`the peer did not start:\n${peerOut}`)), 30_000);
      const onData = (d: Buffer) => {
        peerOut += d.toString();
        if (peerOut.includes('ready\n')) {
          clearTimeout(t);
          resolve();
        }
      };
      peer.stdout!.on('data', onData);
      peer.stderr!.on('data', onData);
      peer.once('exit', (code) => reject(new Error(`the peer exited (${code}):\n${peerOut}`)));
    });
    await bus.ready();
  });

  after(async () => {
    peer?.stdin?.end();
    if (peer && peer.exitCode === null)
      await new Promise((resolve) => {
        const t = setTimeout(() => peer.kill('SIGKILL'), 5_000);
        peer.once('exit', () => resolve(clearTimeout(t)));
      });
    await bus?.close();
    await handle?.close();
    await database?.drop();
  });

  const listeners = () =>
    withPg(database.url, async (c) => {
      const r = await c.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
        [PG_CHANGES_APPLICATION],
      );
      return r.rows.map((row) => row.pid).sort();
    });

  /** publishes `ping` until the peer's `pong` comes back; the round trip of the one heard (ms) */
  async function roundTrip(withinMs: number): Promise<number | null> {
    const deadline = performance.now() + withinMs;
    while (performance.now() < deadline) {
      const pong = heard((cb) => bus.subscribe('pong', cb), 500);
      bus.publish('ping');
      const ms = await pong;
      if (ms !== null) return ms;
    }
    return null;
  }

  test('a change published in one process is heard in the other, well within the 2 s fallback', async () => {
    // one dedicated LISTEN connection per process
    assert.equal((await listeners()).length, 2);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ms = await roundTrip(FALLBACK_MS);
      assert.notEqual(ms, null, 'the peer answered');
      times.push(ms!);
    }
    // a round trip is two crossings (here → peer → here): each well under the fallback
    assert.ok(Math.max(...times) < FALLBACK_MS / 4, `round trips: ${times.map(Math.round).join(', ')} ms`);
    // a topic nobody follows wakes nobody; the topic is the payload, matched exactly
    const other = heard((cb) => bus.subscribe(batchTopic(8), cb), 300);
    bus.publish(batchTopic(7));
    assert.equal(await other, null);
  });

  test('LISTEN connections cut by the server reconnect, wake their followers and hear again', async () => {
    const before = await listeners();
    // a follower here: woken once the connection is back (a change may have been missed)
    const woken = heard((cb) => bus.subscribe(batchTopic(42), cb), 5_000);
    await withPg(database.url, (c) =>
      c.query(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid`, [before]),
    );
    assert.notEqual(await woken, null, 'the follower was woken after the reconnection');
    // both processes listen again, on new connections, and a change crosses again
    const ms = await roundTrip(5_000);
    assert.notEqual(ms, null, 'heard again after the reconnection');
    assert.ok(ms! < FALLBACK_MS / 4, `round trip ${Math.round(ms!)} ms`);
    const after = await listeners();
    assert.equal(after.length, 2);
    assert.deepEqual(
      after.filter((p) => before.includes(p)),
      [],
      'new connections',
    );
  });

  test('a closed bus stops listening and does not reconnect', async () => {
    const own = createPgChangeBus(database.url, handle.db);
    await own.ready();
    assert.equal((await listeners()).length, 3);
    await own.close();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await listeners()).length, 2);
  });
});
