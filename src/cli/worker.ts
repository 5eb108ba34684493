// `pagegrade worker`: the job workers without the HTTP server (src/jobs/process.ts), and
// `pagegrade jobs counts|dead|retry`: look at the queue and put dead jobs back (docs/jobs.md).
import type { Command } from 'commander';
import { ConfigError } from '../config.js';
import { loadCliConfig } from './config.js';
import { CliError } from './exit-codes.js';
import { table } from './table.js';
import type { Queue, QueueAdmin } from '../jobs/types.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs `fn` with the configured queue (the database migrated; Redis answering for BullMQ). */
async function withQueue<T>(fn: (queue: Queue & QueueAdmin) => Promise<T>): Promise<T> {
  const config = loadCliConfig();
  const [{ createDb, migrate }, { createJobEngine }, { jobKindsFor }, { pingRedis }] = await Promise.all([
    import('../store/database.js'),
    import('../jobs/index.js'),
    import('../jobs/kinds/index.js'),
    import('../store/redis.js'),
  ]);
  const handle = createDb(config.databaseUrl);
  try {
    try {
      await migrate(handle.db);
    } catch (err) {
      throw new CliError(`cannot open the database: ${message(err)}`);
    }
    const engine = await createJobEngine(config, { db: handle.db, kinds: jobKindsFor(config) });
    try {
      if ('connection' in engine.queue) {
        await pingRedis(engine.queue.connection as Parameters<typeof pingRedis>[0]).catch((err: unknown) => {
          throw new CliError(message(err));
        });
      }
      return await fn(engine.queue);
    } finally {
      await engine.close();
    }
  } finally {
    await handle.close();
  }
}

export function registerWorkerCommands(program: Command): void {
  program
    .command('worker')
    .description(
      'Run the job workers without the HTTP server, until SIGTERM or SIGINT (running jobs then get PAGEGRADE_WORKER_SHUTDOWN_MS to finish).',
    )
    .option('--only <kinds>', 'run only these job kinds (comma-separated)')
    .action(async (opts: { only?: string }) => {
      const config = loadCliConfig();
      const { runWorkerProcess } = await import('../jobs/process.js');
      const only = opts.only
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      try {
        process.exitCode = await runWorkerProcess(config, only ? { only } : {});
      } catch (err) {
        if (err instanceof ConfigError) throw new CliError(err.message);
        throw new CliError(`cannot start: ${message(err)}`);
      }
    });

  const jobs = program.command('jobs').description('Look at the job queue; retry dead jobs.');
  jobs
    .command('counts')
    .description('Jobs by kind: waiting, running, delayed, dead.')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withQueue(async (queue) => {
        const counts = await queue.counts();
        if (opts.json)
          return void process.stdout.write(`${JSON.stringify({ engine: queue.engine, counts })}\n`);
        const rows = [['KIND', 'WAITING', 'RUNNING', 'DELAYED', 'DEAD']];
        for (const [kind, c] of Object.entries(counts).sort()) {
          rows.push([kind, String(c.waiting), String(c.active), String(c.delayed), String(c.dead)]);
        }
        process.stdout.write(`${queue.engine} engine\n${table(rows)}\n`);
      });
    });
  jobs
    .command('dead')
    .description('Dead jobs (failed every attempt, or permanently), newest first, with their last error.')
    .option('--kind <kind>', 'only this kind')
    .option('--limit <n>', 'at most this many (default 50)', '50')
    .option('--json', 'print JSON')
    .action(async (opts: { kind?: string; limit: string; json?: boolean }) => {
      if (!/^\d{1,5}$/.test(opts.limit) || Number(opts.limit) < 1) {
        throw new CliError(`--limit must be a whole number from 1, got "${opts.limit}"`);
      }
      await withQueue(async (queue) => {
        const dead = await queue
          .dead({ ...(opts.kind ? { kind: opts.kind } : {}), limit: Number(opts.limit) })
          .catch((err: unknown) => {
            throw new CliError(message(err));
          });
        if (opts.json) return void process.stdout.write(`${JSON.stringify(dead)}\n`);
        const rows = [['ID', 'KIND', 'ATTEMPTS', 'DIED', 'ERROR']];
        for (const j of dead) {
          rows.push([j.id, j.kind, String(j.attempts), j.failedAt ?? '-', (j.error ?? '').split('\n')[0]!]);
        }
        process.stdout.write(`${table(rows)}\n`);
      });
    });
  jobs
    .command('retry')
    .description('Put dead jobs back in the queue with a fresh set of attempts.')
    .argument('[ids...]', 'the dead jobs (see "pagegrade jobs dead")')
    .option('--all', 'every dead job (of --kind, when given)')
    .option('--kind <kind>', 'only this kind')
    .action(async (ids: string[], opts: { all?: boolean; kind?: string }) => {
      if (!opts.all && ids.length === 0) throw new CliError('give the ids of dead jobs, or --all');
      if (opts.all && ids.length > 0) throw new CliError('give either ids or --all, not both');
      await withQueue(async (queue) => {
        const n = await queue
          .retryDead(opts.all ? 'all' : ids, opts.kind ? { kind: opts.kind } : {})
          .catch((err: unknown) => {
            throw new CliError(message(err));
          });
        process.stdout.write(`${n} dead job${n === 1 ? '' : 's'} put back in the queue.\n`);
      });
    });
}
