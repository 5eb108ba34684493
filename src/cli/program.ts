// The `pagegrade` program: its name, version, output and exit codes (exit-codes.ts), shared by
// the two entry points — index.ts (every command) and audit-main.ts (`pagegrade audit` alone,
// the bundle bin/pagegrade.js runs for that command: half the code to load; scripts/build.mjs).
import { PACKAGE } from '../package-info.js';
import { Command, CommanderError } from 'commander';
import { EXIT, CliError } from './exit-codes.js';

/** Builds the program with the given commands, parses process.argv and sets the exit code. */
export function runProgram(register: (program: Command) => void): void {
  const program = new Command('pagegrade')
    .description('Pagegrade: audit web pages and keep the reports.')
    .version(PACKAGE.version, '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  register(program);
  // no top-level await: the bundles that `pagegrade` runs are CommonJS
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
}
