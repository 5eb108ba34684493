// `pagegrade ci --github / --gitlab` run as a real process (issue 23 §3) against a stand-in for
// GitHub's and GitLab's REST APIs on 127.0.0.1 (test/helpers/platform-standin.ts), with the
// variables GitHub Actions and GitLab CI set: the status from the assertions' outcome, one
// comment or note created on the first run and edited on the second, the token in the header
// and nowhere in the output; a platform that cannot be reached is a warning (exit 3 only with
// `required`); a run that cannot audit posts an error status; missing settings are named.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startPlatformStandIn, type PlatformStandIn } from '../helpers/platform-standin.js';

const TOKEN = 'ghp_cliStandInToken9876543210fedcba';
const SHA = '0123456789abcdef0123456789abcdef01234567';
const page = (img: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page about pagegrade reports</title></head><body><h1>Pagegrade reports</h1>${img}</body></html>`;
const WITHOUT_ALT = page('<img src="a.png" width="10" height="10">');
const WITH_ALT = page('<img src="a.png" alt="A chart of the results" width="10" height="10">');

/** Every variable the reporting reads, empty (the machine running the tests may be a CI job). */
const CLEAN: Record<string, string> = Object.fromEntries(
  [
    'GITHUB_API_URL',
    'GITHUB_REPOSITORY',
    'GITHUB_EVENT_PATH',
    'GITHUB_SHA',
    'GITHUB_SERVER_URL',
    'GITHUB_RUN_ID',
    'GITHUB_TOKEN',
    'GITHUB_STEP_SUMMARY',
    'PAGEGRADE_GITHUB_TOKEN',
    'CI_API_V4_URL',
    'CI_PROJECT_ID',
    'CI_COMMIT_SHA',
    'CI_MERGE_REQUEST_IID',
    'CI_PIPELINE_ID',
    'CI_JOB_URL',
    'CI_JOB_TOKEN',
    'PAGEGRADE_GITLAB_TOKEN',
  ].map((k) => [k, '']),
);

let dir: string;
let api: PlatformStandIn;
let event: string;
let closedPort: number;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrade-ci-report-'));
  api = await startPlatformStandIn(TOKEN);
  event = join(dir, 'event.json');
  writeFileSync(event, JSON.stringify({ pull_request: { number: 21, head: { sha: SHA } } }));
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  closedPort = (s.address() as { port: number }).port;
  await new Promise<void>((ok) => s.close(() => ok()));
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** A folder with the config and its site (public/index.html). */
function project(config: object, index: string) {
  const root = join(dir, `p${++n}`);
  mkdirSync(join(root, 'public'), { recursive: true });
  writeFileSync(join(root, 'public/index.html'), index);
  writeFileSync(join(root, 'pagegrade.config.json'), JSON.stringify(config));
  return { root, config: join(root, 'pagegrade.config.json'), index: join(root, 'public/index.html') };
}

const base = { serve: 'public', assertions: { image_keywords: 'error' } };

const githubEnv = (over: Record<string, string> = {}) => ({
  ...CLEAN,
  CI: 'true',
  GITHUB_API_URL: api.githubApi,
  GITHUB_REPOSITORY: 'acme/site',
  GITHUB_EVENT_PATH: event,
  GITHUB_SHA: 'f'.repeat(40),
  GITHUB_SERVER_URL: 'https://github.example.test',
  GITHUB_RUN_ID: '314',
  GITHUB_TOKEN: TOKEN,
  ...over,
});

const gitlabEnv = (over: Record<string, string> = {}) => ({
  ...CLEAN,
  CI: 'true',
  CI_API_V4_URL: api.gitlabApi,
  CI_PROJECT_ID: '77',
  CI_COMMIT_SHA: SHA,
  CI_MERGE_REQUEST_IID: '8',
  CI_PIPELINE_ID: '900',
  CI_JOB_URL: 'https://gitlab.example.test/acme/site/-/jobs/12',
  CI_JOB_TOKEN: 'job-token-not-used',
  PAGEGRADE_GITLAB_TOKEN: TOKEN,
  ...over,
});

const since = (from: number) => api.requests.slice(from);

describe('pagegrade ci --github', () => {
  test('a failing run posts failure and creates the comment; the next run posts success and edits it', async () => {
    const p = project(base, WITHOUT_ALT);
    const from = api.requests.length;
    const r1 = await runCli(['ci', '--config', p.config, '--github'], githubEnv());
    assert.equal(r1.code, 1, r1.stderr);
    const first = since(from);
    assert.deepEqual(
      first.map((r) => `${r.method} ${r.path}`),
      [
        `POST /api/v3/repos/acme/site/statuses/${SHA}`,
        'GET /api/v3/repos/acme/site/issues/21/comments?per_page=100',
        'POST /api/v3/repos/acme/site/issues/21/comments',
      ],
    );
    assert.deepEqual(first[0]!.body, {
      state: 'failure',
      context: 'pagegrade',
      description: '1 error-level assertion(s) failed on 1 URL(s)',
      target_url: 'https://github.example.test/acme/site/actions/runs/314',
    });
    for (const r of first) assert.equal(r.headers.authorization, `token ${TOKEN}`);
    const body = (first[2]!.body as { body: string }).body;
    assert.ok(body.startsWith('<!-- pagegrade:report key=pagegrade.config.json -->\n## Pagegrade CI'), body);
    assert.match(body, /1 error-level assertion\(s\) failed/);
    assert.match(body, /`image_keywords`/);
    assert.match(
      r1.stderr,
      /Posted to GitHub: commit status "pagegrade" \(failure\) on 0123456789ab; comment created/,
    );

    writeFileSync(p.index, WITH_ALT);
    const again = api.requests.length;
    const r2 = await runCli(['ci', '--config', p.config, '--github'], githubEnv());
    assert.equal(r2.code, 0, r2.stderr);
    const second = since(again);
    const commentId = api.githubComments.get(21)![0]!.id;
    assert.deepEqual(
      second.map((r) => `${r.method} ${r.path}`),
      [
        `POST /api/v3/repos/acme/site/statuses/${SHA}`,
        'GET /api/v3/repos/acme/site/issues/21/comments?per_page=100',
        `PATCH /api/v3/repos/acme/site/issues/comments/${commentId}`,
      ],
    );
    assert.equal((second[0]!.body as { state: string }).state, 'success');
    assert.equal(api.githubComments.get(21)!.length, 1, 'one comment, edited');
    assert.match(api.githubComments.get(21)![0]!.body, /Every error-level assertion holds/);
    assert.match(r2.stderr, /comment updated/);
    for (const out of [r1.stdout, r1.stderr, r2.stdout, r2.stderr])
      assert.ok(!out.includes(TOKEN), 'token printed');
  });

  test('GitHub cannot be reached: a warning and the usual exit code; with required: exit 3', async () => {
    const env = githubEnv({ GITHUB_API_URL: `http://127.0.0.1:${closedPort}` });
    const loose = await runCli(['ci', '--config', project(base, WITH_ALT).config, '--github'], env);
    assert.equal(loose.code, 0, loose.stderr);
    assert.match(
      loose.stderr,
      /warning: could not post to GitHub: GitHub commit status \(http:\/\/127\.0\.0\.1:\d+\): .*ECONNREFUSED/,
    );
    assert.match(loose.stdout, /Every error-level assertion holds: exit 0/);

    const strict = await runCli(
      ['ci', '--config', project({ ...base, report: { github: { required: true } } }, WITH_ALT).config],
      env,
    );
    assert.equal(strict.code, 3, strict.stderr);
    assert.match(strict.stderr, /could not be posted and report\.\*\.required is set: exit 3/);
    for (const out of [loose.stdout, loose.stderr, strict.stdout, strict.stderr])
      assert.ok(!out.includes(TOKEN));
  });

  test('no token: a warning naming the variables; with required: exit 2 before auditing', async () => {
    const env = githubEnv({ GITHUB_TOKEN: '' });
    const loose = await runCli(['ci', '--config', project(base, WITH_ALT).config, '--github'], env);
    assert.equal(loose.code, 0, loose.stderr);
    assert.match(
      loose.stderr,
      /warning: cannot post to GitHub: missing a token \(set PAGEGRADE_GITHUB_TOKEN or GITHUB_TOKEN\)/,
    );
    const strict = await runCli(
      ['ci', '--config', project({ ...base, report: { github: { required: true } } }, WITH_ALT).config],
      env,
    );
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, /error: report\.github: cannot post to GitHub: missing a token/);
    assert.doesNotMatch(strict.stderr, /Audited/);
  });

  test('a bad report key exits 2 naming it', async () => {
    const r = await runCli(
      [
        'ci',
        '--config',
        project({ ...base, report: { github: { check: 'checkrun', token: 'x' } } }, WITH_ALT).config,
      ],
      githubEnv(),
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /report\.github\.token: unknown key/);
    assert.match(r.stderr, /report\.github\.check: must be one of "status", "check_run"/);
  });
});

describe('pagegrade ci with report.gitlab', () => {
  test('a commit status and one merge-request note, edited on the next run', async () => {
    const p = project(
      { ...base, report: { gitlab: { required: true, context: 'pagegrade/site' } } },
      WITHOUT_ALT,
    );
    const from = api.requests.length;
    const r1 = await runCli(['ci', '--config', p.config], gitlabEnv());
    assert.equal(r1.code, 1, r1.stderr);
    const first = since(from);
    assert.deepEqual(
      first.map((r) => `${r.method} ${r.path}`),
      [
        `POST /api/v4/projects/77/statuses/${SHA}`,
        'GET /api/v4/projects/77/merge_requests/8/notes?per_page=100&page=1&sort=asc&order_by=created_at',
        'POST /api/v4/projects/77/merge_requests/8/notes',
      ],
    );
    assert.deepEqual(first[0]!.body, {
      state: 'failed',
      name: 'pagegrade/site',
      description: '1 error-level assertion(s) failed on 1 URL(s)',
      target_url: 'https://gitlab.example.test/acme/site/-/jobs/12',
      pipeline_id: 900,
    });
    for (const r of first) assert.equal(r.headers.authorization, `Bearer ${TOKEN}`);

    writeFileSync(p.index, WITH_ALT);
    const again = api.requests.length;
    const r2 = await runCli(['ci', '--config', p.config], gitlabEnv());
    assert.equal(r2.code, 0, r2.stderr);
    const noteId = api.gitlabNotes.get(8)![0]!.id;
    assert.deepEqual(
      since(again)
        .map((r) => `${r.method} ${r.path}`)
        .at(-1),
      `PUT /api/v4/projects/77/merge_requests/8/notes/${noteId}`,
    );
    assert.equal((since(again)[0]!.body as { state: string }).state, 'success');
    assert.equal(api.gitlabNotes.get(8)!.length, 1);
    for (const out of [r1.stdout, r1.stderr, r2.stdout, r2.stderr]) assert.ok(!out.includes(TOKEN));
  });

  test('a run that cannot audit (the start command fails): an error status and the reason in the note, exit 2', async () => {
    const p = project(
      {
        start: { command: 'exit 4', url: `http://127.0.0.1:${closedPort}/`, timeout_ms: 5000 },
        report: { gitlab: { merge_request: 9 } },
      },
      WITH_ALT,
    );
    const from = api.requests.length;
    const r = await runCli(['ci', '--config', p.config], gitlabEnv());
    assert.equal(r.code, 2, r.stderr);
    const posted = since(from);
    assert.deepEqual((posted[0]!.body as { state: string }).state, 'failed');
    assert.match((posted[0]!.body as { description: string }).description, /^Could not run: /);
    assert.match(api.gitlabNotes.get(9)![0]!.body, /Pagegrade could not run\*\* \(exit 2\)/);
  });
});

describe('the GitHub Action and the GitLab template pass the token and turn reporting on', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  /** runs a script with bash, `npx` a stand-in that prints its arguments */
  const runScript = (script: string, env: Record<string, string>) => {
    const bin = join(dir, 'fake-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, 'npx'),
      '#!/bin/sh\necho "npx $*"\necho "token=${PAGEGRADE_GITHUB_TOKEN}${PAGEGRADE_GITLAB_TOKEN}"\n',
    );
    chmodSync(join(bin, 'npx'), 0o755);
    return execFileSync('bash', ['-c', script], {
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, ...env },
      encoding: 'utf8',
    });
  };

  test('action.yml: pr-comment true adds --github; github-token becomes PAGEGRADE_GITHUB_TOKEN', () => {
    const action = parseYaml(readFileSync(join(root, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default: string }>;
      runs: { steps: { env: Record<string, string>; run: string }[] };
    };
    assert.equal(action.inputs['pr-comment']!.default, 'false');
    assert.equal(action.inputs['github-token']!.default, '${{ github.token }}');
    const step = action.runs.steps[0]!;
    assert.equal(step.env.PAGEGRADE_GITHUB_TOKEN, '${{ inputs.github-token }}');
    assert.equal(step.env.PG_PR_COMMENT, '${{ inputs.pr-comment }}');
    const inputs = {
      PG_CONFIG: 'pg.json',
      PG_JUNIT: '',
      PG_SARIF: '',
      PG_CODEQUALITY: '',
      PG_MARKDOWN: '',
      PG_JSON: '',
      PG_PACKAGE: '',
      PAGEGRADE_GITHUB_TOKEN: 'tok',
    };
    const on = runScript(step.run, { ...inputs, PG_PR_COMMENT: 'true' });
    assert.match(on, /^npx --no-install pagegrade ci --config pg\.json --github$/m);
    assert.match(on, /^token=tok$/m);
    const off = runScript(step.run, { ...inputs, PG_PR_COMMENT: 'false' });
    assert.match(off, /^npx --no-install pagegrade ci --config pg\.json$/m);
  });

  test('ci/gitlab-ci.yml: PAGEGRADE_GITLAB_REPORT true adds --gitlab', () => {
    const job = (
      parseYaml(readFileSync(join(root, 'ci/gitlab-ci.yml'), 'utf8')) as {
        pagegrade: { variables: Record<string, string>; script: string[] };
      }
    ).pagegrade;
    assert.equal(job.variables.PAGEGRADE_GITLAB_REPORT, 'false');
    assert.equal(
      job.variables.PAGEGRADE_GITLAB_TOKEN,
      undefined,
      'the token is a masked CI/CD variable, not in the file',
    );
    const script = job.script.filter((line) => line !== 'npm ci').join('\n');
    const vars = { PAGEGRADE_CONFIG: '', PAGEGRADE_PACKAGE: '', PAGEGRADE_GITLAB_TOKEN: 'gl' };
    assert.match(
      runScript(script, { ...vars, PAGEGRADE_GITLAB_REPORT: 'true' }),
      /^npx --no-install pagegrade ci --junit pagegrade-junit\.xml --codequality gl-code-quality-report\.json --markdown pagegrade\.md --gitlab$/m,
    );
    assert.doesNotMatch(runScript(script, { ...vars, PAGEGRADE_GITLAB_REPORT: 'false' }), /--gitlab/);
  });
});
