// Refreshes the golden reports of the fixture pages: audits every case of test/fixtures/pages
// with the real analyzer (served on 127.0.0.1), masks what changes from run to run and writes
// test/fixtures/pages/<case>/golden.json. Run it on purpose, after a change to checks or
// scoring, then review the diff (`git diff test/fixtures`) before committing.
//   npm run golden              every case
//   npm run golden -- good bare only these
// Each case is audited twice; a case whose two masked reports differ is not written (the
// masking misses a volatile field) and the script exits 1.
import { writeFileSync } from 'node:fs';
import {
  FIXTURE_PAGES_DIR,
  auditCase,
  fixtureCases,
  goldenText,
  maskVolatile,
  readGolden,
  startFixturePages,
} from '../test/helpers/fixture-pages.js';

const all = fixtureCases();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  console.error(`unknown case(s): ${unknown.join(', ')} (cases: ${all.join(', ')})`);
  process.exit(2);
}
const pages = await startFixturePages();
let failed = 0;
try {
  for (const name of wanted.length > 0 ? wanted : all) {
    const first = goldenText(maskVolatile(await auditCase(pages, name), pages.port));
    const second = goldenText(maskVolatile(await auditCase(pages, name), pages.port));
    if (first !== second) {
      console.error(`${name}: two audits differ after masking — a volatile field is not masked; not written`);
      failed++;
      continue;
    }
    const before = readGolden(name);
    const changed = before === null || goldenText(before) !== first;
    writeFileSync(`${FIXTURE_PAGES_DIR}${name}/golden.json`, first);
    console.log(`${name}: ${before === null ? 'written' : changed ? 'updated' : 'unchanged'}`);
  }
} finally {
  await pages.close();
}
process.exit(failed > 0 ? 1 : 0);
