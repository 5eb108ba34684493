// The `pagegrade` command line: parses arguments and calls the library. Exit codes: exit-codes.ts.
// Starting is cheap: the command modules below import only commander and small helpers at the
// top; each command loads what it uses (the store, the services, the analyzer) when it runs.
// test/cli/start.test.ts keeps it so. `pagegrade audit` runs from audit-main.ts when built.
import { runProgram } from './program.js';
import { registerAuditCommand } from './audit.js';
import { registerCrawlCommand } from './crawl.js';
import { registerCiCommand } from './ci/command.js';
import { registerUserCommands, registerKeyCommands, registerOrganizationCommands } from './accounts.js';
import { registerMigrateCommand } from './migrate.js';
import { registerPeopleCommands } from './people.js';
import { registerWorkerCommands } from './worker.js';
import { registerMcpCommand } from './mcp.js';

runProgram((program) => {
  registerAuditCommand(program);
  registerCrawlCommand(program);
  registerCiCommand(program);
  registerUserCommands(program);
  registerPeopleCommands(program);
  registerKeyCommands(program);
  registerOrganizationCommands(program);
  registerMigrateCommand(program);
  registerWorkerCommands(program);
  registerMcpCommand(program);
});
