// Schedules across real service processes (the service, `serverArgs()`, with its workers
// and the scheduler, a 200 ms tick), a fixture site on 127.0.0.1 that counts the requests per
// page (PAGEGRADE_ALLOW_PRIVATE_HOSTS=1: not a guard test).
// - two processes on PostgreSQL + Redis (BullMQ): each scheduled run executes exactly once;
// - kill -9 of the service with due schedules claimed and queued (SQLite): they run after the
//   restart, once each.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../../src/store/database.js';
import { goodPage, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { waitFor } from '../helpers/queues.js';
import { hourlyFarFromNow } from '../helpers/schedules.js';
import { api, startService, type ServiceProcess } from '../helpers/service-process.js';
import {
  REQUIRE_POSTGRES,
  REQUIRE_REDIS,
  REDIS_URL,
  clearRedisPrefix,
  createTempDatabase,
  postgresUnavailable,
  randomId,
  redisUnavailable,
  skipUnlessRequired,
  type TempDatabase,
} from '../helpers/services.js';

const KEY = `pg_${randomId()}${randomId()}${randomId()}`;

/** the kit's poller (test/helpers/queues.ts), with the reason first as these tests read best */
const waitUntil = (what: string, ok: () => boolean | Promise<boolean>, timeoutMs: number) =>
  waitFor(ok, what, timeoutMs);

/** A site whose pages answer after 50 ms; `hits(i)` counts the requests for page i. */
function countingSite(site: FixtureServer, n: number) {
  for (let i = 0; i < n; i++) {
    site.route(`/page-${i}`, (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(goodPage(site.origin));
      }, 50);
    });
  }
  return (i: number) => site.requests.filter((p) => p === `/page-${i}`).length;
}

/** N reports, each with an hourly schedule (its next run half an hour away). */
async function scheduleAll(origin: string, site: FixtureServer, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api(origin, KEY, 'POST', '/api/v1/reports', { url: `${site.origin}/page-${i}` });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids.push(res.body.data.id);
    const s = await api(origin, KEY, 'PUT', `/api/v1/reports/${res.body.data.id}/schedule`, {
      every: hourlyFarFromNow(),
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
  }
  return ids;
}

/** Makes every schedule due now (as after downtime), straight in the database. */
async function makeAllDue(databaseUrl: string): Promise<void> {
  const handle = createDb(databaseUrl);
  try {
    await handle.db
      .updateTable('schedules')
      .set({ next_run_at: new Date(Date.now() - 2 * 3600_000).toISOString() })
      .execute();
  } finally {
    await handle.close();
  }
}

describe('schedules: two processes on PostgreSQL + Redis', () => {
  let db: TempDatabase | null = null;
  let prefix = '';
  let site: FixtureServer | null = null;
  const services: ServiceProcess[] = [];
  after(async () => {
    for (const s of services) await s.stop(5000);
    await site?.close();
    await db?.drop();
    if (prefix) await clearRedisPrefix(prefix);
  });

  test('each scheduled run executes exactly once', async (t) => {
    if (skipUnlessRequired(t, await postgresUnavailable(), REQUIRE_POSTGRES)) return;
    if (skipUnlessRequired(t, await redisUnavailable(), REQUIRE_REDIS)) return;
    db = await createTempDatabase('pagegrade_schedules');
    prefix = `pagegrade-test-${randomId()}:`;
    site = await startFixtureServer();
    const N = 30;
    const hits = countingSite(site, N);
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      PAGEGRADE_REDIS_PREFIX: prefix,
      PAGEGRADE_BOOTSTRAP_KEY: KEY,
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_SCHEDULER_TICK_MS: '200',
      PAGEGRADE_RATE_LIMIT: '0',
      PAGEGRADE_JOB_POLL_MS: '200',
    };
    const [a, b] = await Promise.all([startService(env, 90_000), startService(env, 90_000)]);
    services.push(a!, b!);
    const ids = await scheduleAll(a!.origin, site, N);
    // both processes tick every 200 ms over the same due rows
    await makeAllDue(db.url);
    await waitUntil(
      `${N} scheduled runs`,
      () => Array.from({ length: N }, (_, i) => hits(i)).every((h) => h >= 2),
      120_000,
    );
    // many more ticks of both: nothing runs again (the next slot is an hour away)
    await new Promise((r) => setTimeout(r, 3000));
    const fetched = Array.from({ length: N }, (_, i) => hits(i));
    // on a mismatch: the runs each over-fetched report recorded, and both services' output, to
    // tell a run made twice from a fetch made twice (a CI run's 3 fetches were two scheduled
    // runs: \`hourly\`'s next slot came due in the test's minutes, hence hourlyFarFromNow)
    const over: string[] = [];
    for (const [i, h] of fetched.entries())
      if (h !== 2) {
        const r = await api(b!.origin, KEY, 'GET', `/api/v1/reports/${ids[i]}/runs`);
        over.push(
          `page-${i} fetched ${h}: ${(r.body.data as { source: string; status: string }[]).map((x) => `${x.source}/${x.status}`).join(',')}`,
        );
      }
    assert.deepEqual(
      fetched,
      Array.from({ length: N }, () => 2),
      `one fetch when stored, one for the scheduled run; ${over.join('; ')}${over.length ? `\n${a!.output()}\n${b!.output()}` : ''}`,
    );
    for (const id of ids) {
      const runs = await api(b!.origin, KEY, 'GET', `/api/v1/reports/${id}/runs`);
      assert.equal(runs.body.meta.total, 2, `report ${id}`);
      assert.equal(runs.body.data[0].source, 'schedule');
    }
    const list = await api(a!.origin, KEY, 'GET', '/api/v1/schedules?per_page=100');
    assert.equal(list.body.meta.total, N);
    assert.ok(
      list.body.data.every(
        (s: { last_status: string; running: boolean }) => s.last_status === 'completed' && !s.running,
      ),
    );
  });
});

describe('schedules: kill -9 with due schedules (SQLite)', () => {
  let dir = '';
  let site: FixtureServer | null = null;
  const services: ServiceProcess[] = [];
  after(async () => {
    for (const s of services) await s.stop(1000);
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the claimed and queued runs execute after a restart, once each', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-schedules-kill-'));
    site = await startFixtureServer();
    const N = 10;
    const hits = countingSite(site, N);
    const databaseUrl = `sqlite:${join(dir, 'pagegrade.db')}`;
    const env = {
      DATABASE_URL: databaseUrl,
      PAGEGRADE_BOOTSTRAP_KEY: KEY,
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_SCHEDULER_TICK_MS: '200',
      PAGEGRADE_RATE_LIMIT: '0',
      PAGEGRADE_JOB_POLL_MS: '200',
    };
    // the first process claims and enqueues the due runs but runs none of them
    const first = await startService({ ...env, PAGEGRADE_JOB_CONCURRENCY: 'schedule.run=0' }, 90_000);
    services.push(first);
    const ids = await scheduleAll(first.origin, site, N);
    await makeAllDue(databaseUrl);
    await waitUntil(
      'every schedule claimed',
      async () => {
        const list = await api(first.origin, KEY, 'GET', '/api/v1/schedules?per_page=100');
        return list.body.data.filter((s: { running: boolean }) => s.running).length === N;
      },
      30_000,
    );
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    assert.deepEqual(
      Array.from({ length: N }, (_, i) => hits(i)),
      Array.from({ length: N }, () => 1),
      'no scheduled run before the kill',
    );

    const second = await startService(env, 90_000);
    services.push(second);
    await waitUntil(
      `${N} scheduled runs after the restart`,
      () => Array.from({ length: N }, (_, i) => hits(i)).every((h) => h >= 2),
      60_000,
    );
    await new Promise((r) => setTimeout(r, 2000));
    // the runs each report recorded, to tell a run made twice from a fetch made twice
    const runs: string[] = [];
    for (const id of ids) {
      const r = await api(second.origin, KEY, 'GET', `/api/v1/reports/${id}/runs`);
      runs.push(
        `${id}: ${(r.body.data as { source: string; status: string }[]).map((x) => `${x.source}/${x.status}`).join(',')}`,
      );
    }
    assert.deepEqual(
      Array.from({ length: N }, (_, i) => hits(i)),
      Array.from({ length: N }, () => 2),
      `once each; the reports' runs: ${runs.join('; ')}\n${second.output()}`,
    );
  });
});
