// `pagegrade ci --upload --github` (issue 23 §2 with §3): the build sent to a real Pagegrade app
// on loopback, and the pull request told through the GitHub stand-in (test/helpers/
// platform-standin.ts) — one comment carrying the assertions and the build's comparison with
// its base, created on the first build and edited on the next; the commit status fails when the
// build regressed and `--fail-on-regression` is given. The build's commit and branches come from
// git (a repository made here); the pull request's number and head from the event file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startPlatformStandIn, type PlatformStandIn } from '../helpers/platform-standin.js';

const TOKEN = 'ghp_uploadPrStandIn0123456789abcdef';
const good = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page about pagegrade builds and tests</title>
<meta name="description" content="A well-made page that the build of the main branch audits, with a description of fair length for the check.">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="canonical" href="https://site.example/"></head>
<body><h1>Pagegrade builds</h1><p>Some text about builds, enough to be a page.</p><img src="a.png" alt="A picture"></body></html>`;
const bad = `<html><body><p>hi</p><img src="a.png"></body></html>`;

let t: TestApp;
let owner: TestUser;
let server: string;
let repo: string;
let gh: PlatformStandIn;
let event: string;
before(async () => {
  t = await buildTestApp(sqliteDialect);
  owner = await buildUser(t.services, 'upload-pr-owner');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  server = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  gh = await startPlatformStandIn(TOKEN);
  repo = mkdtempSync(join(tmpdir(), 'pagegrade-upload-pr-'));
  event = join(repo, '..', `event-${Date.now()}.json`);
});
after(async () => {
  await t?.close();
  await gh?.close();
  if (repo) rmSync(repo, { recursive: true, force: true });
  rmSync(event, { force: true });
});

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const commit = (message: string) =>
  git('-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-q', '-am', message);

function writeSite(html: string) {
  writeFileSync(join(repo, 'index.html'), html);
  writeFileSync(
    join(repo, 'pagegrade.config.json'),
    JSON.stringify({
      serve: '.',
      urls: ['/'],
      upload: { server, project: 'site.example', origin: 'https://site.example', base_branch: 'main' },
    }),
  );
}

/** The build's metadata from git (no GitHub Actions run); the pull request from the event file. */
const ci = (args: string[], headSha: string) => {
  writeFileSync(event, JSON.stringify({ pull_request: { number: 5, head: { sha: headSha } } }));
  return runCli(
    ['ci', ...args],
    {
      CI: 'true',
      GITHUB_ACTIONS: '',
      GITLAB_CI: '',
      GITHUB_STEP_SUMMARY: '',
      PAGEGRADE_BUILD_COMMIT: '',
      PAGEGRADE_BUILD_BRANCH: '',
      PAGEGRADE_BUILD_BASE_BRANCH: '',
      PAGEGRADE_BUILD_ANCESTOR: '',
      PAGEGRADE_SERVER: '',
      PAGEGRADE_TOKEN: owner.key,
      GITHUB_API_URL: gh.githubApi,
      GITHUB_REPOSITORY: 'acme/site',
      GITHUB_EVENT_PATH: event,
      GITHUB_SERVER_URL: 'https://github.example.test',
      GITHUB_RUN_ID: '42',
      GITHUB_TOKEN: TOKEN,
      PAGEGRADE_GITHUB_TOKEN: '',
    },
    { cwd: repo },
  );
};

test("the pull request's one comment carries the build's comparison; a regression fails the status", async () => {
  git('init', '-q', '-b', 'main');
  writeSite(good);
  git('add', '.');
  commit('main: a good page');
  const mainSha = git('rev-parse', 'HEAD');

  const first = await ci(['--upload', '--github'], mainSha);
  assert.equal(first.code, 0, first.stderr + first.stdout);
  const statuses = () => gh.requests.filter((r) => r.method === 'POST' && r.path.includes('/statuses/'));
  assert.equal(statuses().length, 1);
  assert.equal((statuses()[0]!.body as { state: string }).state, 'success');
  const comments = () => gh.githubComments.get(5) ?? [];
  assert.equal(comments().length, 1);
  assert.match(comments()[0]!.body, /### Pagegrade build #\d+ \(main @ `[0-9a-f]{7}`\)/);
  assert.match(comments()[0]!.body, /no base build to compare with/);

  git('checkout', '-q', '-b', 'feature/break');
  writeSite(bad);
  commit('feature: break the page');
  const featureSha = git('rev-parse', 'HEAD');
  const second = await ci(['--upload', '--fail-on-regression', '--github'], featureSha);
  assert.equal(second.code, 1, second.stderr + second.stdout);

  const last = statuses().at(-1)!;
  assert.equal(last.path, `/api/v3/repos/acme/site/statuses/${featureSha}`);
  assert.equal((last.body as { state: string }).state, 'failure');
  assert.match((last.body as { description: string }).description, /regressed against its base/);
  assert.equal(comments().length, 1, 'one comment, edited');
  assert.ok(
    gh.requests.some(
      (r) => r.method === 'PATCH' && r.path.startsWith('/api/v3/repos/acme/site/issues/comments/'),
    ),
  );
  const body = comments()[0]!.body;
  assert.match(
    body,
    /\*\*Regressed\*\* compared with build #\d+ \(main @ `[0-9a-f]{7}`, the ancestor commit\)/,
  );
  assert.match(body, /\| ❌ \/ \|/);
  assert.match(body, /\[The build on Pagegrade\]\(http:\/\/pagegrade\.test:8080\/dashboard\/builds\/\d+\)/);
  for (const out of [first.stdout, first.stderr, second.stdout, second.stderr]) {
    assert.ok(!out.includes(TOKEN), 'the GitHub token is never printed');
    assert.ok(!out.includes(owner.key), 'the Pagegrade key is never printed');
  }
});
