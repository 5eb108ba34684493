// Preload (node --import) that records every module a process loads: one URL a line, appended
// to the file named by PAGEGRADE_MODULE_LOG. test/cli/start.test.ts uses it to check that a
// command imports only what it uses.
import { register } from 'node:module';

if (process.env.PAGEGRADE_MODULE_LOG) {
  register(
    `data:text/javascript,${encodeURIComponent(`
      import { appendFileSync } from 'node:fs';
      const log = ${JSON.stringify(process.env.PAGEGRADE_MODULE_LOG)};
      export async function load(url, context, next) {
        if (!url.startsWith('node:')) appendFileSync(log, url + '\\n');
        return next(url, context);
      }`)}`,
  );
}
