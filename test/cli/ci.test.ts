// `pagegrade ci` run as a real process (issue 23 §1): a config file, pages served on 127.0.0.1
// (its own `serve` of a temporary folder, the fixture server, a `start` command), exit 0/1/2,
// assertMatrix, budgets, the median of runs, a crawl's site findings, and config errors that
// name the key.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { checks } from '../../src/analyzer/checks/index.js';
import { FINDINGS } from '../../src/crawl/findings/index.js';
import { loadCiConfig } from '../../src/cli/ci/config.js';
import { CliError } from '../../src/cli/exit-codes.js';
import { BROWSER_CHECK_IDS } from '../../src/analyzer/rendered.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { useColour } from '../../src/cli/ci/runner.js';
import { Ajv } from 'ajv';

interface Results {
  pages: {
    url: string;
    figures: Record<string, number | null>;
    runs: Record<string, number | null>[];
    outcomes: { id: string; level: string; passed: boolean | null; actual: number | null }[];
  }[];
  site: { url: string; outcomes: { id: string; passed: boolean | null; actual: number | null }[] } | null;
}

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page about pagegrade tests</title></head><body><h1>Pagegrade tests</h1>${body}</body></html>`;

let dir: string;
let n = 0;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrade-ci-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A folder of its own with the config (JSON, or YAML text) and the site files given. */
function project(
  config: object | string,
  files: Record<string, string> = {},
  name = 'pagegrade.config.json',
) {
  const root = join(dir, `p${++n}`);
  mkdirSync(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, name), typeof config === 'string' ? config : JSON.stringify(config));
  return { root, config: join(root, name), json: join(root, 'results.json') };
}

const bin = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** A shell command starting a server on the port (after 300 ms) that writes its pid, and "slow" when /slow is asked (never answered). */
function starter(port: number, pids: string): string {
  const code = `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(pids)}, process.pid + '\\n'); setTimeout(() => require('http').createServer((q, s) => { if (q.url === '/slow') return fs.appendFileSync(${JSON.stringify(pids)}, 'slow\\n'); s.writeHead(200, {'content-type': 'text/html'}); s.end(${JSON.stringify(page('<p>started</p>'))}); }).listen(${port}, '127.0.0.1'), 300)`;
  return `${JSON.stringify(process.execPath)} -e ${JSON.stringify(code)}`;
}

/** Has the process ended (within 5 s)? */
async function gone(pid: number): Promise<boolean> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 50 && alive(); i++) await new Promise((ok) => setTimeout(ok, 100));
  return !alive();
}

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(['ci', ...args], { CI: 'true', ...env });
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Results;

describe('pagegrade ci', () => {
  let site: FixtureServer;
  /** load times of /slow, in the order asked */
  const delays = [40, 600, 200];
  let slowHits = 0;

  before(async () => {
    site = await startFixtureServer();
    site.route('/', html(goodPage(site.origin)));
    site.route('/no-alt', html(page('<img src="/a.png" width="10" height="10">')));
    site.route('/slow', async (_req, res) => {
      await new Promise((r) => setTimeout(r, delays[slowHits++ % delays.length]));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page('<p>slow</p>'));
    });
  });
  after(() => site.close());

  test('exit 0 when every error-level assertion holds; a warning does not fail', async () => {
    const p = project(
      {
        serve: 'public',
        assertions: {
          image_keywords: 'error',
          'categories.seo': ['error', { min: 10 }],
          html_size: ['warn', { max: 10 }],
        },
      },
      { 'public/index.html': page('<img src="a.png" alt="A chart of the tests" width="10" height="10">') },
    );
    const r = await run(['--config', p.config, '--json', p.json]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const [only] = read(p.json).pages;
    assert.match(only!.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const by = Object.fromEntries(only!.outcomes.map((o) => [o.id, o]));
    assert.equal(by.image_keywords?.passed, true);
    assert.equal(by['categories.seo']?.passed, true);
    assert.equal(by.html_size?.passed, false);
    assert.equal(by.html_size?.level, 'warn');
    assert.match(r.stdout, /WARN\s+html_size/);
    assert.match(r.stdout, /Every error-level assertion holds: exit 0/);
    // plain text in CI logs: no colour codes
    assert.ok(!r.stdout.includes('\u001b['), 'no escape codes');
  });

  test('exit 1 when an error-level check fails, named in the table', async () => {
    const p = project({ urls: [`${site.origin}/no-alt`], assertions: { image_keywords: 'error' } });
    const r = await run(['--config', p.config], { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1' });
    assert.equal(r.code, 1, r.stderr + r.stdout);
    assert.match(r.stdout, /FAIL\s+image_keywords/);
    assert.match(r.stdout, /1 error-level assertion\(s\) failed: exit 1/);
  });

  test('assertMatrix turns a check off for the URLs its glob matches', async () => {
    const files = {
      'site/legacy/old.html': page('<img src="/a.png" width="10" height="10">'),
      'site/new.html': page('<img src="/a.png" alt="The new chart" width="10" height="10">'),
    };
    const base = {
      serve: 'site',
      urls: ['/legacy/old.html', '/new.html'],
      assertions: { image_keywords: 'error' },
    };
    const without = project(base, files);
    assert.equal((await run(['--config', without.config])).code, 1);
    const p = project(
      {
        ...base,
        assertMatrix: [{ matchingUrlPattern: '/legacy/**', assertions: { image_keywords: 'off' } }],
      },
      files,
    );
    const r = await run(['--config', p.config, '--json', p.json]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const [legacy, fresh] = read(p.json).pages;
    assert.ok(!legacy!.outcomes.some((o) => o.id === 'image_keywords'), 'off under /legacy/**');
    assert.equal(fresh!.outcomes.find((o) => o.id === 'image_keywords')?.passed, true);
    // a whole-URL glob too
    const q = project(
      {
        ...base,
        assertMatrix: [
          { matchingUrlPattern: 'http://127.0.0.1:*/legacy/*.html', assertions: { image_keywords: 'off' } },
        ],
      },
      files,
    );
    assert.equal((await run(['--config', q.config])).code, 0);
  });

  test('a budget over its maximum fails the run, naming the figure and the value', async () => {
    const body = page('<p>' + 'words '.repeat(200) + '</p>');
    const p = project(
      { serve: '.', urls: ['/index.html'], budgets: { html_size: 500, 'resources.images': 5 } },
      { 'index.html': body },
    );
    const r = await run(['--config', p.config, '--json', p.json]);
    assert.equal(r.code, 1, r.stderr + r.stdout);
    const out = read(p.json).pages[0]!;
    assert.equal(out.figures.html_size, Buffer.byteLength(body));
    assert.equal(out.outcomes.find((o) => o.id === 'html_size')?.passed, false);
    assert.equal(out.outcomes.find((o) => o.id === 'resources.images')?.passed, true);
    assert.match(r.stdout, new RegExp(`FAIL\\s+html_size\\s+${Buffer.byteLength(body)}\\s+≤ 500`));
  });

  test('runs: 3 judges the median of the three load times', async () => {
    slowHits = 0;
    const p = project({
      urls: [`${site.origin}/slow`],
      runs: 3,
      assertions: { load_time_ms: ['error', { max: 450 }] },
    });
    const r = await run(['--config', p.config, '--json', p.json], { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1' });
    const out = read(p.json).pages[0]!;
    const times = out.runs.map((x) => x.load_time_ms!);
    assert.equal(times.length, 3);
    // each run took at least its delay (a loaded machine adds to any of them)
    assert.ok(times[0]! >= 40 && times[1]! >= 600 && times[2]! >= 200, times.join(', '));
    const median = [...times].sort((a, b) => a - b)[1]!;
    assert.equal(out.figures.load_time_ms, median);
    // the budget judges the median, not the slowest run (600 ms and more, over the budget) nor the mean
    const judged = out.outcomes.find((o) => o.id === 'load_time_ms');
    assert.equal(judged?.actual, median);
    assert.equal(judged?.passed, median <= 450);
    assert.equal(r.code, median <= 450 ? 0 : 1, r.stderr + r.stdout);
    assert.match(r.stderr, /run 3 of 3/);
  });

  test('start: the command is spawned, waited for, audited and killed with its children', async () => {
    const port = await freePort();
    const pids = join(dir, `pids-${port}`);
    const p = project({
      // the shell waits on a child server: the grandchild must die too
      start: { command: `${starter(port, pids)}; sleep 30`, url: `http://127.0.0.1:${port}/` },
      urls: ['/'],
      assertions: { 'categories.seo': ['error', { min: 1 }] },
    });
    const r = await run(['--config', p.config, '--json', p.json]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(read(p.json).pages[0]!.url, `http://127.0.0.1:${port}/`);
    const pid = Number(readFileSync(pids, 'utf8').trim());
    assert.equal(await gone(pid), true, `the started server (pid ${pid}) was not stopped`);
  });

  test('start: a server left in the background by the shell is waited for, and killed when the CI cancels the run (SIGTERM)', async () => {
    const port = await freePort();
    const pids = join(dir, `pids-${port}`);
    const p = project({
      start: { command: `${starter(port, pids)} &`, url: `http://127.0.0.1:${port}/` },
      urls: ['/slow'],
    });
    const child = spawn(process.execPath, [bin, 'ci', '--config', p.config], {
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((ok) => child.on('close', (code) => ok(code)));
    // the audit of /slow has begun: the server saw it (it never answers)
    for (let i = 0; i < 300 && !(existsSync(pids) && readFileSync(pids, 'utf8').includes('slow')); i++)
      await new Promise((ok) => setTimeout(ok, 100));
    assert.match(readFileSync(pids, 'utf8'), /slow/, stderr);
    child.kill('SIGTERM');
    assert.equal(await closed, 143, stderr);
    const pid = Number(readFileSync(pids, 'utf8').split('\n')[0]);
    assert.equal(await gone(pid), true, `the background server (pid ${pid}) was not stopped`);
  });

  test('crawl: site findings asserted (a broken link fails), its pages audited too', async () => {
    const p = project(
      { serve: 'www', crawl: { start: '/', max_pages: 10 }, assertions: { broken_links: 'error' } },
      {
        'www/index.html': page('<a href="/about.html">About us</a> <a href="/gone.html">Old page</a>'),
        'www/about.html': page('<a href="/">Home page</a>'),
      },
    );
    const r = await run(['--config', p.config, '--json', p.json]);
    assert.equal(r.code, 1, r.stderr + r.stdout);
    const out = read(p.json);
    assert.deepEqual(out.pages.map((x) => new URL(x.url).pathname).sort(), ['/', '/about.html']);
    const broken = out.site!.outcomes.find((o) => o.id === 'broken_links');
    assert.equal(broken?.passed, false);
    assert.ok((broken?.actual ?? 0) >= 1);
    assert.match(r.stdout, /FAIL\s+broken_links/);
  });

  test('exit 2 for a bad config, naming the key path and what it allows', async () => {
    const bad = project({ urls: ['https://example.invalid/'], assertions: { image_keywords: 'fatal' } });
    let r = await run(['--config', bad.config]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /assertions\.image_keywords: must be "off", "warn", "error", or \[level/);

    // the rest in this process (the same function the command calls): every problem at once
    const known = { checks: checks.map((c) => c.id), findings: FINDINGS.map((f) => f.id) };
    const problems = (file: string) => {
      try {
        loadCiConfig(file, known, dir);
      } catch (err) {
        assert.ok(err instanceof CliError && err.code === 2, String(err));
        return err.message;
      }
      return assert.fail(`${file} was accepted`);
    };
    assert.match(
      problems(project({ urlz: ['/'] }).config),
      /urlz: unknown key; the keys are: \$schema, urls, serve, start, crawl, render, runs, preset, assertions, assertMatrix, budgets, upload, report/,
    );
    const ids = problems(
      project({
        urls: ['https://example.invalid/'],
        assertions: { no_such_check: 'error', image_keywords: ['error', { max: 1 }], lcp: 'error' },
        budgets: { speed: 3 },
        assertMatrix: [{ matchingUrlPattern: '/x', assertions: { 'categories.fun': 'warn' } }],
      }).config,
    );
    assert.match(ids, /assertions\.no_such_check: unknown id "no_such_check"/);
    assert.match(ids, /assertions\.image_keywords: a check takes a level only/);
    assert.match(ids, /assertions\.lcp: a figure needs bounds/);
    assert.match(ids, /budgets\.speed: unknown figure/);
    assert.match(ids, /assertMatrix\[0\]\.assertions\.categories\.fun: unknown id/);
    const yaml = problems(
      project('runs: 0\npreset: lax\nstart: {command: x}\n', {}, 'pagegrade.config.yaml').config,
    );
    assert.match(yaml, /runs: must be >= 1/);
    assert.match(yaml, /preset: must be one of "pagegrade:recommended", "pagegrade:strict"/);
    assert.match(yaml, /start\.url: required/);
    assert.match(problems(project('urls: [1, 2\n', {}, 'pagegrade.config.yml').config), /not valid YAML/);
    // a figure, a check and a site finding never share an id (an assertion names one of them)
    const { FIGURE_IDS } = await import('../../src/cli/ci/assertions.js');
    for (const id of FIGURE_IDS) assert.ok(!known.checks.includes(id) && !known.findings.includes(id), id);
    for (const id of known.checks) assert.ok(!known.findings.includes(id), id);
    assert.match(problems(project({ serve: 'nowhere' }).config), /serve: "nowhere" is not a folder/);
    assert.match(
      problems(project({ urls: ['/about'] }).config),
      /urls\[0\]: "\/about" is not an absolute http\(s\) URL \(paths need serve or start\)/,
    );

    const help = await run(['--help']);
    assert.equal(help.code, 0);
    for (const option of ['--config', '--junit', '--codequality', '--sarif', '--markdown', '--json'])
      assert.ok(help.stdout.includes(option), option);
    assert.match(help.stdout, /2 {4}the configuration is wrong \(the message names the key\)/);

    r = await run(['--config', join(dir, 'missing.json')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--config .*missing\.json: no such file/);
  });

  test('exit 2 when a URL cannot be audited; nothing is uploaded', async () => {
    const closed = await new Promise<number>((ok) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => ok(port));
      });
    });
    const p = project({ urls: [`http://127.0.0.1:${closed}/`], upload: { server: 'http://127.0.0.1:1' } });
    const r = await run(['--config', p.config], { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1' });
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /upload/);
    assert.match(r.stderr, new RegExp(`could not audit http://127\\.0\\.0\\.1:${closed}/`));
    assert.ok(!existsSync(p.json));
  });

  test('YAML config with the recommended preset: high-priority checks are errors', async () => {
    const p = project(
      `serve: site\npreset: "pagegrade:recommended"\nassertions:\n  https_encryption: "off"\n  text_compression: "off"\n`,
      { 'site/index.html': '<html><body>no title</body></html>' },
      'pagegrade.config.yml',
    );
    const r = await run(['--config', p.config, '--json', p.json]);
    assert.equal(r.code, 1, r.stderr + r.stdout);
    const outcomes = read(p.json).pages[0]!.outcomes;
    assert.equal(outcomes.find((o) => o.id === 'title')?.level, 'error');
    assert.ok(!outcomes.some((o) => o.id === 'https_encryption'), 'turned off over the preset');
  });

  test(
    'render: the lab figures are measured and budgeted; every browser check is an id the config may name',
    { skip: chromiumSkip },
    async () => {
      const p = project(
        {
          serve: 'site',
          render: true,
          preset: 'pagegrade:strict',
          budgets: { lcp: 60_000, cls: 1, tbt: 60_000, requests: 0 },
        },
        {
          'site/index.html': page('<p>Rendered</p><img src="/a.png" alt="A picture" width="10" height="10">'),
        },
      );
      const r = await run(['--config', p.config, '--json', p.json]);
      assert.ok(r.code === 0 || r.code === 1, r.stderr + r.stdout);
      const out = read(p.json).pages[0]!;
      assert.equal(typeof out.figures.lcp, 'number', 'lcp measured');
      assert.equal(typeof out.figures.cls, 'number', 'cls measured');
      assert.equal(typeof out.figures.tbt, 'number', 'tbt measured');
      const by = Object.fromEntries(out.outcomes.map((o) => [o.id, o]));
      assert.equal(by.lcp?.passed, true);
      // the browser requested the image (the page's HTML it was handed): over a budget of 0
      assert.ok(out.figures.requests! >= 1, String(out.figures.requests));
      assert.equal(by.requests?.passed, false);
      // strict asserts every check of the rendered report: the browser checks among them
      const registry = new Set(checks.map((c) => c.id));
      const browser = out.outcomes.filter(
        (o) =>
          !registry.has(o.id) && !o.id.includes('.') && !(o.id in out.figures) && !o.id.startsWith('axe_'),
      );
      assert.deepEqual(browser.map((o) => o.id).sort(), [...BROWSER_CHECK_IDS].sort());
      // and axe-core's rules, one accessibility check each (a config may name them: axe_<rule>)
      const axe = out.outcomes.filter((o) => o.id.startsWith('axe_'));
      assert.ok(axe.length > 0, 'the rendered report has axe checks');
      for (const o of axe) assert.match(o.id, /^axe_[a-z0-9_]+$/);
    },
  );

  test("docs/ci.md's examples are valid configurations by the published schema and the command's own reading", () => {
    const doc = readFileSync(new URL('../../docs/ci.md', import.meta.url), 'utf8');
    const json = /```json\n([\s\S]*?)```/.exec(doc)![1]!;
    const yaml = /```yaml\n(serve:[\s\S]*?)```/.exec(doc)![1]!;
    const validate = new Ajv({ strict: false }).compile(
      JSON.parse(readFileSync(new URL('../../docs/ci.schema.json', import.meta.url), 'utf8')) as object,
    );
    assert.ok(validate(JSON.parse(json)), JSON.stringify(validate.errors));
    const known = { checks: checks.map((c) => c.id), findings: FINDINGS.map((f) => f.id) };
    for (const [name, text] of [
      ['pagegrade.config.json', json],
      ['pagegrade.config.yaml', yaml],
    ] as const) {
      const p = project(text, { 'dist/index.html': page('') }, name);
      const c = loadCiConfig(p.config, known, p.root);
      assert.ok(c.serve?.endsWith('/dist'), name);
      assert.equal(c.rules.get('categories.seo')?.min, 90, name);
    }
  });

  test('colours only on a terminal: never under CI nor with NO_COLOR', () => {
    const tty = { isTTY: true, hasColors: () => true } as unknown as NodeJS.WriteStream;
    const pipe = { isTTY: false, hasColors: () => false } as unknown as NodeJS.WriteStream;
    assert.equal(useColour(tty, {}), true);
    assert.equal(useColour(tty, { NO_COLOR: '1' }), false);
    assert.equal(useColour(tty, { CI: 'true' }), false);
    assert.equal(useColour(tty, { CI: 'false' }), true);
    assert.equal(useColour(pipe, {}), false);
  });
});
