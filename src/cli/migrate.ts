// `pagegrade migrate`: applies pending database migrations and exits — for deployments that
// migrate as a release step rather than at the first process's start (which also works: the
// server migrates at start, under an advisory lock on PostgreSQL).
import type { Command } from 'commander';
import { describeDatabase } from '../store/database-url.js';
import { loadCliConfig } from './config.js';
import { CliError } from './exit-codes.js';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations (DATABASE_URL) and exit.')
    .action(async () => {
      const config = loadCliConfig();
      const { createDb, migrate } = await import('../store/database.js');
      const handle = createDb(config.databaseUrl);
      try {
        await migrate(handle.db);
      } catch (err) {
        throw new CliError(`migration failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        await handle.close();
      }
      process.stdout.write(`The ${describeDatabase(config.databaseUrl)} is up to date.\n`);
    });
}
