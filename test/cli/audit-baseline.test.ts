// `pagegrade audit URL --baseline FILE [--fail-on-regression [--max-drop N]]` as real processes
// against a fixture site on 127.0.0.1 whose page changes between runs: the diff is printed,
// and the exit codes are the documented ones (0 passes, 1 a regression, 2 bad arguments or file).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli as run } from '../helpers/cli.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

describe('pagegrade audit --baseline', () => {
  let site: FixtureServer;
  let dir: string;
  let baseline: string;
  let saved: Record<string, unknown>;
  const allow = { PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1' };
  const url = () => `${site.origin}/page`;
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-baseline-'));
    site = await startFixtureServer();
    site.route('/page', html(goodPage(site.origin)));
    site.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nAllow: /\n',
    });
    const r = await run(['audit', url(), '--json'], allow);
    assert.equal(r.code, 0, r.stderr);
    baseline = file('baseline.json', r.stdout);
    saved = JSON.parse(r.stdout) as Record<string, unknown>;
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the same page: nothing newly failed, the gate passes, exit 0', async () => {
    const r = await run(['audit', url(), '--baseline', baseline, '--fail-on-regression'], allow);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`Changes since the baseline of ${saved.generated_at as string}`));
    assert.ok(!r.stdout.includes('Newly failed'), r.stdout);
    assert.match(r.stdout, /Regression gate: passed/);
  });

  test('the title removed: the diff names it; exit 0 without the gate, 1 with it', async () => {
    site.route('/page', html(goodPage(site.origin).replace(/<title>[^<]*<\/title>\n/, '')));
    try {
      const shown = await run(['audit', url(), '--baseline', baseline], allow);
      assert.equal(shown.code, 0, 'still a good page, and no gate asked for');
      assert.match(
        shown.stdout,
        /Newly failed \(1\)\n {4}✗ The title is missing, repeated or of the wrong length \[high, title\] \(was passed\) {2}“Fixture Gardening Guide for Small Balconies” → none/,
      );
      assert.match(
        shown.stdout,
        /No longer judged \(1\)\n {4}\? The title's keywords appear in the page's content \[high, content_keywords\]/,
      );
      assert.match(shown.stdout, /Score: (\d+) → (\d+) \(−\d+\)/);
      assert.match(shown.stdout, /HTML size: /);
      assert.ok(!shown.stdout.includes('Regression gate'), 'no verdict unless asked');

      const gated = await run(
        ['audit', url(), '--baseline', baseline, '--fail-on-regression', '--max-drop', '100'],
        allow,
      );
      assert.equal(gated.code, 1, gated.stdout + gated.stderr);
      assert.match(gated.stdout, /Regression gate: failed — 1 check newly failed: title\n/);

      const json = await run(
        ['audit', url(), '--json', '--baseline', baseline, '--fail-on-regression'],
        allow,
      );
      assert.equal(json.code, 1);
      const out = JSON.parse(json.stdout) as {
        score: number;
        diff: {
          regression: boolean;
          score: { from: number; to: number };
          checks: { newly_failed: { id: string }[] };
        };
      };
      assert.deepEqual(
        out.diff.checks.newly_failed.map((c) => c.id),
        ['title'],
      );
      assert.equal(out.diff.regression, true, 'title is high priority');
      assert.deepEqual([out.diff.score.from, out.diff.score.to], [saved.score, out.score]);
      assert.match(json.stderr, /Regression gate: failed — 1 check newly failed: title/);
      // a saved output with its diff is still a baseline
      const again = await run(
        ['audit', url(), '--baseline', file('with-diff.json', json.stdout), '--fail-on-regression'],
        allow,
      );
      assert.equal(again.code, 0, again.stdout + again.stderr);
    } finally {
      site.route('/page', html(goodPage(site.origin)));
    }
  });

  test('--max-drop: a score drop within it passes, beyond it fails', async () => {
    // the same page against a baseline that scored higher: only the score moved
    const higher = file('higher.json', { ...saved, score: (saved.score as number) + 7 });
    const within = await run(
      ['audit', url(), '--baseline', higher, '--fail-on-regression', '--max-drop', '7'],
      allow,
    );
    assert.equal(within.code, 0, within.stdout + within.stderr);
    const beyond = await run(
      ['audit', url(), '--baseline', higher, '--fail-on-regression', '--max-drop', '6'],
      allow,
    );
    assert.equal(beyond.code, 1, beyond.stdout);
    assert.match(
      beyond.stdout,
      /Regression gate: failed — the score dropped by 7 points \(\d+ → \d+; allowed: 6\)/,
    );
    const strict = await run(['audit', url(), '--baseline', higher, '--fail-on-regression'], allow);
    assert.equal(strict.code, 1, 'the default --max-drop is 0');
  });

  test('a check the baseline did not have is not a regression; the API report body is a baseline too', async () => {
    site.route('/page', html(goodPage(site.origin).replace(/<title>[^<]*<\/title>\n/, '')));
    try {
      const results = { ...(saved.results as Record<string, unknown>) };
      delete results.title;
      const older = file('older.json', { data: { ...saved, id: 7, privacy: 0, results } });
      const r = await run(
        ['audit', url(), '--baseline', older, '--fail-on-regression', '--max-drop', '100'],
        allow,
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /\(was not checked\)/);
    } finally {
      site.route('/page', html(goodPage(site.origin)));
    }
  });

  test('bad arguments and bad files exit 2 before the page is fetched', async () => {
    const before = site.requests.length;
    const cases: [string[], RegExp][] = [
      [['--fail-on-regression'], /--fail-on-regression needs --baseline FILE/],
      [['--baseline', baseline, '--max-drop', '5'], /--max-drop only counts with --fail-on-regression/],
      [
        ['--baseline', baseline, '--fail-on-regression', '--max-drop', 'five'],
        /a whole number of points from 0 to 100/,
      ],
      [['--baseline', baseline, '--fail-on-regression', '--max-drop', '101'], /from 0 to 100/],
      [['--baseline', join(dir, 'missing.json')], /--baseline .*missing\.json: no such file/],
      [
        ['--baseline', file('text.json', 'not json')],
        /not JSON \(save one with `pagegrade audit URL --json > /,
      ],
      [['--baseline', file('empty.json', {})], /not a saved `pagegrade audit --json` report \(no url\)/],
      [
        ['--baseline', file('partial.json', { ...saved, results: { title: 'x' } })],
        /results\.title is not a check result/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(['audit', url(), ...args], allow);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
    }
    assert.equal(site.requests.length, before, 'nothing fetched');
  });
});
