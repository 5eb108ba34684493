// Loaded into every test process (scripts/run-tests.mjs: --import).
//
// Node 20's assert.ok(value) without a message builds one by re-reading the test file at the
// failing call's line. Under tsx that line is the transpiled code's, and when it lies past the
// end of the .ts file Node's reader loops forever: a failing bare assert.ok(x) hangs the whole
// run instead of failing (seen in test/pages/pages.test.ts). With a message Node skips that
// reader, so a bare call gets one naming the value it received.
//
// It also loads typebox and kysely as one bundle each (bundled-deps.mjs: a second of CPU less
// for every test process that loads the app).
import './bundled-deps.mjs';
import assert from 'node:assert';
import { syncBuiltinESMExports } from 'node:module';
import { inspect } from 'node:util';

const original = assert.ok;
function ok(...args) {
  if (args.length === 1 && !args[0]) {
    const shown = inspect(args[0], { depth: 1, breakLength: Infinity }).slice(0, 200);
    return original(args[0], `Expected a truthy value, got ${shown}`);
  }
  return original(...args);
}
assert.ok = ok;
assert.strict.ok = ok;
syncBuiltinESMExports();
