// `pagegrade crawl --extract` run as a real process against a fixture site on 127.0.0.1
// (PAGEGRADE_ALLOW_PRIVATE_HOSTS=1, as the other crawl tests): a CSS, an XPath (an attribute)
// and a regex extractor give each page's values in --json (`extracted`) and as --csv columns;
// an invalid one is exit 2 naming which --extract and why (docs/sites.md, "Custom extraction").
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli as run } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv.js';
import { html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const env = { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1', PAGEGRADE_CRAWL_DELAY_MS: '0' };
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}<a href="/">Home</a> <a href="/item">Item</a></body></html>`;

describe('pagegrade crawl --extract', () => {
  let site: FixtureServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-extract-'));
    site = await startFixtureServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': html(page('Home', '<p>Nothing here.</p>')),
      '/item': html(
        page(
          'Item',
          '<span class="price">9.99</span><link itemprop="image" href="/i.png"><script>id="UA-1234"</script>',
        ),
      ),
      // linked from nowhere: the time bound's crawl starts there (one page)
      '/big': html(page('Big', '<p>item</p>'.repeat(20_000))),
    });
  });
  after(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("--json and --csv carry each page's values", { timeout: 120_000 }, async () => {
    const file = join(dir, 'out.csv');
    const r = await run(
      [
        'crawl',
        `${site.origin}/`,
        '--json',
        '--csv',
        file,
        '--extract',
        'price=css:.price',
        '--extract',
        'image@href=xpath://link[@itemprop="image"]',
        '--extract',
        'ua=regex:UA-(\\d+)',
      ],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { pages: { url: string; extracted: Record<string, unknown> }[] };
    const byPath = Object.fromEntries(out.pages.map((p) => [new URL(p.url).pathname, p.extracted]));
    assert.deepEqual(byPath['/item'], { price: '9.99', image: '/i.png', ua: '1234' });
    assert.deepEqual(byPath['/'], { price: null, image: null, ua: null });
    const rows = parseCsv(readFileSync(file, 'utf8'));
    const item = rows.find((row) => row['url']!.endsWith('/item'))!;
    assert.equal(item['price'], '9.99');
    assert.equal(item['image'], '/i.png');
    assert.equal(item['ua'], '1234');
  });

  test(
    'an extractor that runs past PAGEGRADE_EXTRACT_TIMEOUT_MS is stopped: null, with extract_errors naming it',
    { timeout: 120_000 },
    async () => {
      // the worker's module as the command runs it: the bundle's dist/crawl/ beside it when dist/
      // is current, else the sources through tsx (test/helpers/cli.ts)
      const r = await run(
        [
          'crawl',
          `${site.origin}/big`,
          '--max-pages',
          '1',
          '--json',
          '--extract',
          'heading=css:h1',
          '--extract',
          'slow=xpath://*[count(//*) > 0]',
          '--extract',
          'title=xpath://title',
        ],
        { ...env, PAGEGRADE_EXTRACT_TIMEOUT_MS: '1000' },
      );
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as {
        pages: { url: string; extracted: Record<string, unknown>; extract_errors: Record<string, string> }[];
      };
      assert.equal(out.pages.length, 1);
      assert.deepEqual(out.pages[0]!.extracted, { heading: 'Big', slow: null, title: 'Big' });
      assert.match(
        out.pages[0]!.extract_errors['slow'] ?? '',
        /^Timed out: the xpath extractor "slow" ran longer than 1 s/,
      );
    },
  );

  test('an invalid extractor: exit 2 naming it', { timeout: 60_000 }, async () => {
    const r = await run(
      ['crawl', `${site.origin}/`, '--extract', 'ok=css:p', '--extract', 'bad=xpath://p['],
      env,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--extract #2\.xpath is not a valid XPath 1\.0 expression/);
    const none = await run(['crawl', `${site.origin}/`, '--extract', 'nothing'], env);
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /--extract #1 must have exactly one of css, xpath or regex/);
  });
});
