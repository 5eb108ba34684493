// `pagegrade crawl` run as a real process against fixture sites on 127.0.0.1 (allowed through
// PAGEGRADE_ALLOW_PRIVATE_HOSTS=1, as the audit tests do): --json with the expected pages and
// findings, --csv parsed back (a URL with commas), --sitemap, the exit codes (1 below --fail-on
// or a --fail-on finding found, 1 when the crawl failed: the start URL cannot be fetched or
// answers an error; 2 when the address guard refuses it and for bad arguments; 130 on Ctrl-C
// with the partial summary), and plain progress lines when stderr is not a terminal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli as run } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv.js';
import { html, startFixtureServer, type FixtureServer, closedPort } from '../helpers/fixture-server.js';

const env = { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1', PAGEGRADE_CRAWL_DELAY_MS: '0' };
const bin = new URL('../../bin/pagegrade.js', import.meta.url).pathname;
/** util-linux script(1) runs the command on a pseudo-terminal (the progress bar's case) */
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));
const noTerminal = SCRIPT
  ? false
  : 'script(1) (util-linux) not found: the terminal progress bar is not tested';
if (noTerminal) console.log(`# ${noTerminal}`);

/** A plain page (it scores "decent": no viewport, little text, no caching headers …). */
function page(title: string, links: string[], extra = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="About ${title}"></head><body><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}${extra}</body></html>`;
}

const POOR = `<html><head><title>x</title><meta name="robots" content="noindex"></head>
<body><center><font>hi</font></center><img src="/a.png"><a href="javascript:void(0)">click here</a></body></html>`;

interface CrawlJson {
  batch: { status: string; url: string; progress: { discovered: number; audited: number } } & Record<
    string,
    unknown
  >;
  summary: { bands: Record<string, number> } | null;
  findings: { id: string; count: number; pages: { url: string }[] }[];
  pages: { url: string; state: string; result: string | null; report_id: number | null }[];
}

describe('pagegrade crawl', () => {
  let site: FixtureServer;
  let plain: FixtureServer;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-crawl-'));
    site = await startFixtureServer();
    const o = site.origin;
    site.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `User-agent: *\nDisallow: /private/\nSitemap: ${o}/sitemap.xml\n`,
    });
    site.route('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${o}/</loc></url><url><loc>${o}/a</loc></url><url><loc>${o}/orphan</loc></url></urlset>`,
    });
    site.route(
      '/',
      html(
        page(
          'Home',
          ['/a', '/list,all', '/poor', '/missing', '/private/x', 'http://elsewhere.test/'],
          '<a href="/hidden" rel="nofollow">Hidden</a>',
        ),
      ),
    );
    site.route('/a', html(page('Twin', ['/', '/b'])));
    site.route('/b', html(page('Twin', ['/a'])));
    site.route('/list,all', html(page('Everything, listed', ['/'])));
    site.route('/poor', html(POOR));
    site.route('/orphan', html(page('Orphan', ['/'])));
    // a site of one decent page
    plain = await startFixtureServer();
    plain.route('/', html(page('Plain', [])));
  });
  after(async () => {
    await site?.close();
    await plain?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test(
    '--json: the expected pages and findings; plain progress lines on a pipe; exit 1 for a bad page',
    { timeout: 120_000 },
    async () => {
      const r = await run(['crawl', `${site.origin}/`, '--json'], env);
      assert.equal(r.code, 1, r.stderr);
      const out = JSON.parse(r.stdout) as CrawlJson;
      assert.equal(out.batch.status, 'done');
      assert.ok(!('links' in out.batch), 'no links to a server that does not exist');
      const u = (p: string) => `${site.origin}${p}`;
      const byUrl = new Map(out.pages.map((p) => [p.url, p]));
      for (const p of ['/', '/a', '/b', '/list,all', '/poor', '/orphan'])
        assert.equal(byUrl.get(u(p))?.state, 'done', `${p}: ${JSON.stringify(byUrl.get(u(p)))}`);
      assert.equal(byUrl.get(u('/missing'))?.state, 'failed');
      assert.equal(byUrl.get(u('/private/x'))?.state, 'skipped', 'robots.txt: listed, never requested');
      assert.ok(!site.requests.includes('/private/x'));
      assert.ok(!site.requests.includes('/hidden'), 'nofollow links are not followed');
      assert.ok(![...byUrl.keys()].some((k) => k.includes('elsewhere')), 'stays on the site');
      assert.equal(byUrl.get(u('/poor'))?.result, 'bad');
      assert.ok(
        out.pages.every((p) => p.report_id === null),
        'no ids of a database that is gone',
      );
      const finding = (id: string) => out.findings.find((f) => f.id === id)!;
      assert.deepEqual(
        finding('duplicate_titles')
          .pages.map((p) => p.url)
          .sort(),
        [u('/a'), u('/b')],
      );
      assert.deepEqual(
        finding('broken_links').pages.map((p) => p.url),
        [u('/')],
      );
      assert.ok(finding('orphans').pages.some((p) => p.url === u('/orphan')));
      assert.equal(out.summary?.bands.bad, 1);

      // stderr is a pipe here: plain lines, no bar, no escape codes
      assert.match(r.stderr, /^done: 6 audited, 2 failed or skipped, 0 remaining of 8 found$/m);
      assert.match(r.stderr, /^(queued|running): \d+ audited/m);
      assert.ok(!r.stderr.includes('\r') && !r.stderr.includes('\u001b['), JSON.stringify(r.stderr));
      assert.match(r.stderr, /1 page bad \(--fail-on bad\): exit 1/);
    },
  );

  test(
    '--csv FILE parses back with the same pages (a URL with a comma quoted); the summary table',
    { timeout: 120_000 },
    async () => {
      const file = join(dir, 'pages.csv');
      const r = await run(['crawl', `${site.origin}/`, '--csv', file, '--max-pages', '50'], env);
      assert.equal(r.code, 1, r.stderr);
      const text = readFileSync(file, 'utf8');
      assert.ok(text.includes(`"${site.origin}/list,all"`), 'the comma is quoted');
      const rows = parseCsv(text);
      assert.equal(rows.length, 8);
      const row = rows.find((x) => x.url === `${site.origin}/list,all`)!;
      assert.equal(row.state, 'done');
      assert.match(row.score!, /^\d+$/);
      assert.equal(rows.find((x) => x.url?.endsWith('/missing'))?.error, 'The page answered HTTP 404.');
      // the summary table on stdout
      assert.match(r.stdout, /^Crawl of http:\/\/127\.0\.0\.1:\d+\/: done$/m);
      assert.match(r.stdout, /^Pages: 8 found, 6 audited, 1 failed, 1 skipped/m);
      assert.match(r.stdout, /^SCORE\s+RESULT\s+FAILED\s+URL$/m);
      assert.match(
        r.stdout,
        /^-\s+FAILED\s+-\s+http:\/\/127\.0\.0\.1:\d+\/missing \(The page answered HTTP 404\.\)$/m,
      );
      assert.match(r.stdout, /^\d+\s+BAD\s+\d+\s+http:\/\/127\.0\.0\.1:\d+\/poor$/m);
      assert.match(r.stdout, /^2\s+Pages that share a title$/m);
      assert.match(r.stderr, new RegExp(`CSV written to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    },
  );

  test('--sitemap audits the pages the sitemap lists', { timeout: 120_000 }, async () => {
    const r = await run(['crawl', `${site.origin}/sitemap.xml`, '--sitemap', '--json'], env);
    const out = JSON.parse(r.stdout) as CrawlJson;
    assert.equal(out.batch.status, 'done', r.stderr);
    assert.deepEqual(
      out.pages.map((p) => p.url).sort(),
      [`${site.origin}/`, `${site.origin}/a`, `${site.origin}/orphan`].sort(),
    );
    assert.equal(r.code, 0, 'no bad page in the sitemap');
  });

  test('--fail-on decent: exit 1 for a decent page (0 by default)', { timeout: 120_000 }, async () => {
    const normal = await run(['crawl', `${plain.origin}/`], env);
    assert.equal(normal.code, 0, normal.stdout + normal.stderr);
    assert.match(normal.stdout, /^\d+\s+DECENT\s+\d+\s+http:\/\/127\.0\.0\.1:\d+\/$/m);
    const strict = await run(['crawl', `${plain.origin}/`, '--fail-on', 'decent'], env);
    assert.equal(strict.code, 1, strict.stderr);
    assert.match(strict.stderr, /1 page decent or bad \(--fail-on decent\): exit 1/);
  });

  test(
    'on a terminal: a progress bar, then the summary',
    { timeout: 120_000, skip: noTerminal },
    async () => {
      const out = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
        const child = spawn(
          SCRIPT!,
          ['-qefc', `${process.execPath} ${bin} crawl ${plain.origin}/`, '/dev/null'],
          { env: { ...process.env, ...env, COLUMNS: '120' }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.stderr.on('data', (d: Buffer) => (text += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, text }));
      });
      assert.equal(out.code, 0, out.text);
      assert.ok(out.text.includes('\u001b['), 'the bar redraws itself with escape codes');
      assert.match(out.text, / 1\/1 pages \| 1 audited, 0 failed or skipped \| done/);
      assert.ok(!/^running: /m.test(out.text), 'no plain lines on a terminal');
      assert.match(out.text, /Crawl of http:\/\/127\.0\.0\.1:\d+\/: done/);
    },
  );

  test(
    'exit 1: the crawl failed — the start URL cannot be fetched, the start page answers an error',
    { timeout: 120_000 },
    async () => {
      const port = await closedPort();
      let r = await run(['crawl', `http://127.0.0.1:${port}/`], env);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /error: could not crawl http:\/\/127\.0\.0\.1:\d+\/: .*refused/);
      assert.match(r.stdout, /^Crawl of http:\/\/127\.0\.0\.1:\d+\/: /m, 'the summary of what happened');

      // a start page that answers 404 or 500 fails the crawl, with the answer named
      for (const status of [404, 500]) {
        plain.route(`/gone-${status}`, { status, body: 'no' });
        r = await run(['crawl', `${plain.origin}/gone-${status}`, '--json'], env);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, new RegExp(`error: could not crawl .*gone-${status}: .*HTTP ${status}`));
        const out = JSON.parse(r.stdout) as CrawlJson;
        assert.equal(out.pages[0]?.state, 'failed');
      }

      // a robots.txt that disallows every page: nothing audited is a failed crawl, not a pass
      const walled = await startFixtureServer();
      try {
        walled.route('/robots.txt', {
          headers: { 'content-type': 'text/plain' },
          body: 'User-agent: *\nDisallow: /\n',
        });
        walled.route('/', html(page('Walled', ['/a'])));
        r = await run(['crawl', `${walled.origin}/`], env);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.match(r.stderr, /error: could not crawl .*: robots\.txt disallows every page of the site\./);
        assert.ok(!walled.requests.includes('/'), 'the disallowed start page was never requested');
      } finally {
        await walled.close();
      }
    },
  );

  test(
    'exit 2: the address guard refuses the URL, no sitemap at a --sitemap URL, bad arguments',
    { timeout: 120_000 },
    async () => {
      let r;
      // the same address guard as the service: loopback needs PAGEGRADE_ALLOW_PRIVATE_HOSTS=1
      const asked = plain.requests.length;
      r = await run(['crawl', `${plain.origin}/`], {
        PAGEGRADE_CRAWL_DELAY_MS: '0',
        PAGEGRADE_ALLOW_PRIVATE_HOSTS: '0',
      });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /loopback address/);
      assert.equal(plain.requests.length, asked, 'nothing reached the site');

      r = await run(['crawl', `${plain.origin}/nothing.xml`, '--sitemap'], env);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /could not read a sitemap/);

      for (const args of [
        ['crawl', 'example.com'],
        ['crawl', `${plain.origin}/`, '--max-pages', '0'],
        ['crawl', `${plain.origin}/`, '--fail-on', 'good'],
        ['crawl', `${plain.origin}/`, '--fail-on', 'bad,decent'],
        ['crawl', `${plain.origin}/`, '--fail-on', 'no_such_finding'],
        ['crawl', `${plain.origin}/`, '--json', '--csv', '-'],
      ]) {
        r = await run(args, env);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /error/);
      }
    },
  );

  test(
    '--fail-on takes site finding ids too, beside or instead of a band',
    { timeout: 120_000 },
    async () => {
      // the site has broken links (/missing) and duplicate titles (/a, /b), and one bad page
      let r = await run(['crawl', `${site.origin}/`, '--fail-on', 'broken_links'], env);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /broken_links on 1 page \(--fail-on broken_links\): exit 1/);
      assert.doesNotMatch(r.stderr, /page bad/, 'no band asked for: the bad page alone does not fail it');
      r = await run(['crawl', `${site.origin}/`, '--fail-on', 'decent,duplicate_titles'], env);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /pages decent or bad \(--fail-on decent\); duplicate_titles on 2 pages/);
      // a finding the site does not have passes
      r = await run(['crawl', `${plain.origin}/`, '--fail-on', 'broken_links,duplicate_titles'], env);
      assert.equal(r.code, 0, r.stderr);
      r = await run(['crawl', '--help'], env);
      assert.match(r.stdout, /Exit codes:\n\s+0 /);
      assert.match(r.stdout, /130\s+stopped by Ctrl-C/);
    },
  );

  test(
    'Ctrl-C: the pages in progress finish, the partial summary is printed, exit 130',
    { timeout: 120_000 },
    async () => {
      // a slow site of many pages, so that the crawl is stopped in the middle
      const slow = await startFixtureServer();
      try {
        const links = Array.from({ length: 30 }, (_, i) => `/p${i}`);
        slow.route('/', html(page('Start', links)));
        for (const l of links)
          slow.route(l, (_req, res) => {
            setTimeout(() => {
              res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
              res.end(page(l, ['/']));
            }, 300);
          });
        const child = spawn(process.execPath, [bin, 'crawl', `${slow.origin}/`], {
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (/running: [1-9]\d* audited/.test(stderr) && !child.killed) child.kill('SIGINT');
        });
        const code = await new Promise<number | null>((r) => child.on('close', r));
        assert.equal(code, 130, stderr);
        assert.match(stderr, /Stopping: the pages in progress finish/);
        assert.match(stdout, /^Crawl of http:\/\/127\.0\.0\.1:\d+\/: cancelled$/m);
        assert.match(stdout, /^Pages: \d+ found, [1-9]\d* audited/m);
        assert.match(stderr, /Stopped by Ctrl-C.*exit 130/);
      } finally {
        await slow.close();
      }
    },
  );
});
