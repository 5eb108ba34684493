// Webhook deliveries through the real job engines — the `jobs` table on SQLite and PostgreSQL,
// and BullMQ on Redis — with their workers running: events recorded by report changes are
// delivered by the webhook.deliver kind, retried with backoff by the engine until a 2xx (each
// attempt made once, all with one webhook-id), and a delivery whose attempts are used up fails
// and disables the webhook at the limit. The receiver is on 127.0.0.1 (private hosts allowed:
// not a guard test). The backoff is shortened to milliseconds; everything else is the kind's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../src/analyzer/index.js';
import type { JobEngine, Workers } from '../../src/jobs/index.js';
import { webhookDeliverKind } from '../../src/jobs/kinds/webhook-deliver.js';
import { createServices } from '../../src/services/index.js';
import type { Services } from '../../src/services/types.js';
import { testServicesConfig } from '../helpers/config.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';
import { queueEngines, waitFor, type QueueHarness } from '../helpers/queues.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { cannedAudit, isCannedHost } from '../helpers/factories.js';

const kind = webhookDeliverKind({ maxAttempts: 3, backoff: { baseMs: 30, maxMs: 200 } });

for (const engine of queueEngines) {
  describe(`webhook deliveries through the job engine [${engine.name}]`, { skip: engine.skip }, () => {
    let h: QueueHarness;
    let services: Services;
    let workers: Workers;
    let rx: WebhookReceiver;
    let user: TestUser;

    before(async () => {
      h = await engine.open([kind], { pollMs: 50 });
      const q: JobEngine = h.engine;
      services = createServices({
        db: h.db,
        analyze: async (url, options) =>
          isCannedHost(new URL(url).hostname) ? cannedAudit(url) : analyze(url, options),
        config: testServicesConfig({ webhookDisableAfter: 2 }),
        queue: q.queue,
      });
      workers = q.startWorkers({
        deps: { services, queue: q.queue, log: { debug() {}, info() {}, warn() {}, error() {} } },
      });
      rx = await startWebhookReceiver();
      user = await buildUser(services);
    });
    after(async () => {
      await workers?.stop();
      await rx?.close();
      await h?.close();
    });

    test('each event arrives, signed, after the engine retried the failed attempts; once per attempt', async () => {
      const tries = new Map<string, number>();
      rx.respond = (req) => {
        const id = req.headers['webhook-id']!;
        const n = (tries.get(id) ?? 0) + 1;
        tries.set(id, n);
        return n < 3 ? { status: 503 } : { status: 200 };
      };
      const { webhook, secret } = await services.webhooks.create(user.id, {
        url: `${rx.origin}/retry`,
        events: ['report.created'],
      });
      rx.secret = secret;
      const N = 5;
      for (let i = 0; i < N; i++) await buildReport(services, user, { path: `/r-${i}` });
      await waitFor(
        async () =>
          (
            await services.webhooks.deliveries(user.id, webhook.id, {
              status: 'delivered',
              page: 1,
              perPage: 100,
            })
          ).total === N,
        `${N} deliveries delivered`,
        20_000,
      );
      assert.equal(tries.size, N);
      assert.deepEqual([...new Set(tries.values())], [3], 'three attempts each, each made once');
      assert.equal(rx.received.length, 3 * N);
      assert.ok(rx.received.every((r) => r.verified === true));
      const log = await services.webhooks.deliveries(user.id, webhook.id, { page: 1, perPage: 100 });
      assert.ok(log.items.every((d) => d.attempts === 3 && d.responseStatus === 200));
      await services.webhooks.update(user.id, webhook.id, { enabled: false });
    });

    test('attempts used up: the delivery fails; two in a row disable the webhook', async () => {
      rx.respond = () => ({ status: 500 });
      const { webhook, secret } = await services.webhooks.create(user.id, {
        url: `${rx.origin}/down`,
        events: ['report.created'],
      });
      rx.secret = secret;
      const before = rx.received.length;
      await buildReport(services, user, { path: '/down-1' });
      await buildReport(services, user, { path: '/down-2' });
      await waitFor(
        async () => !(await services.webhooks.get(user.id, webhook.id)).enabled,
        'the webhook to be disabled',
        20_000,
      );
      const w = await services.webhooks.get(user.id, webhook.id);
      assert.equal(
        w.disabledReason,
        'Disabled after 2 deliveries in a row failed; the last: The endpoint answered 500.',
      );
      const log = await services.webhooks.deliveries(user.id, webhook.id, { page: 1, perPage: 100 });
      assert.deepEqual(
        log.items.map((d) => [d.status, d.attempts]),
        [
          ['failed', 3],
          ['failed', 3],
        ],
      );
      assert.equal(rx.received.length - before, 6);
    });
  });
}
