// Webhooks across real service processes (the service, `serverArgs()`, with its job
// workers), a fixture site and a receiver on 127.0.0.1 (PAGEGRADE_ALLOW_PRIVATE_HOSTS=1: these
// tests are not about the address guard).
// - kill -9 of the service while deliveries are queued and in flight: after a restart every
//   delivery arrives; a duplicate, if any, carries the same webhook-id.
// - two processes on PostgreSQL + Redis (BullMQ): each delivery is made once per attempt.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { waitFor } from '../helpers/queues.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
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

/** webhook-id → how many requests carried it */
function byMessage(rx: WebhookReceiver): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rx.received) m.set(r.headers['webhook-id']!, (m.get(r.headers['webhook-id']!) ?? 0) + 1);
  return m;
}

async function setUp(origin: string, rx: WebhookReceiver): Promise<number> {
  const res = await api(origin, KEY, 'POST', '/api/v1/webhooks', {
    url: `${rx.origin}/hook`,
    events: 'report.created',
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  rx.secret = res.body.data.secret;
  return res.body.data.id;
}

async function storeReports(origin: string, site: FixtureServer, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i++) {
    const res = await api(origin, KEY, 'POST', '/api/v1/reports', { url: `${site.origin}/page-${i}` });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
}

describe('webhooks: kill -9 with deliveries queued and in flight (SQLite)', () => {
  let dir: string;
  let site: FixtureServer;
  let rx: WebhookReceiver;
  const services: ServiceProcess[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-webhooks-kill-'));
    site = await startFixtureServer();
    for (let i = 0; i < 40; i++) site.route(`/page-${i}`, html(goodPage(site.origin)));
  });
  after(async () => {
    for (const s of services) await s.stop(1000);
    await rx?.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every delivery arrives after a restart; duplicates share their webhook-id', async () => {
    const N = 30;
    // the receiver holds its answers: deliveries pile up in the queue, and the ones it has
    // received are still in flight (unanswered) when the process dies
    rx = await startWebhookReceiver(() => 'hang');
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'pagegrade.db')}`,
      PAGEGRADE_BOOTSTRAP_KEY: KEY,
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_JOB_CONCURRENCY: 'webhook.deliver=2',
      PAGEGRADE_JOB_POLL_MS: '200',
      // the deliveries in flight at the kill come again when their lease ends: 3 s, not 15
      PAGEGRADE_WEBHOOK_LEASE_MS: '3000',
    };
    const first = await startService(env, 90_000);
    services.push(first);
    await setUp(first.origin, rx);
    await storeReports(first.origin, site, N);
    await waitUntil('two deliveries in flight', () => rx.received.length >= 2, 20_000);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const inFlight = new Set(rx.received.map((r) => r.headers['webhook-id']!));
    assert.equal(inFlight.size, rx.received.length, 'no event was sent twice before the kill');
    assert.ok(inFlight.size < N, `the rest were still queued (${inFlight.size} of ${N} sent)`);

    // from now on the receiver answers at once
    rx.respond = () => ({ status: 204 });
    const second = await startService(env, 90_000);
    services.push(second);
    await waitUntil(`${N} distinct deliveries`, () => byMessage(rx).size >= N, 120_000);
    // the ones in flight at the kill come again once their lease has expired
    await waitUntil(
      'the deliveries in flight to be sent again',
      () => rx.received.length >= N + inFlight.size,
      60_000,
    );
    const counts = byMessage(rx);
    assert.equal(counts.size, N, 'one webhook-id per event: a retry carries the same one');
    for (const [id, n] of counts) assert.equal(n, inFlight.has(id) ? 2 : 1, id);
    assert.ok(
      rx.received.every((r) => r.verified === true),
      'every request verifies',
    );
    console.log(
      `# ${rx.received.length} requests for ${N} events (${inFlight.size} in flight at the kill, sent again with the same webhook-id)`,
    );
    // the log says delivered for every one of them
    const hooks = await api(second.origin, KEY, 'GET', '/api/v1/webhooks');
    const id = hooks.body.data[0].id;
    await waitUntil(
      'the log to say delivered',
      async () =>
        (await api(second.origin, KEY, 'GET', `/api/v1/webhooks/${id}/deliveries?status=delivered`)).body.meta
          .total === N,
      30_000,
    );
  });
});

describe('webhooks: two processes on PostgreSQL + Redis', () => {
  let db: TempDatabase | null = null;
  let prefix: string;
  let site: FixtureServer;
  let rx: WebhookReceiver;
  const services: ServiceProcess[] = [];

  after(async () => {
    for (const s of services) await s.stop(5000);
    await rx?.close();
    await site?.close();
    await db?.drop();
    if (prefix) await clearRedisPrefix(prefix);
  });

  test('each delivery is made once per attempt (a failed first attempt, then a retry)', async (t) => {
    if (skipUnlessRequired(t, await postgresUnavailable(), REQUIRE_POSTGRES)) return;
    if (skipUnlessRequired(t, await redisUnavailable(), REQUIRE_REDIS)) return;
    db = await createTempDatabase('pagegrade_webhooks');
    prefix = `pagegrade-test-${randomId()}:`;
    site = await startFixtureServer();
    const N = 40;
    for (let i = 0; i < N; i++) site.route(`/page-${i}`, html(goodPage(site.origin)));
    // the first attempt of each event fails (503), the second is delivered: the engine's retry
    // (the kind's own backoff from PAGEGRADE_WEBHOOK_RETRY_MS: 1 s ± 20 % here, 30 s by default)
    // must not make a third request, from either process — a third attempt would come 2 s
    // after the second, inside the 3 s waited below
    const seen = new Map<string, number>();
    rx = await startWebhookReceiver((req) => {
      const id = req.headers['webhook-id']!;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const status = seen.get(id) === 1 ? 503 : 204;
      return new Promise((r) => setTimeout(() => r({ status }), 50));
    });
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      PAGEGRADE_REDIS_PREFIX: prefix,
      PAGEGRADE_BOOTSTRAP_KEY: KEY,
      PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
      PAGEGRADE_WEBHOOK_RETRY_MS: '1000',
    };
    const [a, b] = await Promise.all([startService(env, 90_000), startService(env, 90_000)]);
    services.push(a!, b!);
    await setUp(a!.origin, rx);
    // events from both processes, worked by both
    await Promise.all([storeReports(a!.origin, site, N / 2), storeReports(b!.origin, site, N / 2, N / 2)]);
    await waitUntil(`${N} events, each sent twice`, () => rx.received.length >= 2 * N, 120_000);
    // and no third copy of any of them comes afterwards
    await new Promise((r) => setTimeout(r, 3000));
    const counts = byMessage(rx);
    assert.equal(counts.size, N);
    assert.deepEqual([...new Set(counts.values())], [2], 'each delivery made once per attempt');
    assert.equal(rx.received.length, 2 * N);
    const hooks = await api(a!.origin, KEY, 'GET', '/api/v1/webhooks');
    const log = await api(
      b!.origin,
      KEY,
      'GET',
      `/api/v1/webhooks/${hooks.body.data[0].id}/deliveries?per_page=100`,
    );
    assert.equal(log.body.meta.total, N);
    for (const d of log.body.data) {
      assert.equal(d.status, 'delivered');
      assert.equal(d.attempts, 2);
    }
    assert.ok(rx.received.every((r) => r.verified === true));
  });
});
