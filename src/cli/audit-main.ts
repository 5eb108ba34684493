// `pagegrade audit` on its own: the entry of dist/bundle/audit.cjs, which bin/pagegrade.js runs
// when the command is `audit` (the one a CI pipeline runs per page; scripts/build.mjs). The
// same program and the same command as index.ts, without the others' code to load.
import { runProgram } from './program.js';
import { registerAuditCommand } from './audit.js';

runProgram(registerAuditCommand);
