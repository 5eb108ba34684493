// `pagegrade worker` and `pagegrade jobs …` as real processes over a temp SQLite file, and the
// service refusing an unknown kind in PAGEGRADE_JOB_CONCURRENCY (exit 78).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { runCli, serverArgs } from '../helpers/cli.js';
import { openTestDb, sqliteDialect } from '../helpers/db.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));

describe('pagegrade worker / jobs [sqlite]', () => {
  test('worker runs until SIGTERM, then stops gracefully (exit 0)', { timeout: 120_000 }, async () => {
    const t = await openTestDb(sqliteDialect);
    try {
      const child = spawn(process.execPath, [bin, 'worker'], {
        env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const deadline = Date.now() + 90_000;
      while (!out.includes('workers started')) {
        if (Date.now() > deadline || child.exitCode !== null) assert.fail(`not started:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.match(out, /"engine":"embedded"/);
      child.kill('SIGTERM');
      assert.equal(await exited, 0, out);
      assert.match(out, /"msg":"stopped"/);
    } finally {
      await t.cleanup();
    }
  });

  // nine CLI processes, each compiling the sources through tsx: slow on a loaded machine
  test('jobs counts, dead and retry', { timeout: 300_000 }, async () => {
    const t = await openTestDb(sqliteDialect);
    try {
      const now = Date.now();
      for (const [kind, state, runAt, error] of [
        ['t.a', 'waiting', now - 1000, null],
        ['t.a', 'waiting', now + 3600_000, null],
        ['t.a', 'dead', now, 'boom: the page was gone'],
        ['t.b', 'dead', now, 'PermanentJobError: nope'],
      ] as const) {
        await sql`INSERT INTO jobs (kind, payload, state, attempts, max_attempts, run_at, last_error, created_at, finished_at)
          VALUES (${kind}, '{"n":1}', ${state}, ${state === 'dead' ? 3 : 0}, 3, ${runAt}, ${error}, ${now}, ${state === 'dead' ? now : null})`.execute(
          t.db,
        );
      }
      const env = { DATABASE_URL: t.databaseUrl };
      const counts = await runCli(['jobs', 'counts', '--json'], env);
      assert.equal(counts.code, 0, counts.stderr);
      assert.deepEqual(JSON.parse(counts.stdout), {
        engine: 'embedded',
        counts: {
          // every registered kind is listed, with none queued
          'webhook.deliver': { waiting: 0, active: 0, delayed: 0, dead: 0 },
          'schedule.run': { waiting: 0, active: 0, delayed: 0, dead: 0 },
          'batch.discover': { waiting: 0, active: 0, delayed: 0, dead: 0 },
          'batch.page': { waiting: 0, active: 0, delayed: 0, dead: 0 },
          'batch.end': { waiting: 0, active: 0, delayed: 0, dead: 0 },
          't.a': { waiting: 1, active: 0, delayed: 1, dead: 1 },
          't.b': { waiting: 0, active: 0, delayed: 0, dead: 1 },
        },
      });
      const table = await runCli(['jobs', 'counts'], env);
      assert.match(
        table.stdout,
        /KIND\s+WAITING\s+RUNNING\s+DELAYED\s+DEAD\n(?:[a-z.]+\s+0\s+0\s+0\s+0\n)*t\.a\s+1\s+0\s+1\s+1\nt\.b\s+0\s+0\s+0\s+1/,
      );

      const dead = await runCli(['jobs', 'dead', '--json'], env);
      assert.equal(dead.code, 0, dead.stderr);
      const list = JSON.parse(dead.stdout) as { id: string; kind: string; error: string; attempts: number }[];
      assert.deepEqual(
        list.map((d) => [d.kind, d.error, d.attempts]),
        [
          ['t.b', 'PermanentJobError: nope', 3],
          ['t.a', 'boom: the page was gone', 3],
        ],
      );
      const bKind = await runCli(['jobs', 'dead', '--kind', 't.b'], env);
      assert.match(bKind.stdout, /t\.b\s+3\s+\S+\s+PermanentJobError: nope/);
      assert.doesNotMatch(bKind.stdout, /t\.a/);

      assert.equal((await runCli(['jobs', 'retry'], env)).code, 2);
      const retried = await runCli(['jobs', 'retry', list[1]!.id], env);
      assert.equal(retried.code, 0, retried.stderr);
      assert.equal(retried.stdout, '1 dead job put back in the queue.\n');
      const all = await runCli(['jobs', 'retry', '--all'], env);
      assert.equal(all.stdout, '1 dead job put back in the queue.\n');
      const after = JSON.parse((await runCli(['jobs', 'counts', '--json'], env)).stdout);
      assert.deepEqual(after.counts['t.a'], { waiting: 2, active: 0, delayed: 1, dead: 0 });
      assert.deepEqual(after.counts['t.b'], { waiting: 1, active: 0, delayed: 0, dead: 0 });
    } finally {
      await t.cleanup();
    }
  });

  test(
    'the service refuses an unknown kind in PAGEGRADE_JOB_CONCURRENCY (exit 78)',
    { timeout: 60_000 },
    async () => {
      const t = await openTestDb(sqliteDialect);
      try {
        const child = spawn(process.execPath, serverArgs(), {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            DATABASE_URL: t.databaseUrl,
            PORT: '0',
            PAGEGRADE_JOB_CONCURRENCY: 'no.such-kind=2',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let err = '';
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
        assert.equal(code, 78, err);
        assert.match(err, /PAGEGRADE_JOB_CONCURRENCY: unknown job kind "no\.such-kind"/);
      } finally {
        await t.cleanup();
      }
    },
  );
});
