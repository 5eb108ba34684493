// Durability: a real worker process (test/jobs/fixtures/worker-process.ts, the real engine)
// working queued jobs is killed with SIGKILL mid-way; a new process is started, and every
// job runs — none lost (each job appends its number to a file: the distinct numbers are
// counted). Jobs that were running at the kill may run twice (at-least-once), no more. On each
// engine: the jobs table on SQLite and PostgreSQL, BullMQ on Redis. And an outbox row that a
// crashed process committed but never relayed is relayed when the next process starts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { createJobEngine } from '../../src/jobs/index.js';
import { insertOutbox } from '../../src/store/jobs.repository.js';
import { queueEngines, waitFor } from '../helpers/queues.js';
import { REDIS_URL } from '../helpers/services.js';
import { countKind } from './fixtures/count-kind.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const N = 400;
/** the kind's concurrency: at most this many jobs are running when the process is killed */
const SLOTS = 4;

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  // typebox and kysely bundled (test/helpers/bundled-deps.mjs): six starts, a second of CPU less each
  const node = ['--import', 'tsx', '--import', './test/helpers/bundled-deps.mjs'];
  const child = spawn(process.execPath, [...node, 'test/jobs/fixtures/worker-process.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) resolve(child);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready:\n${out}`)));
  });
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const lines = (file: string) =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];

for (const engine of queueEngines) {
  describe(`kill -9 of a worker process [${engine.name}]`, { skip: engine.skip }, () => {
    test('after a restart every queued job runs; none lost', { timeout: 120_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pagegrade-kill-'));
      const out = join(dir, 'runs.txt');
      const h = await engine.open([countKind(out)]);
      const children: ChildProcess[] = [];
      try {
        for (let n = 0; n < N; n++) await h.engine.queue.enqueue('t.count', { n });
        const env = {
          QUEUE: engine.name === 'bullmq' ? 'bullmq' : 'embedded',
          DATABASE_URL: h.databaseUrl,
          REDIS_URL,
          REDIS_PREFIX: h.redisPrefix,
          OUT: out,
        };
        const first = await startWorker(env);
        children.push(first);
        await waitFor(() => lines(out).length >= N / 4, 'a quarter of the jobs', 60_000);
        await kill9(first);
        const atKill = lines(out);
        assert.ok(atKill.length < N, `the kill came before the end (${atKill.length} of ${N} done)`);

        const second = await startWorker(env);
        children.push(second);
        await waitFor(() => new Set(lines(out)).size === N, `all ${N} jobs`, 90_000);
        // let anything left over (a job run twice) show up
        await new Promise((r) => setTimeout(r, 500));
        const all = lines(out);
        const distinct = new Set(all);
        assert.equal(distinct.size, N, 'every job ran');
        for (let n = 0; n < N; n++) assert.ok(distinct.has(n), `job ${n} ran`);
        const duplicates = all.length - distinct.size;
        // at-least-once: only the jobs running at the kill may run again
        assert.ok(duplicates <= SLOTS, `${duplicates} jobs ran twice (at most ${SLOTS} were running)`);
        console.log(`# ${engine.name}: ${atKill.length} done at the kill, ${duplicates} ran twice`);
        const counts = await waitFor(async () => {
          const c = (await h.engine.queue.counts())['t.count']!;
          return c.waiting + c.active + c.delayed === 0 ? c : null;
        }, 'an empty queue');
        assert.equal(counts!.dead, 0);
      } finally {
        await Promise.all(
          children.map((c) => (c.exitCode === null && c.signalCode === null ? kill9(c) : null)),
        );
        await h.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

const bullmq = queueEngines.find((e) => e.name === 'bullmq')!;
describe('the BullMQ outbox', { skip: bullmq.skip }, () => {
  test('a committed outbox row left by a crashed process is relayed at start-up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrade-outbox-'));
    const out = join(dir, 'runs.txt');
    const h = await bullmq.open([countKind(out)]);
    try {
      // what a process that committed and died before its relay leaves behind
      const now = Date.now();
      await insertOutbox(h.db, {
        jobId: randomUUID(),
        kind: 't.count',
        key: null,
        payload: JSON.stringify({ n: 7 }),
        maxAttempts: null,
        runAt: now,
        now,
      });
      const next = await createJobEngine(
        { queueEngine: 'bullmq', redisUrl: REDIS_URL, redisPrefix: h.redisPrefix, jobPollMs: 60_000 },
        { db: h.db, kinds: [countKind(out)] },
      );
      const w = next.startWorkers({ deps: {} });
      try {
        await waitFor(() => lines(out).length === 1, 'the relayed job to run');
        assert.deepEqual(lines(out), [7]);
        const left = await h.db.selectFrom('job_outbox').select('id').execute();
        assert.equal(left.length, 0, 'the outbox row is gone');
      } finally {
        await w.stop();
        await next.close();
      }
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
