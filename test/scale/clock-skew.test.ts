// A host whose clock is 5 minutes ahead (issue 24 §1 "Clock skew"): two real service processes
// on one PostgreSQL database with the embedded job engine (its leases are rows of the jobs
// table), the second run under faketime +5 minutes. Leases, schedule claims and a crawl's
// timing are read from the shared clock (src/timers.ts sharedNow: this host's clock corrected
// by the offset measured against PostgreSQL, src/store/db-clock.ts), so the skewed host
//   - says in its log how far off its clock is;
//   - does not take the other host's leased page as expired (the page is fetched once);
//   - does not claim a schedule before its time, and a due one runs once.
// Without the shared clock, the skewed host takes over the page at its first poll and claims
// the schedule 5 minutes early (checked by hand against the code before the change).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { databaseClockOffset } from '../../src/store/db-clock.js';
import { createDb } from '../../src/store/database.js';
import { waitFor } from '../helpers/queues.js';
import { api, startService, type ServiceProcess } from '../helpers/service-process.js';
import {
  REQUIRE_POSTGRES,
  createTempDatabase,
  postgresUnavailable,
  randomId,
  skipUnlessRequired,
  withPg,
  type TempDatabase,
} from '../helpers/services.js';

/** libfaketime, preloaded into the skewed host's node (the faketime command forks: a signal to it would not reach node) */
const LIBFAKETIME =
  [
    '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
    '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
    '/usr/lib/faketime/libfaketime.so.1',
  ].find((p) => existsSync(p)) ?? null;
const KEY = `pg_${randomId()}${randomId()}${randomId()}`;
/** how long the slow page takes to answer: the first host holds its lease all that time */
const SLOW_MS = 6000;

/** the database's clock + `s` seconds (schedules.next_run_at is a timestamptz on PostgreSQL) */
const dbTimeIn = (s: number) => `clock_timestamp() + interval '${s} seconds'`;

describe('a host whose clock is 5 minutes ahead (PostgreSQL, embedded engine)', () => {
  let db: TempDatabase | null = null;
  let site: Server | null = null;
  const hits = new Map<string, number>();
  const services: ServiceProcess[] = [];
  after(async () => {
    for (const s of services) await s.stop(5000);
    await new Promise((r) => (site ? site.close(r) : r(null)));
    await db?.drop();
  });

  test('the offset to the database is measured (PostgreSQL), none on SQLite', async (t) => {
    if (skipUnlessRequired(t, await postgresUnavailable(), REQUIRE_POSTGRES)) return;
    db ??= await createTempDatabase('pagegrade_clock');
    const pgHandle = createDb(db.url);
    const sqlite = createDb('sqlite::memory:');
    try {
      const offset = await databaseClockOffset(pgHandle.db, 'postgres');
      // the same machine: the two clocks agree within the measurement's own error
      assert.ok(offset !== null && Math.abs(offset) < 1000, String(offset));
      assert.equal(await databaseClockOffset(sqlite.db, 'sqlite'), null);
    } finally {
      await pgHandle.close();
      await sqlite.close();
    }
  });

  test('leases and schedules hold on the database clock', { timeout: 180_000 }, async (t) => {
    if (skipUnlessRequired(t, await postgresUnavailable(), REQUIRE_POSTGRES)) return;
    if (
      skipUnlessRequired(
        t,
        LIBFAKETIME ? null : 'libfaketime is not installed (apt-get install -y faketime)',
        'PAGEGRADE_REQUIRE_FAKETIME',
      )
    )
      return;
    db ??= await createTempDatabase('pagegrade_clock');
    // a site whose /slow page answers after SLOW_MS; every request counted by path
    site = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const page = `<!doctype html><html lang="en"><head><title>${path}</title></head><body><h1>${path}</h1></body></html>`;
      if (path === '/slow' || path === '/fast') {
        setTimeout(
          () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
          path === '/slow' ? SLOW_MS : 0,
        );
      } else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((r) => site!.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const env = {
      DATABASE_URL: db.url,
      PAGEGRADE_QUEUE: 'embedded',
      PAGEGRADE_BOOTSTRAP_KEY: KEY,
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_JOB_POLL_MS: '200',
      PAGEGRADE_SCHEDULER_TICK_MS: '200',
      PAGEGRADE_CRAWL_DELAY_MS: '0',
      PAGEGRADE_RATE_LIMIT: '0',
    };

    // host A, on time, starts a crawl and is fetching the slow page (its job leased)
    const a = await startService(env, 90_000);
    services.push(a);
    const made = await fetch(`${a.origin}/api/v1/batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${origin}/slow`, mode: 'crawl', max_pages: 1 }),
    });
    assert.equal(made.status, 202, await made.clone().text());
    const batchId = ((await made.json()) as { data: { id: number } }).data.id;
    await waitFor(() => (hits.get('/slow') ?? 0) >= 1, 'host A fetching the slow page', 30_000);

    // host B, 5 minutes ahead, joins while A holds the page
    const b = await startService(
      { ...env, LD_PRELOAD: LIBFAKETIME!, FAKETIME: '+5m', FAKETIME_DONT_FAKE_MONOTONIC: '1' },
      90_000,
    );
    services.push(b);
    const skewed = await api(b.origin, KEY, 'GET', '/healthz');
    assert.equal(skewed.status, 200);
    assert.match(b.output(), /this host's clock is 3\d\d\.\d s ahead of the database's/, b.output());

    await waitFor(
      async () => {
        const r = await api(a.origin, KEY, 'GET', `/api/v1/batches/${batchId}`);
        return r.body.data.status !== 'queued' && r.body.data.status !== 'running';
      },
      'the crawl ends',
      60_000,
    );
    const batch = (await api(a.origin, KEY, 'GET', `/api/v1/batches/${batchId}`)).body.data;
    assert.equal(batch.status, 'done', JSON.stringify(batch));
    assert.equal(batch.progress.audited, 1);
    assert.equal(hits.get('/slow'), 1, 'the skewed host did not take the leased page over');

    // a report with a schedule due in 60 s by the database's clock (4 minutes ago by B's)
    const report = await fetch(`${a.origin}/api/v1/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${origin}/fast` }),
    });
    assert.equal(report.status, 201, await report.clone().text());
    const reportId = ((await report.json()) as { data: { id: number } }).data.id;
    const scheduled = await fetch(`${a.origin}/api/v1/reports/${reportId}/schedule`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ every: 'hourly' }),
    });
    assert.ok([200, 201].includes(scheduled.status), await scheduled.text());
    const fastBefore = hits.get('/fast') ?? 0;
    await withPg(db.url, (c) =>
      c.query(`update schedules set next_run_at = ${dbTimeIn(60)} where report_id = $1`, [reportId]),
    );
    // both hosts' schedulers tick every 200 ms: 4 s is 20 ticks each
    await new Promise((r) => setTimeout(r, 4000));
    const early = await withPg(db.url, (c) =>
      c.query('select claimed_slot from schedules where report_id = $1', [reportId]),
    );
    assert.equal(early.rows[0].claimed_slot, null, 'not claimed before its time');
    assert.equal(hits.get('/fast') ?? 0, fastBefore, 'no early re-audit');

    // due now by the database's clock: it runs once, whichever host claims it
    await withPg(db.url, (c) =>
      c.query(`update schedules set next_run_at = ${dbTimeIn(-1)} where report_id = $1`, [reportId]),
    );
    await waitFor(() => (hits.get('/fast') ?? 0) > fastBefore, 'the scheduled re-audit', 30_000);
    await new Promise((r) => setTimeout(r, 3000));
    const history = await api(a.origin, KEY, 'GET', `/api/v1/reports/${reportId}/runs`);
    assert.equal(history.status, 200);
    assert.equal(history.body.meta.total, 2, 'one scheduled run, not two');
  });
});
