// One way of writing numbers (issue 13 item 7): a page of 1,160,848 bytes reads "1.16 MB" in the
// page_size check's message, on the report page (facts and the check's value) and in the CLI's
// report; a passed count check shows no "Found: 0". Real app, real analyzer, real CLI process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { goodPage, html } from '../helpers/fixture-server.js';
import { Browser, createPagesHarness, type PagesHarness } from '../helpers/pages-harness.js';

const SIZE = 1_160_848;

/** the well-made page padded with a comment to exactly SIZE bytes */
function bigPage(origin: string): string {
  const base = goodPage(origin);
  const pad = SIZE - Buffer.byteLength(base) - '<!---->'.length;
  const page = base.replace('</body>', `<!--${'x'.repeat(pad)}--></body>`);
  assert.equal(Buffer.byteLength(page), SIZE);
  return page;
}

/** the part of the report page about one check */
function section(body: string, id: string): string {
  const start = body.indexOf(`id="check-${id}"`);
  assert.ok(start > 0, `no check ${id}`);
  const next = body.indexOf('id="check-', start + 10);
  return body.slice(start, next === -1 ? undefined : next);
}

describeEachDialect('numbers are written one way', (dialect) => {
  let h: PagesHarness;
  before(async () => {
    h = await createPagesHarness(dialect);
    h.fixture.route('/big', html(bigPage(h.fixture.origin)));
  });
  after(() => h.close());

  test('1,160,848 bytes: "1.16 MB" in the check message and on the report page; no "Found: 0"', async () => {
    const r = await h.report(h.alice, '/big');
    assert.equal(r.page.sizes.html_bytes, SIZE);
    const size = r.results.page_size!;
    assert.equal(size.passed, false);
    assert.equal(size.message, 'The HTML is 1.16 MB; keep it under 330 kB.');

    const res = await new Browser(h.app).get(`/reports/${r.id}`);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<dt>HTML size<\/dt><dd>1\.16 MB<\/dd>/);
    assert.match(section(res.body, 'page_size'), /Found:<\/span> <code>1\.16 MB<\/code>/);
    assert.ok(!/\b1161 kB|1133\.6 kB|1\.11 MB/.test(res.body), 'no other spelling of the size');

    const crawlable = r.results.crawlable_anchors!;
    assert.equal(crawlable.passed, true);
    assert.equal(crawlable.value, 0);
    assert.ok(
      !section(res.body, 'crawlable_anchors').includes('Found:'),
      'a passed check shows no "Found: 0"',
    );
  });

  test(
    'the CLI writes the same size',
    { skip: dialect.name !== 'sqlite' && 'the CLI needs no database' },
    async () => {
      const out = await runCli(['audit', `${h.fixture.origin}/big`], { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1' });
      assert.ok(out.code === 0 || out.code === 1, out.stderr);
      assert.match(out.stdout, /· 1\.16 MB HTML/);
      assert.match(out.stdout, /The HTML is 1\.16 MB; keep it under 330 kB\./);
    },
  );
});
