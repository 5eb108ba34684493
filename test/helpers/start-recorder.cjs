// Preloaded (node --require) into a `pagegrade` process by test/cli/bundle.test.ts: at exit,
// writes to PAGEGRADE_START_LOG each script compiled with vm.Script (file, whether a code cache
// was given and whether V8 rejected it) and the Node modules the process loaded.
// CommonJS, so that preloading it starts no ES module loader of its own.
'use strict';
const { writeFileSync } = require('node:fs');
const vm = require('node:vm');

const scripts = [];
vm.Script = class RecordedScript extends vm.Script {
  constructor(code, options) {
    super(code, options);
    scripts.push({
      filename: options?.filename,
      cachedData: options?.cachedData !== undefined,
      rejected: this.cachedDataRejected === true,
    });
  }
};
process.on('exit', () =>
  writeFileSync(
    process.env.PAGEGRADE_START_LOG,
    JSON.stringify({ scripts, modules: process.moduleLoadList }),
  ),
);
