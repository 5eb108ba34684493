// Preloaded into a measured process (node --require): at exit, appends the process's peak RSS
// (kilobytes, from getrusage) to the file named by PAGEGRADE_RSS_FILE. Used by bench/cli-start.ts.
// CommonJS, so that preloading it does not start Node's ES module loader in a process that
// would not otherwise start it (the baseline, and the CLI: bin/pagegrade.js is CommonJS).
'use strict';
const { appendFileSync } = require('node:fs');

const file = process.env.PAGEGRADE_RSS_FILE;
if (file) process.on('exit', () => appendFileSync(file, `${process.resourceUsage().maxRSS}\n`));
