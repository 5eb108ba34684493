// `pagegrade ci --upload` as a real process (issue 23 §2; docs/ci.md "Builds"): a git repository
// made in a temporary folder, its site served by `pagegrade ci` itself, the build sent to a real
// Pagegrade app listening on loopback; the main build, then a feature branch's build compared
// with the merge base's build; `--fail-on-regression` exits 1 only then; the token never
// printed; a wrong key and a missing server exit 2. The CI variables (GitHub Actions, GitLab CI,
// the generic set) read by readBuildMeta.
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
import { readBuildMeta } from '../../src/cli/ci/git-meta.js';

const good = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page about pagegrade builds and tests</title>
<meta name="description" content="A well-made page that the build of the main branch audits, with a description of fair length for the check.">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="canonical" href="https://site.example/"></head>
<body><h1>Pagegrade builds</h1><p>Some text about builds, enough to be a page.</p><img src="a.png" alt="A picture"></body></html>`;
const bad = `<html><body><p>hi</p><img src="a.png"></body></html>`;

let t: TestApp;
let owner: TestUser;
let server: string;
let repo: string;
before(async () => {
  t = await buildTestApp(sqliteDialect, { logLevel: 'info' });
  owner = await buildUser(t.services, 'upload-owner');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  server = `http://127.0.0.1:${address.port}`;
  repo = mkdtempSync(join(tmpdir(), 'pagegrade-upload-'));
});
after(async () => {
  await t?.close();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** No CI of the machine running the tests leaks into these runs: git alone says what was built. */
const clean: Record<string, string> = {
  GITHUB_ACTIONS: '',
  GITLAB_CI: '',
  GITHUB_STEP_SUMMARY: '',
  CI: 'true',
  PAGEGRADE_BUILD_COMMIT: '',
  PAGEGRADE_BUILD_BRANCH: '',
  PAGEGRADE_BUILD_BASE_BRANCH: '',
  PAGEGRADE_BUILD_ANCESTOR: '',
  PAGEGRADE_SERVER: '',
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
};

function writeSite(html: string, upload: Record<string, unknown> = {}) {
  writeFileSync(join(repo, 'index.html'), html);
  writeFileSync(
    join(repo, 'pagegrade.config.json'),
    JSON.stringify({
      serve: '.',
      urls: ['/'],
      upload: { server, project: 'site.example', origin: 'https://site.example', base_branch: 'main', ...upload },
    }),
  );
}
const ci = (args: string[], env: Record<string, string> = {}) =>
  runCli(['ci', ...args], { ...clean, PAGEGRADE_TOKEN: owner.key, ...env }, { cwd: repo });

test('main, then a feature branch compared with the merge base’s build; --fail-on-regression exits 1 only on a regression', async () => {
  git('init', '-q', '-b', 'main');
  writeSite(good);
  git('add', '.');
  git('-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-q', '-m', 'main: a good page');
  const mainSha = git('rev-parse', 'HEAD');

  const first = await ci(['--upload', '--fail-on-regression']);
  assert.equal(first.code, 0, first.stderr + first.stdout);
  assert.match(first.stdout, /Build #\d+ uploaded: http:\/\/pagegrade\.test:8080\/dashboard\/builds\/\d+/);
  assert.match(first.stdout, /No base build to compare with/);

  git('checkout', '-q', '-b', 'feature/break');
  writeSite(bad);
  git('-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-q', '-am', 'feature: break the page');
  const featureSha = git('rev-parse', 'HEAD');

  // the results only (no gate on the comparison): exit 0, the regression printed
  const plain = await ci(['--upload']);
  assert.equal(plain.code, 0, plain.stderr + plain.stdout);
  assert.match(plain.stdout, /Compared with build #\d+ \(main @ [0-9a-f]{7}, the ancestor commit\): REGRESSED/);
  assert.match(plain.stdout, /newly failing: /);
  const gated = await ci(['--upload', '--fail-on-regression']);
  assert.equal(gated.code, 1, gated.stderr + gated.stdout);
  assert.match(gated.stdout, /Regressions:\n {2}- \/: /);

  // what the server stored: the builds of each branch, with git's metadata
  const list = await t.request({
    method: 'GET',
    url: '/api/v1/projects/site.example/builds?branch=feature%2Fbreak',
    headers: owner.auth,
  });
  const builds = list.json().data as { commit_sha: string; ancestor_sha: string; author: string; message: string }[];
  assert.equal(builds.length, 2);
  assert.equal(builds[0]!.commit_sha, featureSha);
  assert.equal(builds[0]!.ancestor_sha, mainSha);
  assert.equal(builds[0]!.author, 'Ada <ada@example.com>');
  assert.match(builds[0]!.message, /feature: break the page/);
  const reports = await t.request({ method: 'GET', url: '/api/v1/reports?project=site.example', headers: owner.auth });
  assert.deepEqual(
    (reports.json().data as { url: string }[]).map((r) => r.url),
    ['https://site.example/'],
    'one report of the page, whichever loopback port served it',
  );

  // the key went in the header only: never in the output nor in the server's log
  for (const text of [first.stdout, first.stderr, plain.stdout, plain.stderr, gated.stdout, gated.stderr, t.logs.join('')])
    assert.ok(!text.includes(owner.key), 'the token is never printed or logged');
});

test('a wrong key, no server, or --fail-on-regression without --upload: exit 2 naming the cause, never the token', async () => {
  writeSite(bad);
  const wrong = await ci(['--upload'], { PAGEGRADE_TOKEN: 'pg_wrong_secret_key_1234567890' });
  assert.equal(wrong.code, 2, wrong.stderr);
  assert.match(wrong.stderr, /upload: http:\/\/127\.0\.0\.1:\d+ answered 401/);
  assert.ok(!wrong.stderr.includes('pg_wrong_secret_key_1234567890'));

  writeFileSync(join(repo, 'pagegrade.config.json'), JSON.stringify({ serve: '.', urls: ['/'] }));
  const gateOnly = await ci(['--fail-on-regression']);
  assert.equal(gateOnly.code, 2);
  assert.match(gateOnly.stderr, /--fail-on-regression needs --upload/);
  const noServer = await ci(['--upload']);
  assert.equal(noServer.code, 2);
  assert.match(noServer.stderr, /upload: no server/);
});

test('the CI variables: GitHub Actions (a pull request event), GitLab CI, the generic set first', () => {
  const event = join(repo, 'event.json');
  writeFileSync(
    event,
    JSON.stringify({ pull_request: { head: { sha: 'abcdef1234567' }, base: { sha: '1111111' } } }),
  );
  const gh = readBuildMeta(
    {
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: 'ffffffffffffffff',
      GITHUB_REF_NAME: '12/merge',
      GITHUB_HEAD_REF: 'feature/x',
      GITHUB_BASE_REF: 'main',
      GITHUB_EVENT_PATH: event,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'acme/site',
      GITHUB_RUN_ID: '42',
    },
    repo,
    null,
  );
  assert.equal(gh.commitSha, 'abcdef1234567', "the pull request's head, not the merge commit");
  assert.equal(gh.branch, 'feature/x');
  assert.equal(gh.baseBranch, 'main');
  assert.equal(gh.runUrl, 'https://github.example/acme/site/actions/runs/42');

  const gl = readBuildMeta(
    {
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: '2222222222',
      CI_COMMIT_REF_NAME: 'feature/y',
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'develop',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: '3333333333',
      CI_COMMIT_AUTHOR: 'Bo <bo@example.com>',
      CI_PIPELINE_URL: 'https://gitlab.example/acme/site/-/pipelines/7',
    },
    repo,
    null,
  );
  assert.deepEqual(
    [gl.commitSha, gl.branch, gl.baseBranch, gl.ancestorSha, gl.author, gl.runUrl],
    ['2222222222', 'feature/y', 'develop', '3333333333', 'Bo <bo@example.com>', 'https://gitlab.example/acme/site/-/pipelines/7'],
  );

  const generic = readBuildMeta(
    { GITLAB_CI: 'true', CI_COMMIT_SHA: '2222222222', PAGEGRADE_BUILD_COMMIT: '4444444', PAGEGRADE_BUILD_BRANCH: 'release' },
    repo,
    null,
  );
  assert.equal(generic.commitSha, '4444444');
  assert.equal(generic.branch, 'release');
});
