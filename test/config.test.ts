// Configuration: SPEC §6 defaults, every variable parsed, bad values named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, configFromEnv, parseDotEnv } from '../src/config.js';

test('defaults are those of SPEC §6', () => {
  const c = configFromEnv({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.databaseUrl, 'sqlite:./data/pagegrade.db');
  assert.equal(c.publicUrl, 'http://127.0.0.1:8080');
  assert.equal(c.bootstrapKey, null);
  assert.equal(c.rateLimit, 240);
  assert.equal(c.allowPrivateHosts, false);
  assert.equal(c.fetchTimeoutMs, 10_000);
  assert.equal(c.fetchMaxBytes, 5_242_880);
  assert.equal(c.redisUrl, null);
  assert.equal(c.historyLimit, 100);
  assert.ok(Object.isFrozen(c));
});

test('every variable is read', () => {
  const c = configFromEnv({
    PORT: '9000',
    HOST: '0.0.0.0',
    DATABASE_URL: 'postgres://u@127.0.0.1/db',
    PAGEGRADE_PUBLIC_URL: 'https://audit.example.com/',
    PAGEGRADE_BOOTSTRAP_KEY: 'pg_0123456789abcdefghijklmnop',
    PAGEGRADE_RATE_LIMIT: '0',
    PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
    PAGEGRADE_FETCH_TIMEOUT_MS: '2500',
    PAGEGRADE_FETCH_MAX_BYTES: '100000',
    REDIS_URL: 'redis://127.0.0.1:6379',
    PAGEGRADE_HISTORY_LIMIT: '12',
  });
  assert.equal(c.port, 9000);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.databaseUrl, 'postgres://u@127.0.0.1/db');
  assert.equal(c.publicUrl, 'https://audit.example.com', 'trailing slash dropped');
  assert.equal(c.bootstrapKey, 'pg_0123456789abcdefghijklmnop');
  assert.equal(c.rateLimit, 0);
  assert.equal(c.allowPrivateHosts, true);
  assert.equal(c.fetchTimeoutMs, 2500);
  assert.equal(c.fetchMaxBytes, 100000);
  assert.equal(c.redisUrl, 'redis://127.0.0.1:6379');
  assert.equal(c.historyLimit, 12);
});

test('the public URL follows HOST and PORT when not set', () => {
  assert.equal(configFromEnv({ PORT: '3000' }).publicUrl, 'http://127.0.0.1:3000');
  assert.equal(configFromEnv({ HOST: '::1' }).publicUrl, 'http://[::1]:8080');
});

test('bad values stop the boot with the variable named', () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ PORT: 'eighty' }, 'PORT', /whole number/],
    [{ PORT: '70000' }, 'PORT', /between 0 and 65535/],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', /sqlite: or postgres:\/\//],
    [{ PAGEGRADE_PUBLIC_URL: 'ftp://x' }, 'PAGEGRADE_PUBLIC_URL', /http\(s\) URL/],
    [{ PAGEGRADE_BOOTSTRAP_KEY: 'short' }, 'PAGEGRADE_BOOTSTRAP_KEY', /at least 24/],
    [{ PAGEGRADE_RATE_LIMIT: '-1' }, 'PAGEGRADE_RATE_LIMIT', /whole number/],
    [{ PAGEGRADE_ALLOW_PRIVATE_HOSTS: 'maybe' }, 'PAGEGRADE_ALLOW_PRIVATE_HOSTS', /0 or 1/],
    [{ PAGEGRADE_FETCH_TIMEOUT_MS: '10' }, 'PAGEGRADE_FETCH_TIMEOUT_MS', /between/],
    [{ PAGEGRADE_FETCH_MAX_BYTES: '1e6' }, 'PAGEGRADE_FETCH_MAX_BYTES', /whole number/],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL', /redis:\/\//],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /one of/],
    [{ PAGEGRADE_HISTORY_LIMIT: '0' }, 'PAGEGRADE_HISTORY_LIMIT', /between 1 and 100000/],
    [{ PAGEGRADE_BATCH_MAX_PAGES: '100001' }, 'PAGEGRADE_BATCH_MAX_PAGES', /between 1 and 100000/],
    [{ PAGEGRADE_REGRESSION_PAGE_SHARE: '1.5' }, 'PAGEGRADE_REGRESSION_PAGE_SHARE', /from 0 to 1/],
    [{ PAGEGRADE_REGRESSION_PAGE_SHARE: '-0.1' }, 'PAGEGRADE_REGRESSION_PAGE_SHARE', /from 0 to 1/],
    [{ PAGEGRADE_REGRESSION_PAGE_SHARE: '10%' }, 'PAGEGRADE_REGRESSION_PAGE_SHARE', /such as 0\.1/],
  ];
  for (const [env, variable, message] of cases) {
    assert.throws(
      () => configFromEnv(env),
      (err: unknown) => err instanceof ConfigError && err.variable === variable && message.test(err.message),
      `${JSON.stringify(env)}`,
    );
  }
});

test('PAGEGRADE_REGRESSION_PAGE_SHARE: 0.1 by default; 0 and 1 are its ends', () => {
  assert.equal(configFromEnv({}).regressionPageShare, 0.1);
  assert.equal(configFromEnv({ PAGEGRADE_REGRESSION_PAGE_SHARE: '0' }).regressionPageShare, 0);
  assert.equal(configFromEnv({ PAGEGRADE_REGRESSION_PAGE_SHARE: '1' }).regressionPageShare, 1);
  assert.equal(configFromEnv({ PAGEGRADE_REGRESSION_PAGE_SHARE: ' .25 ' }).regressionPageShare, 0.25);
});

test('PAGEGRADE_BATCH_MAX_PAGES: 10,000 by default, up to 100,000', () => {
  assert.equal(configFromEnv({}).batchMaxPages, 10_000);
  assert.equal(configFromEnv({ PAGEGRADE_BATCH_MAX_PAGES: '100000' }).batchMaxPages, 100_000);
});

test('.env files: comments, quotes, export prefix', () => {
  assert.deepEqual(parseDotEnv('# c\nPORT=9001\nexport HOST="0.0.0.0"\nX=\'a b\'\n\nbad line\n'), {
    PORT: '9001',
    HOST: '0.0.0.0',
    X: 'a b',
  });
});

test('PAGEGRADE_SECRET_KEY: 32 bytes as hex or base64, kept as hex; unset is null; else named', () => {
  assert.equal(configFromEnv({}).secretKey, null);
  const hex = '0f'.repeat(32);
  assert.equal(configFromEnv({ PAGEGRADE_SECRET_KEY: hex.toUpperCase() }).secretKey, hex);
  const b64 = Buffer.from(hex, 'hex').toString('base64');
  assert.equal(configFromEnv({ PAGEGRADE_SECRET_KEY: b64 }).secretKey, hex);
  assert.equal(
    configFromEnv({ PAGEGRADE_SECRET_KEY: Buffer.from(hex, 'hex').toString('base64url') }).secretKey,
    hex,
  );
  for (const bad of ['short', '0f'.repeat(31), Buffer.alloc(16).toString('base64')]) {
    assert.throws(
      () => configFromEnv({ PAGEGRADE_SECRET_KEY: bad }),
      (err: unknown) =>
        err instanceof ConfigError && err.variable === 'PAGEGRADE_SECRET_KEY' && /32 bytes/.test(err.message),
    );
  }
});
