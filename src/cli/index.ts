// The `pagegrade` command line: parses arguments and calls the library. Exit codes: exit-codes.ts.
// Starting is cheap: the command modules below import only commander and small helpers at the
// top; each command loads what it uses (the store, the services, the analyzer) when it runs.
// test/cli/start.test.ts keeps it so.
import { PACKAGE } from '../package-info.js';
import { Command, CommanderError } from 'commander';
import { EXIT, CliError } from './exit-codes.js';
import { registerAuditCommand } from './audit.js';
import { registerCrawlCommand } from './crawl.js';
import { registerUserCommands, registerKeyCommands } from './accounts.js';
import { registerMigrateCommand } from './migrate.js';
import { registerWorkerCommands } from './worker.js';

const program = new Command('pagegrade')
  .description('Pagegrade: audit web pages and keep the reports.')
  .version(PACKAGE.version, '-V, --version', 'print the version')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

registerAuditCommand(program);
registerCrawlCommand(program);
registerUserCommands(program);
registerKeyCommands(program);
registerMigrateCommand(program);
registerWorkerCommands(program);

// no top-level await: the bundle that `pagegrade` runs is CommonJS (scripts/build.mjs)
program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CommanderError) {
    // help and version exit 0; any usage error is exit 2 (SPEC §1)
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.error;
  } else if (err instanceof CliError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exitCode = err.code;
  } else {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT.error;
  }
});
