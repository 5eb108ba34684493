// `npm run docs`: rewrites the generated sections of the docs (the check table, the scoring
// tables) from the registry and the scoring table. See scripts/docs-tables.ts.
//   npm run docs             write them
//   npm run docs -- --check  exit 1 when a committed doc is stale (what test/docs.test.ts asserts)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, docsState } from './docs-tables.js';

const check = process.argv.includes('--check');
let stale = 0;
for (const { file, committed, generated } of docsState()) {
  if (committed === generated) {
    console.log(`${file}: up to date`);
  } else if (check) {
    console.error(`${file}: stale, run npm run docs`);
    stale++;
  } else {
    writeFileSync(join(ROOT, file), generated);
    console.log(`${file}: written`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
