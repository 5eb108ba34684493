// `pagegrade audit` run as a real process against a fixture site on 127.0.0.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli as run } from '../helpers/cli.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const POOR_PAGE = `<html><head><title>x</title><meta name="robots" content="noindex"><script src="/a.js"></script></head>
<body><center><font>hi</font></center><img src="/a.png"><a href="javascript:void(0)">click here</a>
<p style="color:red">Write to me at someone@example.com</p></body></html>`;

describe('pagegrade audit', () => {
  let site: FixtureServer;
  const allow = { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1' };

  before(async () => {
    site = await startFixtureServer();
    site.route('/', html(goodPage(site.origin)));
    site.route('/poor', html(POOR_PAGE, { server: 'Apache/2.2.3 (CentOS)', 'x-powered-by': 'PHP/5.3.3' }));
    site.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `User-agent: *\nAllow: /\nSitemap: ${site.origin}/sitemap.xml\n`,
    });
    site.route('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/</loc></url></urlset>`,
    });
    site.route('/favicon.png', {
      headers: { 'content-type': 'image/png' },
      body: Buffer.from([137, 80, 78, 71]),
    });
  });
  after(() => site.close());

  test('--json prints the report object without the stored-report fields', async () => {
    const r = await run(['audit', `${site.origin}/`, '--json'], allow);
    assert.ok(r.code === 0 || r.code === 1, `exit code ${r.code}: ${r.stderr}`);
    const report = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const key of [
      'url',
      'final_url',
      'project',
      'result',
      'score',
      'generated_at',
      'categories',
      'results',
      'page',
    ]) {
      assert.ok(key in report, `missing ${key}`);
    }
    for (const key of ['id', 'privacy', 'has_password', 'links', 'created_at', 'updated_at']) {
      assert.ok(!(key in report), `unexpected ${key}`);
    }
    assert.equal(report.url, `${site.origin}/`);
    assert.equal(report.project, '127.0.0.1');
    // exit code follows the result: 0 for good and decent, 1 for bad
    assert.equal(r.code, report.result === 'bad' ? 1 : 0);
  });

  test('a well-made page is good and exits 0; the terminal report lists categories', async () => {
    const r = await run(['audit', `${site.origin}/`], allow);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Result: GOOD/);
    assert.match(r.stdout, /SEO\s+\d+/);
    assert.match(r.stdout, /Passed checks \(\d+\)/);
    assert.ok(!r.stdout.includes('\u001b['), 'no colours when stdout is not a TTY');
  });

  test('a poor page is bad, exits 1, and lists failed checks first with their fix', async () => {
    const r = await run(['audit', `${site.origin}/poor`], allow);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /Result: BAD/);
    const failedAt = r.stdout.indexOf('Failed checks');
    const passedAt = r.stdout.indexOf('Passed checks');
    assert.ok(failedAt > 0 && failedAt < passedAt);
    assert.match(r.stdout, /Fix: /);
  });

  test("the page's own text cannot put control characters on the terminal", async () => {
    // &#27; is ESC: a heading that would clear the screen, link text that would forge colours
    site.route(
      '/escapes',
      html(
        '<html lang="en"><head><title>Escapes</title></head><body><h1>one&#27;[2J</h1><h1>two</h1>' +
          '<a>no link&#27;]0;title&#7;</a><a href="/x">here&#27;[31m</a></body></html>',
      ),
    );
    const r = await run(['audit', `${site.origin}/escapes`], allow);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    assert.ok(!r.stdout.includes('\u001b'), 'no raw ESC in the output');
    assert.ok(!r.stdout.includes('\u0007'), 'no raw BEL in the output');
    assert.match(r.stdout, /one\\x1b\[2J/);
  });

  test('--fail-on decent fails a decent or bad page; good still passes', async () => {
    const good = await run(['audit', `${site.origin}/`, '--fail-on', 'decent', '--json'], allow);
    const report = JSON.parse(good.stdout) as { result: string };
    assert.equal(good.code, report.result === 'good' ? 0 : 1);
    const poor = await run(['audit', `${site.origin}/poor`, '--fail-on', 'decent'], allow);
    assert.equal(poor.code, 1);
  });

  test('an error page is bad and fails the gate (exit 1), even with --fail-on bad; noindex caps at decent', async () => {
    site.route('/missing', html(goodPage(site.origin), {}, 404));
    const r = await run(['audit', `${site.origin}/missing`, '--fail-on', 'bad', '--json'], allow);
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout) as {
      result: string;
      score: number;
      results: Record<string, { message: string }>;
    };
    assert.equal(report.result, 'bad');
    assert.equal(report.score, 48);
    assert.match(report.results.http_status!.message, /404 Not Found.*capped at 48 \(bad\)/);
    const text = await run(['audit', `${site.origin}/missing`], allow);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /Result: BAD/);

    site.route(
      '/noindex',
      html(goodPage(site.origin).replace('<head>', '<head><meta name="robots" content="noindex">')),
    );
    const hidden = await run(['audit', `${site.origin}/noindex`, '--json'], allow);
    assert.equal(hidden.code, 0, 'decent passes the default gate');
    assert.equal((JSON.parse(hidden.stdout) as { result: string }).result, 'decent');
    const strict = await run(['audit', `${site.origin}/noindex`, '--fail-on', 'decent'], allow);
    assert.equal(strict.code, 1);
  });

  test('exit 2: unreachable page, refused private address, bad URL, bad option', async () => {
    const closed = await startFixtureServer();
    const deadOrigin = closed.origin;
    await closed.close();
    const refused = await run(['audit', `${deadOrigin}/`], allow);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /error: could not audit/);

    const seen = site.requests.length;
    const privateHost = await run(['audit', `${site.origin}/`], { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '0' });
    assert.equal(privateHost.code, 2);
    assert.match(privateHost.stderr, /loopback|private|reserved/i);
    assert.equal(site.requests.length, seen, 'a refused host is never connected to');

    const badUrl = await run(['audit', 'ftp://example.com/']);
    assert.equal(badUrl.code, 2);
    assert.match(badUrl.stderr, /not an absolute http or https URL/);

    const badOption = await run(['audit', `${site.origin}/`, '--fail-on', 'great'], allow);
    assert.equal(badOption.code, 2);
    assert.match(badOption.stderr, /decent, bad/);

    const missing = await run(['audit']);
    assert.equal(missing.code, 2);
  });
});
