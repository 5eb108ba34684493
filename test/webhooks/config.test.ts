// The webhook settings: defaults, parsed values, bad values named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, configFromEnv } from '../../src/config.js';
import { jobKinds, jobKindsFor } from '../../src/jobs/kinds/index.js';

test('webhook settings: 10 s per attempt, disabled after 5 deliveries failed in a row', () => {
  const c = configFromEnv({});
  assert.equal(c.webhookTimeoutMs, 10_000);
  assert.equal(c.webhookDisableAfter, 5);
  const d = configFromEnv({ PAGEGRADE_WEBHOOK_TIMEOUT_MS: '2500', PAGEGRADE_WEBHOOK_DISABLE_AFTER: '20' });
  assert.equal(d.webhookTimeoutMs, 2500);
  assert.equal(d.webhookDisableAfter, 20);
});

test('bad webhook settings stop the boot with the variable named', () => {
  for (const [env, name] of [
    [{ PAGEGRADE_WEBHOOK_TIMEOUT_MS: 'soon' }, 'PAGEGRADE_WEBHOOK_TIMEOUT_MS'],
    [{ PAGEGRADE_WEBHOOK_TIMEOUT_MS: '50' }, 'PAGEGRADE_WEBHOOK_TIMEOUT_MS'],
    [{ PAGEGRADE_WEBHOOK_DISABLE_AFTER: '0' }, 'PAGEGRADE_WEBHOOK_DISABLE_AFTER'],
    [{ PAGEGRADE_WEBHOOK_RETRY_MS: '50' }, 'PAGEGRADE_WEBHOOK_RETRY_MS'],
    [{ PAGEGRADE_WEBHOOK_LEASE_MS: '500' }, 'PAGEGRADE_WEBHOOK_LEASE_MS'],
  ] as const) {
    assert.throws(
      () => configFromEnv(env),
      (err: unknown) => err instanceof ConfigError && err.variable === name,
    );
  }
});

test('the first retry and the lease: 30 s and 15 s, or as set; the workers run the kind with them', () => {
  const c = configFromEnv({});
  assert.equal(c.webhookRetryMs, 30_000);
  assert.equal(c.webhookLeaseMs, 15_000);
  // the defaults: the application's kinds as they are
  assert.equal(jobKindsFor(c), jobKinds);
  const d = configFromEnv({ PAGEGRADE_WEBHOOK_RETRY_MS: '1000', PAGEGRADE_WEBHOOK_LEASE_MS: '3000' });
  assert.equal(d.webhookRetryMs, 1000);
  assert.equal(d.webhookLeaseMs, 3000);
  const kinds = jobKindsFor(d);
  const deliver = kinds.find((k) => k.kind === 'webhook.deliver')!;
  assert.deepEqual(deliver.backoff, { baseMs: 1000, maxMs: 8 * 3600_000 }, 'doubled each time, at most 8 h');
  assert.equal(deliver.leaseMs, 3000);
  assert.equal(deliver.maxAttempts, 13);
  assert.deepEqual(
    kinds.filter((k) => k.kind !== 'webhook.deliver'),
    jobKinds.filter((k) => k.kind !== 'webhook.deliver'),
    'the other kinds unchanged',
  );
});
