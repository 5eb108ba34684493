// A project's per-minute schedule across two real service processes (`serverArgs()`: the API,
// the workers and the scheduler, a 200 ms tick each) on one PostgreSQL database and Redis
// (BullMQ): nothing but the schedule starts the crawls — the first slot comes on its own,
// with its jitter — and each minute's slot makes exactly one batch, whichever process claims
// it. The site is the kit's fixture site (test/helpers/fixture-site.ts) on 127.0.0.1
// (PAGEGRADE_ALLOW_PRIVATE_HOSTS=1: not a guard test).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { waitFor } from '../helpers/queues.js';
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
  withPg,
  type TempDatabase,
} from '../helpers/services.js';

const KEY = `pg_${randomId()}${randomId()}${randomId()}`;
const MINUTE = 60_000;
/** two slots of a per-minute schedule: at most two minutes, its jitter (≤ 6 s) and the crawls */
const TWO_SLOTS_MS = 2 * MINUTE + 30_000;

describe('project schedules: two processes on PostgreSQL + Redis', () => {
  let db: TempDatabase | null = null;
  let prefix = '';
  let site: FixtureSite | null = null;
  const services: ServiceProcess[] = [];
  after(async () => {
    for (const s of services) await s.stop(5000);
    await site?.close();
    await db?.drop();
    if (prefix) await clearRedisPrefix(prefix);
  });

  test(
    'a per-minute project schedule crawls on its own, once per slot',
    { timeout: 5 * MINUTE },
    async (t) => {
      if (skipUnlessRequired(t, await postgresUnavailable(), REQUIRE_POSTGRES)) return;
      if (skipUnlessRequired(t, await redisUnavailable(), REQUIRE_REDIS)) return;
      db = await createTempDatabase('pagegrade_project_schedules');
      prefix = `pagegrade-test-${randomId()}:`;
      site = await startFixtureSite({ pages: 4, crawlDelay: null, plain: true });
      const start = `http://127.0.0.1:${site.fixture.port}/`;
      const env = {
        DATABASE_URL: db.url,
        REDIS_URL,
        PAGEGRADE_REDIS_PREFIX: prefix,
        PAGEGRADE_BOOTSTRAP_KEY: KEY,
        PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
        PAGEGRADE_SCHEDULER_TICK_MS: '200',
        PAGEGRADE_RATE_LIMIT: '0',
        PAGEGRADE_JOB_POLL_MS: '200',
        PAGEGRADE_CRAWL_DELAY_MS: '0',
      };
      const [a, b] = await Promise.all([startService(env, 90_000), startService(env, 90_000)]);
      services.push(a!, b!);

      // JSON: the settings' body is JSON (api() sends forms)
      const put = await fetch(`${a!.origin}/api/v1/projects/127.0.0.1`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ start_url: start, max_depth: 3, schedule: { every: '* * * * *' } }),
      });
      assert.equal(put.status, 201, await put.text());
      const listed = async () => {
        const res = await api(b!.origin, KEY, 'GET', '/api/v1/schedules');
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data.find((s: { kind: string }) => s.kind === 'project');
      };
      const schedule = await listed();
      assert.equal(schedule.project, '127.0.0.1');
      assert.equal(schedule.url, start);
      assert.ok(schedule.jitter_ms < 6000, 'a per-minute schedule is at most 6 s late');
      const batches = () =>
        withPg(
          db!.url,
          async (c) =>
            (
              await c.query<{ id: number; created_at: Date; status: string }>(
                `SELECT id, created_at, status FROM batches WHERE project = '127.0.0.1' ORDER BY id`,
              )
            ).rows,
        );
      assert.deepEqual(await batches(), [], 'no crawl before the first slot');

      // the slots come on their own: wait for two of them (and their crawls to end)
      await waitFor(
        async () => {
          const rows = await batches();
          return rows.length >= 2 && rows.every((r) => r.status === 'done');
        },
        'two scheduled crawls',
        TWO_SLOTS_MS,
      );
      // many more ticks of both processes inside the current slot
      await new Promise((r) => setTimeout(r, 3000));
      const rows = await batches();
      // each batch is its slot's: the minute it was created in, less the schedule's jitter
      const slots = rows.map((r) => Math.floor((r.created_at.getTime() - schedule.jitter_ms) / MINUTE));
      assert.equal(new Set(slots).size, rows.length, `one batch per slot: ${JSON.stringify(rows)}`);
      for (let i = 1; i < slots.length; i++)
        assert.equal(slots[i]! - slots[i - 1]!, 1, 'every minute, none missed');
      const after = await listed();
      assert.ok(['started', 'skipped'].includes(after.last_status), JSON.stringify(after));
      assert.ok(
        rows.some((r) => r.id === after.last_batch_id),
        `the schedule's last batch is one of them: ${JSON.stringify(after)}`,
      );
      for (const r of rows.filter((r) => r.status === 'done')) {
        const batch = await api(a!.origin, KEY, 'GET', `/api/v1/batches/${r.id}`);
        assert.equal(batch.body.data.url, start);
        assert.ok(batch.body.data.progress.audited >= 4, JSON.stringify(batch.body.data.progress));
      }
    },
  );
});
