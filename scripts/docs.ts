// `npm run docs`: rewrites the generated sections of the docs (the check table, the scoring
// tables, the layer map of docs/architecture.md, docs/ci.md's reference and docs/ci.schema.json) from the code (scripts/docs-tables.ts), and BENCHMARKS.md's
// summary table from its sections' summary blocks (scripts/bench-summary.ts).
//   npm run docs             write them
//   npm run docs -- --check  exit 1 when a committed doc is stale (what test/docs.test.ts asserts)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchSummaryState } from './bench-summary.js';
import { ROOT, ciDocsState, docsState, layersState } from './docs-tables.js';

const check = process.argv.includes('--check');
let stale = 0;
for (const { file, committed, generated } of [
  ...docsState(),
  layersState(),
  ...ciDocsState(),
  benchSummaryState(),
]) {
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
