// Two real service processes (the service, `serverArgs()`) on different ports, sharing
// one fresh PostgreSQL database and one Redis (a random key prefix): they start together on
// the empty database (migrations under the advisory lock, one bootstrap user), a report
// stored through one is listed, updated and deleted through the other, the per-key rate
// limit is shared, and concurrent deletes of one project leave exactly one success and no
// orphan reports. Skipped with the reason when PostgreSQL or Redis is unreachable, unless
// PAGEGRADE_REQUIRE_POSTGRES=1 / PAGEGRADE_REQUIRE_REDIS=1.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, html, goodPage, type FixtureServer } from '../helpers/fixture-server.js';
import { createDb, type DatabaseHandle } from '../../src/store/database.js';
import { createServices } from '../../src/services/index.js';
import { type Services } from '../../src/services/types.js';
import { analyze } from '../../src/analyzer/index.js';
import { configFromEnv } from '../../src/config.js';
import { api, startService, type ServiceProcess } from '../helpers/service-process.js';
import {
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
import { embeddedQueue } from '../../src/jobs/index.js';

const pgReason = await postgresUnavailable();
const redisReason = await redisUnavailable();
const BOOTSTRAP_KEY = `pg_scale_${randomId()}${randomId()}${randomId()}`;
const RATE_LIMIT = 10;

describe('two service processes on one PostgreSQL database and one Redis', () => {
  let database: TempDatabase | null = null;
  let fixture: FixtureServer;
  let a: ServiceProcess | null = null;
  let b: ServiceProcess | null = null;
  let handle: DatabaseHandle | null = null;
  let services: Services;
  const prefix = `pagegrade-test-${randomId()}:`;
  let startError: Error | null = null;

  before(async () => {
    if (pgReason || redisReason) return;
    fixture = await startFixtureServer();
    for (const path of ['/', '/one', '/two', '/three', '/four'])
      fixture.route(path, html(goodPage(fixture.origin)));
    database = await createTempDatabase();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      PAGEGRADE_REDIS_PREFIX: prefix,
      PAGEGRADE_RATE_LIMIT: String(RATE_LIMIT),
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_BOOTSTRAP_KEY: BOOTSTRAP_KEY,
      PAGEGRADE_SESSION_SECRET: `scale-test-session-secret-${randomId()}-${randomId()}`,
      PAGEGRADE_FETCH_TIMEOUT_MS: '5000',
      // as behind a load balancer on this host: the client address comes from X-Forwarded-For
      PAGEGRADE_TRUST_PROXY: '127.0.0.1',
    };
    // both start at once on the empty database: migrations and the first user race
    const started = await Promise.allSettled([startService(env), startService(env)]);
    for (const s of started) if (s.status === 'rejected') startError ??= s.reason as Error;
    a = started[0].status === 'fulfilled' ? started[0].value : null;
    b = started[1].status === 'fulfilled' ? started[1].value : null;
    // the test's own connection, to make users (each test its own key and rate-limit budget)
    // and to look at the rows behind the API
    handle = createDb(database.url);
    services = createServices({
      queue: embeddedQueue(handle.db),
      db: handle.db,
      analyze,
      config: configFromEnv({ DATABASE_URL: database.url }),
    });
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await handle?.close();
    await database?.drop();
    await fixture?.close();
    if (!redisReason) await clearRedisPrefix(prefix);
  });

  function ready(t: Parameters<typeof skipUnlessRequired>[0]): boolean {
    if (skipUnlessRequired(t, pgReason, 'PAGEGRADE_REQUIRE_POSTGRES')) return false;
    if (skipUnlessRequired(t, redisReason, 'PAGEGRADE_REQUIRE_REDIS')) return false;
    if (startError) throw startError;
    return true;
  }

  async function newKey(): Promise<string> {
    const { key } = await services.users.create(`scale-${randomId()}`);
    return key.key;
  }

  test('both start together on an empty database: schema applied once, one bootstrap user', async (t) => {
    if (!ready(t)) return;
    await withPg(database!.url, async (c) => {
      const migrations = await c.query('SELECT name FROM kysely_migration');
      const names = migrations.rows.map((r: { name: string }) => r.name);
      assert.equal(new Set(names).size, names.length, 'no migration recorded twice');
      assert.ok(names.length >= 1);
      const admins = await c.query(`SELECT id FROM users WHERE name = 'admin'`);
      assert.equal(admins.rowCount, 1);
    });
    // the bootstrap key works on both
    assert.equal((await api(a!.origin, BOOTSTRAP_KEY, 'GET', '/api/v1/reports')).status, 200);
    assert.equal((await api(b!.origin, BOOTSTRAP_KEY, 'GET', '/api/v1/reports')).status, 200);
    // and exactly one of them printed it
    const printed = [a!, b!].filter((p) => p.output().includes(BOOTSTRAP_KEY));
    assert.equal(printed.length, 1, 'the first key is printed once, by the process that created it');
  });

  test('a report stored through one process is listed, updated and deleted through the other', async (t) => {
    if (!ready(t)) return;
    const key = await newKey();
    const url = `${fixture.origin}/one`;
    const created = await api(a!.origin, key, 'POST', '/api/v1/reports', { url });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id as number;
    assert.equal(created.headers.get('location')?.endsWith(`/api/v1/reports/${id}`), true);

    const listed = await api(b!.origin, key, 'GET', '/api/v1/reports');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((r: { id: number }) => r.id),
      [id],
    );
    assert.equal(listed.body.meta.total, 1);
    const projects = await api(b!.origin, key, 'GET', '/api/v1/projects');
    assert.deepEqual(
      projects.body.data.map((p: { project: string; reports_count: number }) => [p.project, p.reports_count]),
      [['127.0.0.1', 1]],
    );

    const updated = await api(b!.origin, key, 'PATCH', `/api/v1/reports/${id}`, {
      privacy: '2',
      password: 'open sesame',
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.privacy, 2);
    assert.equal(updated.body.data.has_password, true);
    const shown = await api(a!.origin, key, 'GET', `/api/v1/reports/${id}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.data.privacy, 2);
    assert.equal(shown.body.data.has_password, true);

    const deleted = await api(b!.origin, key, 'DELETE', `/api/v1/reports/${id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { id, object: 'report', deleted: true });
    assert.equal((await api(a!.origin, key, 'GET', `/api/v1/reports/${id}`)).status, 404);
    const after = await api(a!.origin, key, 'GET', '/api/v1/reports');
    assert.equal(after.body.meta.total, 0);
    assert.equal((await api(a!.origin, key, 'GET', '/api/v1/projects')).body.meta.total, 0);
  });

  test('the per-key rate limit is shared by both processes (Redis)', async (t) => {
    if (!ready(t)) return;
    const key = await newKey();
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < RATE_LIMIT + 6; i++) {
      const res = await api(i % 2 ? b!.origin : a!.origin, key, 'GET', '/api/v1/reports');
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
      if (res.status === 429) retryAfter ??= res.headers.get('retry-after');
    }
    assert.deepEqual(statuses, [...Array<number>(RATE_LIMIT).fill(200), ...Array<number>(6).fill(429)]);
    // the budget counts down across the two processes
    assert.deepEqual(
      remaining.slice(0, RATE_LIMIT),
      Array.from({ length: RATE_LIMIT }, (_, i) => String(RATE_LIMIT - 1 - i)),
    );
    assert.ok(
      retryAfter !== null && Number(retryAfter) > 0 && Number(retryAfter) <= 60,
      `Retry-After ${retryAfter}`,
    );
    // another key has its own budget
    assert.equal((await api(b!.origin, await newKey(), 'GET', '/api/v1/reports')).status, 200);
  });

  test('wrong report passwords are throttled across both processes (Redis), per client address', async (t) => {
    if (!ready(t)) return;
    const key = await newKey();
    const created = await api(a!.origin, key, 'POST', '/api/v1/reports', {
      url: `${fixture.origin}/`,
      privacy: '2',
      password: 'the right one',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id as number;

    // a browser: the form (and its CSRF cookie) from one process, wrong passwords to both
    const form = await fetch(`${b!.origin}/reports/${id}`);
    const page = await form.text();
    assert.equal(form.status, 200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
    assert.ok(csrf, 'the password form carries a CSRF token');
    const cookie = form.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const attempt = async (origin: string, password: string, client = '203.0.113.5') => {
      const res = await fetch(`${origin}/reports/${id}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': client },
        body: new URLSearchParams({ _csrf: csrf, password }).toString(),
      });
      await res.arrayBuffer();
      return res;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await attempt(i % 2 ? a!.origin : b!.origin, `wrong ${i}`)).status);
    // 5 wrong attempts a minute per report and address, counted by both processes together
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429]);
    const blocked = await attempt(a!.origin, 'the right one');
    assert.equal(blocked.status, 429, 'even the right password waits out the window');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    // another client behind the same load balancer keeps its own attempts
    assert.equal((await attempt(b!.origin, 'wrong again', '198.51.100.7')).status, 401);
    assert.equal((await attempt(a!.origin, 'the right one', '198.51.100.7')).status, 303);
  });

  test('concurrent deletes of one project from both processes: one succeeds, no orphans', async (t) => {
    if (!ready(t)) return;
    for (let round = 0; round < 2; round++) {
      const key = await newKey();
      const paths = ['/two', '/three', '/four'];
      const stored = await Promise.all(
        paths.map((p, i) =>
          api(i % 2 ? b!.origin : a!.origin, key, 'POST', '/api/v1/reports', { url: fixture.origin + p }),
        ),
      );
      for (const s of stored) assert.equal(s.status, 201, JSON.stringify(s.body));
      const userId = (await services.auth.authenticate(key))!.orgId;

      const [ra, rb] = await Promise.all([
        api(a!.origin, key, 'DELETE', '/api/v1/projects/127.0.0.1'),
        api(b!.origin, key, 'DELETE', '/api/v1/projects/127.0.0.1'),
      ]);
      const statuses = [ra.status, rb.status].sort();
      assert.deepEqual(statuses, [200, 404], `round ${round}: ${JSON.stringify([ra.body, rb.body])}`);
      const winner = ra.status === 200 ? ra : rb;
      assert.deepEqual(winner.body, {
        project: '127.0.0.1',
        object: 'project',
        deleted: true,
        reports_deleted: 3,
      });

      await withPg(database!.url, async (c) => {
        const reports = await c.query('SELECT count(*)::int AS n FROM reports WHERE org_id = $1', [userId]);
        assert.equal(reports.rows[0].n, 0, 'no orphan reports');
        const orphans = await c.query(
          `SELECT count(*)::int AS n FROM reports r WHERE NOT EXISTS
             (SELECT 1 FROM projects p WHERE p.org_id = r.org_id AND p.name = r.project)`,
        );
        assert.equal(orphans.rows[0].n, 0, 'no report outside a project, for any user');
        const projects = await c.query('SELECT count(*)::int AS n FROM projects WHERE org_id = $1', [
          userId,
        ]);
        assert.equal(projects.rows[0].n, 0);
        const user = await c.query('SELECT reports_count, projects_count FROM organizations WHERE id = $1', [userId]);
        assert.deepEqual(user.rows[0], { reports_count: 0, projects_count: 0 }, 'counters kept right');
      });
      const list = await api(b!.origin, key, 'GET', '/api/v1/reports');
      assert.equal(list.body.meta.total, 0);
    }
  });
});
