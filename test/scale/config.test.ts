// The scale-out settings of the configuration: Redis key prefix and the trusted proxy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, configFromEnv } from '../../src/config.js';

test('PAGEGRADE_REDIS_PREFIX defaults to pagegrade:', () => {
  assert.equal(configFromEnv({}).redisPrefix, 'pagegrade:');
  assert.equal(configFromEnv({ PAGEGRADE_REDIS_PREFIX: 'staging:' }).redisPrefix, 'staging:');
});

test('PAGEGRADE_TRUST_PROXY: off by default, on, or a list of proxy addresses', () => {
  assert.equal(configFromEnv({}).trustProxy, false);
  assert.equal(configFromEnv({ PAGEGRADE_TRUST_PROXY: '0' }).trustProxy, false);
  assert.equal(configFromEnv({ PAGEGRADE_TRUST_PROXY: '1' }).trustProxy, true);
  assert.equal(
    configFromEnv({ PAGEGRADE_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy,
    '10.0.0.0/8,127.0.0.1,::1',
  );
  assert.throws(() => configFromEnv({ PAGEGRADE_TRUST_PROXY: 'lb.internal' }), ConfigError);
});
