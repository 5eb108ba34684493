// The job engine's configuration: defaults, PAGEGRADE_JOB_CONCURRENCY's syntax, PAGEGRADE_QUEUE,
// and the check that the concurrency names only real kinds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, configFromEnv } from '../../src/config.js';
import { checkJobConcurrency, engineName, type AnyJobKind } from '../../src/jobs/index.js';
import { backoffDelay } from '../../src/jobs/kind-tools.js';

const isConfigError = (variable: string, message: RegExp) => (err: unknown) =>
  err instanceof ConfigError && err.variable === variable && message.test(err.message);

test('defaults: workers on, engine by REDIS_URL, 30 s shutdown deadline, 1 s poll', () => {
  const c = configFromEnv({});
  assert.equal(c.worker, true);
  assert.equal(c.queueEngine, 'auto');
  assert.deepEqual(c.jobConcurrency, {});
  assert.equal(c.workerShutdownMs, 30_000);
  assert.equal(c.jobPollMs, 1000);
  assert.equal(engineName(c), 'embedded');
  assert.equal(engineName(configFromEnv({ REDIS_URL: 'redis://127.0.0.1:6379' })), 'bullmq');
  assert.equal(
    engineName(configFromEnv({ REDIS_URL: 'redis://127.0.0.1:6379', PAGEGRADE_QUEUE: 'embedded' })),
    'embedded',
  );
});

test('PAGEGRADE_WORKER, PAGEGRADE_JOB_CONCURRENCY, PAGEGRADE_WORKER_SHUTDOWN_MS are read', () => {
  const c = configFromEnv({
    PAGEGRADE_WORKER: '0',
    PAGEGRADE_JOB_CONCURRENCY: 'webhook.deliver=8, report.reaudit=2,batch.page=0',
    PAGEGRADE_WORKER_SHUTDOWN_MS: '5000',
    PAGEGRADE_JOB_POLL_MS: '250',
  });
  assert.equal(c.worker, false);
  assert.deepEqual(c.jobConcurrency, { 'webhook.deliver': 8, 'report.reaudit': 2, 'batch.page': 0 });
  assert.equal(c.workerShutdownMs, 5000);
  assert.equal(c.jobPollMs, 250);
});

test('bad values name the variable', () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ PAGEGRADE_JOB_CONCURRENCY: 'webhook.deliver:8' }, 'PAGEGRADE_JOB_CONCURRENCY', /kind=number/],
    [{ PAGEGRADE_JOB_CONCURRENCY: 'a=1,,b=2' }, 'PAGEGRADE_JOB_CONCURRENCY', /kind=number/],
    [{ PAGEGRADE_JOB_CONCURRENCY: 'a=5000' }, 'PAGEGRADE_JOB_CONCURRENCY', /between 0 and 1000/],
    [{ PAGEGRADE_QUEUE: 'rabbit' }, 'PAGEGRADE_QUEUE', /one of auto, embedded, bullmq/],
    [{ PAGEGRADE_QUEUE: 'bullmq' }, 'PAGEGRADE_QUEUE', /needs REDIS_URL/],
    [{ PAGEGRADE_WORKER: 'sometimes' }, 'PAGEGRADE_WORKER', /0 or 1/],
    [{ PAGEGRADE_WORKER_SHUTDOWN_MS: '-1' }, 'PAGEGRADE_WORKER_SHUTDOWN_MS', /whole number/],
    [{ PAGEGRADE_JOB_POLL_MS: '1' }, 'PAGEGRADE_JOB_POLL_MS', /between 50 and 60000/],
  ];
  for (const [env, variable, message] of cases) {
    assert.throws(() => configFromEnv(env), isConfigError(variable, message), JSON.stringify(env));
  }
});

test('the concurrency may only name kinds that exist', () => {
  const kinds = [{ kind: 'report.reaudit' }, { kind: 'webhook.deliver' }] as AnyJobKind[];
  checkJobConcurrency({ 'report.reaudit': 2 }, kinds);
  assert.throws(
    () => checkJobConcurrency({ 'report.reaudti': 2 }, kinds),
    isConfigError(
      'PAGEGRADE_JOB_CONCURRENCY',
      /unknown job kind "report\.reaudti"; the kinds are: report\.reaudit, webhook\.deliver/,
    ),
  );
});

test('backoff: min(maxMs, baseMs × 2^(n−1)), ±20 %', () => {
  const k = { backoff: { baseMs: 1000, maxMs: 60_000 } };
  assert.equal(
    backoffDelay(k, 1, () => 0.5),
    1000,
  );
  assert.equal(
    backoffDelay(k, 2, () => 0.5),
    2000,
  );
  assert.equal(
    backoffDelay(k, 5, () => 0.5),
    16_000,
  );
  assert.equal(
    backoffDelay(k, 9, () => 0.5),
    60_000,
  );
  assert.equal(
    backoffDelay(k, 3, () => 0),
    3200,
  );
  assert.equal(
    backoffDelay(k, 3, () => 1),
    4800,
  );
  assert.equal(
    backoffDelay(k, 500, () => 0.5),
    60_000,
  );
});

test('PAGEGRADE_BATCH_PAGE_LEASE_MS: a batch page lease of 15 s, or as set; the workers run batch.page with it', async () => {
  const { jobKinds, jobKindsFor } = await import('../../src/jobs/kinds/index.js');
  const c = configFromEnv({});
  assert.equal(c.batchPageLeaseMs, 15_000);
  assert.equal(jobKindsFor(c), jobKinds, 'the defaults: the kinds as they are');
  const d = configFromEnv({ PAGEGRADE_BATCH_PAGE_LEASE_MS: '4000' });
  assert.equal(d.batchPageLeaseMs, 4000);
  const kinds = jobKindsFor(d);
  const page = kinds.find((k) => k.kind === 'batch.page')!;
  assert.equal(page.leaseMs, 4000);
  assert.equal(page.concurrency, 8);
  assert.deepEqual(
    kinds.filter((k) => k.kind !== 'batch.page'),
    jobKinds.filter((k) => k.kind !== 'batch.page'),
    'the other kinds unchanged',
  );
  assert.throws(
    () => configFromEnv({ PAGEGRADE_BATCH_PAGE_LEASE_MS: '500' }),
    isConfigError('PAGEGRADE_BATCH_PAGE_LEASE_MS', /./),
  );
});
