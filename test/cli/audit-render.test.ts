// `pagegrade audit URL --render` as a real process, in real headless Chromium, against a
// single-page app served on 127.0.0.1: the JavaScript-built title, description and h1 pass in
// the rendered audit, `render` lists what JavaScript changed, the terminal report says so on
// stderr, and no Chromium process is left behind. Without Chromium (never skipped): exit 2 with
// how to install it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromiumSkip, CHROMIUM } from '../helpers/chromium.js';
import { runCli as run } from '../helpers/cli.js';
import { html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { chromiumProcesses } from '../../src/render/browser.js';

const SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="/app.js" defer></script></head><body><div id="app"></div></body></html>`;
const APP = `document.title = 'Garden tools rendered by JavaScript for the CLI';
const m = document.createElement('meta'); m.name = 'description';
m.content = 'Spades, forks and shears for careful gardeners: chosen, tested and explained with honest advice on use and care.';
document.head.appendChild(m);
document.getElementById('app').innerHTML = '<h1>Garden tools</h1><p>' + 'Tools for the garden, explained. '.repeat(40) + '</p>';`;

describe('pagegrade audit --render', () => {
  let site: FixtureServer;
  const env = { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1', PAGEGRADE_CHROMIUM_PATH: CHROMIUM };

  before(async () => {
    site = await startFixtureServer();
    site.route('/spa', html(SHELL));
    site.route('/app.js', { headers: { 'content-type': 'text/javascript' }, body: APP });
  });
  after(() => site.close());

  test(
    'renders the page: JavaScript-built title, description and h1 pass; render lists the differences',
    { skip: chromiumSkip },
    async () => {
      const before = chromiumProcesses().length;
      const r = await run(['audit', `${site.origin}/spa`, '--render', '--json'], env);
      assert.ok(r.code === 0 || r.code === 1, `exit code ${r.code}: ${r.stderr}`);
      const report = JSON.parse(r.stdout) as {
        results: Record<string, { passed: boolean | null }>;
        render: {
          mode: string;
          status: string;
          differences: {
            id: string;
            raw: { passed: boolean | null };
            rendered: { passed: boolean | null };
          }[];
        };
      };
      assert.equal(report.render.mode, 'rendered');
      assert.equal(report.render.status, 'completed');
      for (const id of ['title', 'meta_description', 'headings']) {
        assert.equal(report.results[id]?.passed, true, `${id} passes rendered`);
        const d = report.render.differences.find((x) => x.id === id);
        assert.ok(d, `${id} is a difference`);
        assert.equal(d.raw.passed, false);
        assert.equal(d.rendered.passed, true);
      }
      assert.equal(chromiumProcesses().length, before, 'no Chromium left by the command');
    },
  );

  test('the terminal report says what JavaScript changed (stderr)', { skip: chromiumSkip }, async () => {
    const r = await run(['audit', `${site.origin}/spa`, '--render'], env);
    assert.ok(r.code === 0 || r.code === 1, `exit code ${r.code}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /Rendered in Chromium \(\d+ ms, \d+ requests\): \d+ check\(s\) changed by JavaScript/,
    );
    // the rendered results: the title passes, and the browser-only checks are listed
    assert.match(r.stdout, /✓ The page has a title of a good length \[title\]/);
    assert.match(r.stdout, /\[console_errors\]/);
  });

  test('without Chromium: exit 2 saying how to install it, nothing fetched', async () => {
    const r = await run(['audit', `${site.origin}/spa`, '--render'], {
      ...env,
      PAGEGRADE_CHROMIUM_PATH: '/nonexistent/chromium',
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /--render: Rendered audits need Chromium, which was not found at \/nonexistent\/chromium/,
    );
    assert.match(r.stderr, /apt-get install -y chromium/);
  });
});
