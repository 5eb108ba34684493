// publishToPullRequest (issue 23 §3) against a stand-in for GitHub's and GitLab's REST APIs on
// 127.0.0.1 (test/helpers/platform-standin.ts): the exact requests (commit status, check run,
// GitLab status), one comment or note created on the first run and edited in place on the
// next — found past the first page of comments — never duplicated and never another key's;
// the token in the Authorization header and nowhere in errors or logs; a platform that is
// unreachable, refuses or does not answer is an error in the outcome, never a throw.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { pino } from 'pino';
import { publishToPullRequest } from '../../src/integrations/index.js';
import { resolveGitHub, resolveGitLab } from '../../src/integrations/environment.js';
import { markerOf } from '../../src/integrations/comment.js';
import { Secret } from '../../src/integrations/secret.js';
import type { GitHubTarget, GitLabTarget } from '../../src/integrations/types.js';
import { loggerOptions } from '../../src/logger.js';
import { startPlatformStandIn, type PlatformStandIn } from '../helpers/platform-standin.js';

const TOKEN = 'ghs_standInToken0123456789abcdef';
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

let api: PlatformStandIn;
before(async () => {
  api = await startPlatformStandIn(TOKEN);
});
after(() => api.close());

const github = (over: Partial<GitHubTarget> = {}): GitHubTarget => ({
  platform: 'github',
  apiUrl: api.githubApi,
  token: new Secret(TOKEN),
  owner: 'acme',
  repo: 'site',
  sha: SHA,
  pullRequest: 7,
  check: 'status',
  context: 'pagegrade',
  comment: true,
  key: 'pagegrade.config.json',
  timeoutMs: 10_000,
  ...over,
});

const gitlab = (over: Partial<GitLabTarget> = {}): GitLabTarget => ({
  platform: 'gitlab',
  apiUrl: api.gitlabApi,
  token: new Secret(TOKEN),
  project: 'acme/site',
  sha: SHA,
  mergeRequest: 3,
  pipelineId: 41,
  context: 'pagegrade',
  comment: true,
  key: 'pagegrade.config.json',
  timeoutMs: 10_000,
  ...over,
});

/** the requests made from `from` on, as `METHOD path` */
const lines = (from: number) => api.requests.slice(from).map((r) => `${r.method} ${r.path}`);

describe('GitHub', () => {
  test('a commit status, then one comment: created on the first run, edited on the next, found past the first page', async () => {
    // 150 comments of people and one of another configuration: ours will be on page 2
    api.githubComments.set(
      7,
      Array.from({ length: 150 }, (_, i) => ({
        id: i + 1,
        body: i === 5 ? `${markerOf('other.yml')}\nothers` : `comment ${i}`,
      })),
    );
    const from = api.requests.length;
    const first = await publishToPullRequest(github(), {
      state: 'failure',
      summaryMarkdown: '## Pagegrade CI\n\n| URL | Score |\n| --- | ---: |\n| / | 40 |',
      targetUrl: 'https://ci.example.test/run/1',
      description: '2 error-level assertion(s) failed',
    });
    assert.deepEqual(first.errors, []);
    assert.deepEqual(lines(from), [
      `POST /api/v3/repos/acme/site/statuses/${SHA}`,
      'GET /api/v3/repos/acme/site/issues/7/comments?per_page=100',
      'GET /api/v3/repos/acme/site/issues/7/comments?per_page=100&page=2',
      'POST /api/v3/repos/acme/site/issues/7/comments',
    ]);
    const [status, , , created] = api.requests.slice(from);
    assert.deepEqual(status!.body, {
      state: 'failure',
      context: 'pagegrade',
      description: '2 error-level assertion(s) failed',
      target_url: 'https://ci.example.test/run/1',
    });
    for (const r of api.requests.slice(from)) assert.equal(r.headers.authorization, `token ${TOKEN}`);
    const body = (created!.body as { body: string }).body;
    assert.ok(body.startsWith(`${markerOf('pagegrade.config.json')}\n## Pagegrade CI`), body);
    assert.match(body, /\| \/ \| 40 \|/);
    assert.match(body, /\[The full report\]\(https:\/\/ci\.example\.test\/run\/1\)/);
    assert.match(body, /commit a1b2c3d4e5f6/);
    assert.equal(first.comment?.action, 'created');
    assert.equal(api.githubComments.get(7)!.length, 151);

    const again = api.requests.length;
    const second = await publishToPullRequest(github(), {
      state: 'success',
      summaryMarkdown: '## Pagegrade CI\n\nall good',
      targetUrl: null,
    });
    assert.deepEqual(second.errors, []);
    assert.deepEqual(lines(again), [
      `POST /api/v3/repos/acme/site/statuses/${SHA}`,
      'GET /api/v3/repos/acme/site/issues/7/comments?per_page=100',
      'GET /api/v3/repos/acme/site/issues/7/comments?per_page=100&page=2',
      `PATCH /api/v3/repos/acme/site/issues/comments/${first.comment!.id}`,
    ]);
    assert.deepEqual(api.requests[again]!.body, {
      state: 'success',
      context: 'pagegrade',
      description: 'Every error-level assertion holds',
    });
    assert.deepEqual(second.comment, { id: first.comment!.id, action: 'updated', url: second.comment!.url });
    const comments = api.githubComments.get(7)!;
    assert.equal(comments.length, 151, 'no second comment');
    const ours = comments.filter((c) => c.body.includes(markerOf('pagegrade.config.json')));
    assert.equal(ours.length, 1);
    assert.match(ours[0]!.body, /all good/);
    assert.doesNotMatch(ours[0]!.body, /full report/);
    assert.equal(
      comments[5]!.body,
      `${markerOf('other.yml')}\nothers`,
      "another key's comment is left alone",
    );
  });

  test('a check run (an App token): created, then the same run updated; pending is in_progress', async () => {
    const target = github({ check: 'check_run', comment: false, sha: 'f'.repeat(40) });
    const from = api.requests.length;
    const pending = await publishToPullRequest(target, { state: 'pending', summaryMarkdown: 'running' });
    assert.deepEqual(pending.errors, []);
    assert.deepEqual(lines(from), [
      `GET /api/v3/repos/acme/site/commits/${'f'.repeat(40)}/check-runs?check_name=pagegrade&filter=latest&per_page=1`,
      'POST /api/v3/repos/acme/site/check-runs',
    ]);
    const made = api.requests[from + 1]!.body as Record<string, unknown>;
    assert.equal(made.name, 'pagegrade');
    assert.equal(made.head_sha, 'f'.repeat(40));
    assert.equal(made.status, 'in_progress');
    assert.equal(made.conclusion, undefined);
    assert.deepEqual((made.output as { title: string }).title, 'Pagegrade is running');

    const next = api.requests.length;
    const done = await publishToPullRequest(target, {
      state: 'failure',
      summaryMarkdown: '## Pagegrade CI\n\nfailed',
      targetUrl: 'https://pagegrade.example.test/builds/9',
    });
    assert.deepEqual(done.errors, []);
    assert.equal(done.status?.id, pending.status?.id);
    assert.deepEqual(lines(next), [
      `GET /api/v3/repos/acme/site/commits/${'f'.repeat(40)}/check-runs?check_name=pagegrade&filter=latest&per_page=1`,
      `PATCH /api/v3/repos/acme/site/check-runs/${pending.status!.id}`,
    ]);
    const patch = api.requests[next + 1]!.body as Record<string, unknown>;
    assert.equal(patch.status, 'completed');
    assert.equal(patch.conclusion, 'failure');
    assert.equal(patch.details_url, 'https://pagegrade.example.test/builds/9');
    assert.match((patch.output as { summary: string }).summary, /failed/);
    assert.equal(api.checkRuns.size, 1);
  });

  test('no pull request (a push): the status only, and a note saying why there is no comment', async () => {
    const from = api.requests.length;
    const out = await publishToPullRequest(github({ pullRequest: null }), {
      state: 'success',
      summaryMarkdown: 'x',
    });
    assert.deepEqual(lines(from), [`POST /api/v3/repos/acme/site/statuses/${SHA}`]);
    assert.match(out.notes[0]!, /no pull request/);
  });
});

describe('GitLab', () => {
  test('a commit status and one merge-request note: created, then edited in place past the first page', async () => {
    api.gitlabNotes.set(
      3,
      Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: `note ${i}`, system: i % 10 === 0 })),
    );
    const from = api.requests.length;
    const first = await publishToPullRequest(gitlab(), {
      state: 'failure',
      summaryMarkdown: '## Pagegrade CI\n\nfailed',
      targetUrl: 'https://gitlab.example.test/acme/site/-/jobs/5',
    });
    assert.deepEqual(first.errors, []);
    assert.deepEqual(lines(from), [
      `POST /api/v4/projects/acme%2Fsite/statuses/${SHA}`,
      'GET /api/v4/projects/acme%2Fsite/merge_requests/3/notes?per_page=100&page=1&sort=asc&order_by=created_at',
      'GET /api/v4/projects/acme%2Fsite/merge_requests/3/notes?per_page=100&page=2&sort=asc&order_by=created_at',
      'POST /api/v4/projects/acme%2Fsite/merge_requests/3/notes',
    ]);
    assert.deepEqual(api.requests[from]!.body, {
      state: 'failed',
      name: 'pagegrade',
      description: 'Error-level assertions failed',
      target_url: 'https://gitlab.example.test/acme/site/-/jobs/5',
      pipeline_id: 41,
    });
    for (const r of api.requests.slice(from)) {
      assert.equal(r.headers.authorization, `Bearer ${TOKEN}`);
      assert.equal(r.headers['private-token'], undefined);
    }
    const note = (api.requests[from + 3]!.body as { body: string }).body;
    assert.ok(note.startsWith(`${markerOf('pagegrade.config.json')}\n## Pagegrade CI`));

    const again = api.requests.length;
    const second = await publishToPullRequest(gitlab(), { state: 'success', summaryMarkdown: 'fixed' });
    assert.deepEqual(second.errors, []);
    assert.deepEqual(lines(again).slice(-1), [
      `PUT /api/v4/projects/acme%2Fsite/merge_requests/3/notes/${first.comment!.id}`,
    ]);
    assert.equal(second.comment?.action, 'updated');
    const notes = api.gitlabNotes.get(3)!;
    assert.equal(notes.length, 121, 'no second note');
    assert.match(notes.at(-1)!.body, /fixed/);
  });

  test('the status it already has ("Cannot transition status") counts as posted, not as a failure', async () => {
    const target = gitlab({ comment: false, sha: 'e'.repeat(40) });
    const once = await publishToPullRequest(target, { state: 'success', summaryMarkdown: 'x' });
    const twice = await publishToPullRequest(target, { state: 'success', summaryMarkdown: 'x' });
    assert.deepEqual(once.errors, []);
    assert.deepEqual(twice.errors, []);
    assert.deepEqual(twice.status, { kind: 'status', id: null });
    assert.equal(api.requests.at(-1)!.method, 'POST');
  });
});

describe('failures are errors in the outcome, without the token', () => {
  test('an address nothing listens on: both steps fail, nothing thrown', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    for (const target of [
      github({ apiUrl: `http://127.0.0.1:${port}` }),
      gitlab({ apiUrl: `http://127.0.0.1:${port}/api/v4` }),
    ]) {
      const out = await publishToPullRequest(target, { state: 'success', summaryMarkdown: 'x' });
      assert.equal(out.status, null);
      assert.equal(out.comment, null);
      assert.equal(out.errors.length, 2, out.errors.join('\n'));
      assert.match(out.errors[0]!, /commit status \(http:\/\/127\.0\.0\.1:\d+.*\): .*ECONNREFUSED/);
    }
  });

  test('a wrong token: HTTP 401 and the platform message', async () => {
    const out = await publishToPullRequest(github({ token: new Secret('wrong') }), {
      state: 'success',
      summaryMarkdown: 'x',
    });
    assert.match(out.errors[0]!, /^GitHub commit status \(.*\): HTTP 401: Bad credentials$/);
    const gl = await publishToPullRequest(gitlab({ token: new Secret('wrong') }), {
      state: 'success',
      summaryMarkdown: 'x',
    });
    assert.match(gl.errors[0]!, /^GitLab commit status \(.*\): HTTP 401: 401 Unauthorized$/);
  });

  test('an answer that quotes the token: the token is scrubbed from the error', async () => {
    api.failWith = { status: 500, body: { message: `upstream refused Authorization: token ${TOKEN}` } };
    try {
      for (const target of [github(), gitlab()]) {
        const out = await publishToPullRequest(target, { state: 'success', summaryMarkdown: 'x' });
        assert.ok(out.errors.length > 0);
        for (const e of out.errors) {
          assert.ok(!e.includes(TOKEN), e);
          assert.match(e, /HTTP 500: upstream refused Authorization: token \[redacted\]/);
        }
      }
    } finally {
      api.failWith = null;
    }
  });

  test('a platform that never answers: "no answer within" the time budget', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    const port = (silent.address() as { port: number }).port;
    try {
      const out = await publishToPullRequest(github({ apiUrl: `http://127.0.0.1:${port}`, timeoutMs: 300 }), {
        state: 'success',
        summaryMarkdown: 'x',
      });
      assert.match(out.errors[0]!, /no answer within 300 ms/);
      const gl = await publishToPullRequest(gitlab({ apiUrl: `http://127.0.0.1:${port}`, timeoutMs: 300 }), {
        state: 'success',
        summaryMarkdown: 'x',
      });
      assert.match(gl.errors[0]!, /no answer within 300 ms/);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => silent.close(() => ok()));
    }
  });

  test('a target logged (pino with the service options, JSON, util.inspect) never shows the token', () => {
    const target = github();
    let logged = '';
    const log = pino(
      { ...loggerOptions('info'), transport: undefined },
      new Writable({
        write(chunk: Buffer, _e, done) {
          logged += chunk.toString();
          done();
        },
      }),
    );
    log.info({ target, github: { token: TOKEN } }, 'publishing');
    assert.match(logged, /publishing/);
    assert.ok(!logged.includes(TOKEN), logged);
    assert.ok(!JSON.stringify(target).includes(TOKEN));
    assert.ok(!inspect(target, { depth: 5 }).includes(TOKEN));
    assert.ok(!`${target.token}`.includes(TOKEN));
  });
});

describe('targets from the CI environment', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pagegrade-pr-env-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("GitHub Actions: the pull_request event's number and head SHA; the run's page; overrides win", () => {
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 12, head: { sha: 'b'.repeat(40) } } }));
    const env = {
      GITHUB_API_URL: 'https://ghe.example.test/api/v3/',
      GITHUB_REPOSITORY: 'acme/site',
      GITHUB_EVENT_PATH: event,
      GITHUB_SHA: 'c'.repeat(40),
      GITHUB_SERVER_URL: 'https://ghe.example.test',
      GITHUB_RUN_ID: '99',
      GITHUB_TOKEN: 'from-github-token',
      PAGEGRADE_GITHUB_TOKEN: 'from-pagegrade-token',
    };
    const r = resolveGitHub({}, env, { key: 'k' });
    assert.ok('target' in r);
    assert.equal(r.target.apiUrl, 'https://ghe.example.test/api/v3');
    assert.equal(r.target.owner, 'acme');
    assert.equal(r.target.repo, 'site');
    assert.equal(r.target.pullRequest, 12);
    assert.equal(r.target.sha, 'b'.repeat(40), "the pull request's head, not the merge commit");
    assert.equal(r.target.token.reveal(), 'from-pagegrade-token');
    assert.equal(r.target.check, 'status');
    assert.equal(r.target.key, 'k');
    assert.equal(r.targetUrl, 'https://ghe.example.test/acme/site/actions/runs/99');
    const o = resolveGitHub(
      {
        repository: 'o/r',
        pull_request: 3,
        sha: 'd'.repeat(40),
        check: 'check_run',
        token_env: 'MY_TOKEN',
        key: 'x',
        target_url: 'https://t',
      },
      { ...env, MY_TOKEN: 'mine' },
      { key: 'k' },
    );
    assert.ok('target' in o);
    assert.deepEqual(
      [
        o.target.owner,
        o.target.repo,
        o.target.pullRequest,
        o.target.sha,
        o.target.check,
        o.target.token.reveal(),
        o.target.key,
        o.targetUrl,
      ],
      ['o', 'r', 3, 'd'.repeat(40), 'check_run', 'mine', 'x', 'https://t'],
    );
    const push = resolveGitHub(
      {},
      { GITHUB_REPOSITORY: 'acme/site', GITHUB_SHA: 'c'.repeat(40), GITHUB_TOKEN: 't' },
      { key: 'k' },
    );
    assert.ok('target' in push);
    assert.equal(push.target.pullRequest, null);
    assert.equal(push.target.apiUrl, 'https://api.github.com');
    assert.deepEqual(resolveGitHub({}, {}, { key: 'k' }), {
      missing: [
        'the repository (GITHUB_REPOSITORY, or report.github.repository)',
        'the commit (GITHUB_SHA, or report.github.sha)',
        'a token (set PAGEGRADE_GITHUB_TOKEN or GITHUB_TOKEN)',
      ],
    });
  });

  test('GitLab CI: project, commit, merge request, pipeline and job page; the job token is not used', () => {
    const env = {
      CI_API_V4_URL: 'https://gitlab.example.test/api/v4',
      CI_PROJECT_ID: '42',
      CI_COMMIT_SHA: 'c'.repeat(40),
      CI_MERGE_REQUEST_IID: '5',
      CI_PIPELINE_ID: '700',
      CI_JOB_URL: 'https://gitlab.example.test/acme/site/-/jobs/1',
      PAGEGRADE_GITLAB_TOKEN: 'glpat',
    };
    const r = resolveGitLab({}, env, { key: 'k' });
    assert.ok('target' in r);
    assert.deepEqual(
      [
        r.target.apiUrl,
        r.target.project,
        r.target.sha,
        r.target.mergeRequest,
        r.target.pipelineId,
        r.target.token.reveal(),
        r.targetUrl,
      ],
      [
        'https://gitlab.example.test/api/v4',
        '42',
        'c'.repeat(40),
        5,
        700,
        'glpat',
        'https://gitlab.example.test/acme/site/-/jobs/1',
      ],
    );
    const other = resolveGitLab({ sha: 'd'.repeat(40), project: 'g/p', merge_request: 9 }, env, { key: 'k' });
    assert.ok('target' in other);
    assert.equal(other.target.pipelineId, null, "another commit: not the job's pipeline");
    assert.deepEqual(
      resolveGitLab({}, { ...env, PAGEGRADE_GITLAB_TOKEN: '', CI_JOB_TOKEN: 'job' }, { key: 'k' }),
      {
        missing: ['a token (set PAGEGRADE_GITLAB_TOKEN)'],
      },
    );
  });
});
