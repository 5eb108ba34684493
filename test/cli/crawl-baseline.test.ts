// `pagegrade crawl --baseline FILE --fail-on-regression` (docs/sites.md, "Comparing crawls"),
// the real command as a process against a fixture site on 127.0.0.1: `--json` is the baseline
// (with each page's noindex); the same site crawled again passes (exit 0, "No regression."); a
// site that changed (a page removed, one added, a title changed, a link broken, a page made
// noindex) exits 1 with the diff's summary and the reasons; --json carries the diff's summary;
// --fail-on-regression without --baseline and a file that is no crawl's JSON are usage errors.
// Custom extraction (--extract): a page whose extracted value changed is listed with its value
// before and after.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli as run } from '../helpers/cli.js';
import { html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const env = { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1', PAGEGRADE_CRAWL_DELAY_MS: '0' };

const page = (title: string, links: string[], head = '') =>
  html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="About ${title}">${head}</head><body><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`,
  );

describe('pagegrade crawl --baseline', () => {
  let site: FixtureServer;
  let dir: string;
  let baseline: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-baseline-'));
    baseline = join(dir, 'crawl.json');
    site = await startFixtureServer();
    site.route('/', page('Home', ['/a', '/b', '/c', '/d']));
    site.route('/a', page('Apples', ['/']));
    site.route('/b', page('Bananas', ['/']));
    site.route('/c', page('Cherries', ['/']));
    site.route('/d', page('Dates', ['/']));
  });
  after(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('--json is the baseline; the same site again: no regression, exit 0', async () => {
    const first = await run(['crawl', `${site.origin}/`, '--json'], env);
    assert.equal(first.code, 0, first.stderr);
    const json = JSON.parse(first.stdout) as { pages: { url: string; noindex: boolean | null }[] };
    assert.equal(json.pages.length, 5);
    assert.ok(json.pages.every((p) => p.noindex === false));
    writeFileSync(baseline, first.stdout);

    const again = await run(
      ['crawl', `${site.origin}/`, '--baseline', baseline, '--fail-on-regression'],
      env,
    );
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /Compared with the baseline:/);
    assert.match(again.stdout, /Pages: 0 added, 0 removed, 0 changed/);
    assert.match(again.stdout, /No regression\./);
  });

  test('a site that changed: the diff names the changes, exit 1 with the reasons', async () => {
    const o = site.origin;
    site.route('/', page('Home', ['/a', '/b', '/c', '/e']));
    site.route('/a', page('Apricots', ['/']));
    site.route('/b', page('Bananas', ['/', '/missing']));
    site.route('/c', page('Cherries', ['/'], '<meta name="robots" content="noindex">'));
    site.route('/d', { status: 404, body: 'gone' });
    site.route('/e', page('Elderberries', ['/']));

    const res = await run(['crawl', `${o}/`, '--baseline', baseline, '--fail-on-regression'], env);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stdout, /Pages: 2 added, 1 removed, 2 changed/);
    assert.match(res.stdout, new RegExp(`\\+ ${o}/e\\n`));
    assert.match(res.stdout, new RegExp(`\\+ ${o}/missing \\(404\\)`));
    assert.match(res.stdout, new RegExp(`- ${o}/d\\n`));
    assert.match(res.stdout, new RegExp(`~ ${o}/a: title`));
    assert.match(res.stdout, new RegExp(`~ ${o}/c: [a-z, ]*noindex`));
    assert.match(res.stdout, /new: .*\(broken_links\)/);
    assert.match(res.stdout, /Regressed: .*broken_links.*newly noindex/s);
    assert.match(res.stderr, /regressed against .*crawl\.json: exit 1/);

    // --json: the export with the diff's summary (stdout stays one JSON document)
    const json = await run(['crawl', `${o}/`, '--json', '--baseline', baseline], env);
    assert.equal(json.code, 0, 'no gate without --fail-on-regression (the pages are not bad)');
    const body = JSON.parse(json.stdout) as {
      diff: { regressed: boolean; summary: { pages: Record<string, number> }; reasons: { code: string }[] };
    };
    assert.equal(body.diff.regressed, true);
    assert.equal(body.diff.summary.pages['added'], 2);
    assert.deepEqual(
      body.diff.reasons
        .map((r) => r.code)
        .filter((c) => c !== 'pages_band_dropped' && c !== 'site_band_dropped'),
      ['high_priority_finding', 'pages_noindex'],
    );
    assert.match(json.stderr, /Compared with the baseline:/);
  });

  test('usage errors: --fail-on-regression alone, a file that is no crawl JSON (exit 2)', async () => {
    const alone = await run(['crawl', `${site.origin}/`, '--fail-on-regression'], env);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--fail-on-regression needs --baseline/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hello": 1}');
    const wrong = await run(['crawl', `${site.origin}/`, '--baseline', bad], env);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /not the JSON of `pagegrade crawl --json`/);
    const missing = await run(['crawl', `${site.origin}/`, '--baseline', join(dir, 'nope.json')], env);
    assert.equal(missing.code, 2);
  });

  test('--extract: the page whose extracted value changed, with its value before and after', async () => {
    const shop = await startFixtureServer();
    try {
      const product = (title: string, price: string) =>
        html(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="About ${title}"></head><body><h1>${title}</h1><a href="/">Home</a> <span class="price">${price}</span></body></html>`,
        );
      shop.route('/', page('Shop', ['/p1', '/p2']));
      shop.route('/p1', product('Product one', '€10.00'));
      shop.route('/p2', product('Product two', '€20.00'));
      const file = join(dir, 'shop.json');
      const first = await run(['crawl', `${shop.origin}/`, '--extract', 'price=css:.price', '--json'], env);
      assert.equal(first.code, 0, first.stderr);
      writeFileSync(file, first.stdout);
      shop.route('/p1', product('Product one', '€12.00'));
      const res = await run(
        [
          'crawl',
          `${shop.origin}/`,
          '--extract',
          'price=css:.price',
          '--baseline',
          file,
          '--fail-on-regression',
        ],
        env,
      );
      assert.equal(res.code, 0, res.stdout + res.stderr);
      assert.match(res.stdout, /Pages: 0 added, 0 removed, 1 changed/);
      assert.match(res.stdout, /Custom extraction \(price\): values changed on 1 page\n/);
      assert.match(res.stdout, new RegExp(`~ ${shop.origin}/p1: extracted; price “€10\\.00” → “€12\\.00”\n`));
      assert.doesNotMatch(res.stdout, /~ .*\/p2/);
      assert.match(res.stdout, /No regression\./);

      // --json: the diff's summary names the extractors compared
      const json = await run(
        ['crawl', `${shop.origin}/`, '--extract', 'price=css:.price', '--json', '--baseline', file],
        env,
      );
      assert.equal(json.code, 0, json.stderr);
      const body = JSON.parse(json.stdout) as { diff: { summary: { extracted: unknown } } };
      assert.deepEqual(body.diff.summary.extracted, { names: ['price'], changed: 1 });
    } finally {
      await shop.close();
    }
  });
});
