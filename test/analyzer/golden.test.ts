// Golden reports: every fixture page of test/fixtures/pages/<case>/ (served on 127.0.0.1) is
// audited by the real analyzer and compared, with dates, timings and the port masked, to its
// committed golden.json. A difference means checks or scoring changed what they report: if
// that is intended, refresh the goldens with `npm run golden` and review `git diff test/fixtures`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  auditCase,
  fixtureCases,
  maskVolatile,
  readGolden,
  startFixturePages,
  type FixturePagesServer,
} from '../helpers/fixture-pages.js';

describe('golden reports of the fixture pages', () => {
  let pages: FixturePagesServer;
  before(async () => {
    pages = await startFixturePages();
  });
  after(() => pages.close());

  const cases = fixtureCases();
  test('there are fixture cases', () => {
    assert.ok(cases.length >= 5, `fixture cases: ${cases.join(', ')}`);
  });

  for (const name of cases) {
    test(`${name}: the report matches golden.json`, async () => {
      const golden = readGolden(name);
      assert.ok(golden !== null, `test/fixtures/pages/${name}/golden.json is missing: run npm run golden`);
      const actual = maskVolatile(await auditCase(pages, name), pages.port);
      assert.deepEqual(
        actual,
        golden,
        `the report of fixture "${name}" differs from its golden.json; if the change is intended, ` +
          'run `npm run golden` and review `git diff test/fixtures`',
      );
    });
  }

  test('masking leaves no port, date or timing behind', async () => {
    const text = JSON.stringify(maskVolatile(await auditCase(pages, 'good'), pages.port));
    assert.ok(!text.includes(`:${pages.port}`), 'port masked');
    assert.ok(!/\d{4}-\d\d-\d\dT\d\d:/.test(text), 'dates masked');
    assert.match(text, /"total_ms":"<ms>"/);
  });
});
