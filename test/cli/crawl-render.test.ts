// `pagegrade crawl URL --render` as a real process, in real headless Chromium, against the render
// tests' single-page app on 127.0.0.1 (every page the SPA's shell; its links exist only after
// app.js runs): the rendered crawl finds and audits the pages JavaScript links to, every page is
// rendered, the summary says so, and no Chromium process is left. Without --render the same
// crawl finds the start page only. Without Chromium (never skipped): exit 2 with how to install
// it, nothing fetched.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromiumProcesses } from '../../src/render/browser.js';
import { CHROMIUM, chromiumSkip } from '../helpers/chromium.js';
import { runCli as run } from '../helpers/cli.js';
import { html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { SPA_LINKS, SPA_SHELL, spaRoutes } from '../helpers/spa.js';

interface CrawlJson {
  batch: { status: string; options: { render: boolean }; progress: { discovered: number; audited: number } };
  pages: { url: string; state: string; result: string | null; render: string | null }[];
}

describe('pagegrade crawl --render', () => {
  let site: FixtureServer;
  const env = {
    PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
    PAGEGRADE_CRAWL_DELAY_MS: '0',
    PAGEGRADE_CHROMIUM_PATH: CHROMIUM,
  };

  before(async () => {
    site = await startFixtureServer();
    spaRoutes(site);
    for (const p of SPA_LINKS) site.route(p, html(SPA_SHELL));
  });
  after(() => site.close());

  test(
    'follows the links JavaScript made and renders every page (--json)',
    { skip: chromiumSkip },
    async () => {
      const before = chromiumProcesses().length;
      const r = await run(['crawl', `${site.origin}/spa`, '--render', '--json'], env);
      assert.ok(r.code === 0 || r.code === 1, `exit code ${r.code}: ${r.stderr}`);
      const out = JSON.parse(r.stdout) as CrawlJson;
      assert.equal(out.batch.status, 'done');
      assert.equal(out.batch.options.render, true);
      assert.equal(out.batch.progress.audited, 1 + SPA_LINKS.length);
      assert.deepEqual(out.pages.map((p) => new URL(p.url).pathname).sort(), ['/spa', ...SPA_LINKS].sort());
      for (const p of out.pages) {
        assert.equal(p.state, 'done', p.url);
        assert.equal(p.render, 'completed', p.url);
      }
      assert.equal(chromiumProcesses().length, before, 'no Chromium left by the command');
    },
  );

  test('the summary says the pages were rendered', { skip: chromiumSkip }, async () => {
    const r = await run(['crawl', `${site.origin}/spa`, '--render', '--max-pages', '3'], env);
    assert.ok(r.code === 0 || r.code === 1, `exit code ${r.code}: ${r.stderr}`);
    assert.match(r.stdout, /Pages: 3 found, 3 audited/);
    assert.match(r.stdout, /Rendered in Chromium: 3 page\(s\)/);
  });

  test('without --render the same crawl stays raw: the shell links nowhere', async () => {
    const r = await run(['crawl', `${site.origin}/spa`, '--json'], env);
    assert.ok(r.code === 0 || r.code === 1, `exit code ${r.code}: ${r.stderr}`);
    const out = JSON.parse(r.stdout) as CrawlJson;
    assert.equal(out.batch.options.render, false);
    assert.deepEqual(
      out.pages.map((p) => [new URL(p.url).pathname, p.render]),
      [['/spa', null]],
    );
  });

  test('without Chromium: exit 2 saying how to install it, nothing fetched', async () => {
    const seen = site.requests.length;
    const r = await run(['crawl', `${site.origin}/spa`, '--render'], {
      ...env,
      PAGEGRADE_CHROMIUM_PATH: '/nonexistent/chromium',
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /--render: Rendered audits need Chromium, which was not found at \/nonexistent\/chromium/,
    );
    assert.match(r.stderr, /apt-get install -y chromium/);
    assert.equal(site.requests.length, seen, 'nothing was fetched');
  });
});
