// The webhook settings: defaults, parsed values, bad values named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, configFromEnv } from '../../src/config.js';

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
  ] as const) {
    assert.throws(
      () => configFromEnv(env),
      (err: unknown) => err instanceof ConfigError && err.variable === name,
    );
  }
});
