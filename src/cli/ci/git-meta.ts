// What `pagegrade ci --upload` says about the commit it built (docs/ci.md "Builds"): read from
// the generic PAGEGRADE_BUILD_* variables first, then the CI's own (GitHub Actions, GitLab CI),
// then git itself (`git rev-parse`, `git merge-base`, `git log`). Each item is taken from the
// first source that has it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface BuildMeta {
  commitSha: string | null;
  branch: string | null;
  baseBranch: string | null;
  ancestorSha: string | null;
  author: string | null;
  message: string | null;
  runUrl: string | null;
}

type Env = NodeJS.ProcessEnv;
const val = (v: string | undefined): string | null => (v !== undefined && v.trim() !== '' ? v.trim() : null);

/** git's answer in `cwd`, or null (no git, not a repository, no such ref). */
function git(cwd: string, args: string[]): string | null {
  try {
    const out = execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
    return val(out);
  } catch {
    return null;
  }
}

/** PAGEGRADE_BUILD_COMMIT, _BRANCH, _BASE_BRANCH, _ANCESTOR, _AUTHOR, _MESSAGE, _RUN_URL. */
function generic(env: Env): Partial<BuildMeta> {
  return {
    commitSha: val(env.PAGEGRADE_BUILD_COMMIT),
    branch: val(env.PAGEGRADE_BUILD_BRANCH),
    baseBranch: val(env.PAGEGRADE_BUILD_BASE_BRANCH),
    ancestorSha: val(env.PAGEGRADE_BUILD_ANCESTOR),
    author: val(env.PAGEGRADE_BUILD_AUTHOR),
    message: val(env.PAGEGRADE_BUILD_MESSAGE),
    runUrl: val(env.PAGEGRADE_BUILD_RUN_URL),
  };
}

/**
 * GitHub Actions: a pull request's head commit and branches from the event (GITHUB_SHA is the
 * merge commit there), else GITHUB_SHA and GITHUB_REF_NAME; the run's page.
 */
function github(env: Env): Partial<BuildMeta> {
  if (env.GITHUB_ACTIONS !== 'true') return {};
  let pr: { head?: { sha?: string }; base?: { sha?: string } } | undefined;
  let headCommit: { message?: string; author?: { name?: string; email?: string } } | undefined;
  const eventPath = val(env.GITHUB_EVENT_PATH);
  if (eventPath !== null) {
    try {
      const event = JSON.parse(readFileSync(eventPath, 'utf8')) as {
        pull_request?: typeof pr;
        head_commit?: typeof headCommit;
      };
      pr = event.pull_request;
      headCommit = event.head_commit;
    } catch {
      // no event file: the variables alone
    }
  }
  const server = val(env.GITHUB_SERVER_URL) ?? 'https://github.com';
  const repo = val(env.GITHUB_REPOSITORY);
  const runId = val(env.GITHUB_RUN_ID);
  const author = headCommit?.author;
  return {
    commitSha: val(pr?.head?.sha) ?? val(env.GITHUB_SHA),
    branch: val(env.GITHUB_HEAD_REF) ?? val(env.GITHUB_REF_NAME),
    baseBranch: val(env.GITHUB_BASE_REF),
    author: author?.name ? `${author.name}${author.email ? ` <${author.email}>` : ''}` : null,
    message: val(headCommit?.message),
    runUrl: repo !== null && runId !== null ? `${server}/${repo}/actions/runs/${runId}` : null,
  };
}

/** GitLab CI: a merge request's branches and diff base, else the pipeline's ref. */
function gitlab(env: Env): Partial<BuildMeta> {
  if (env.GITLAB_CI !== 'true') return {};
  return {
    commitSha: val(env.CI_COMMIT_SHA),
    branch: val(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME) ?? val(env.CI_COMMIT_REF_NAME),
    baseBranch: val(env.CI_MERGE_REQUEST_TARGET_BRANCH_NAME),
    ancestorSha: val(env.CI_MERGE_REQUEST_DIFF_BASE_SHA),
    author: val(env.CI_COMMIT_AUTHOR),
    message: val(env.CI_COMMIT_MESSAGE),
    runUrl: val(env.CI_PIPELINE_URL),
  };
}

/** The first non-null of each item. */
function merge(...sources: Partial<BuildMeta>[]): BuildMeta {
  const pick = (k: keyof BuildMeta) => sources.map((s) => s[k] ?? null).find((v) => v !== null) ?? null;
  return {
    commitSha: pick('commitSha'),
    branch: pick('branch'),
    baseBranch: pick('baseBranch'),
    ancestorSha: pick('ancestorSha'),
    author: pick('author'),
    message: pick('message'),
    runUrl: pick('runUrl'),
  };
}

/**
 * The build's commit metadata: the variables, then git in `cwd`. `defaultBase` (the config's
 * upload.base_branch) when nothing names a base branch. The ancestor is `git merge-base` of the
 * commit and the base branch (origin/<base> first, as a CI checkout has it) when no variable
 * gives it.
 */
export function readBuildMeta(env: Env, cwd: string, defaultBase: string | null): BuildMeta {
  const fromCi = merge(generic(env), github(env), gitlab(env));
  const commitSha = fromCi.commitSha ?? git(cwd, ['rev-parse', 'HEAD']);
  let branch = fromCi.branch ?? git(cwd, ['rev-parse', '--abbrev-ref', 'HEAD']);
  if (branch === 'HEAD') branch = null; // a detached checkout names no branch
  const baseBranch = fromCi.baseBranch ?? defaultBase;
  const rev = commitSha ?? 'HEAD';
  const ancestorSha =
    fromCi.ancestorSha ??
    (baseBranch === null
      ? null
      : (git(cwd, ['merge-base', rev, `origin/${baseBranch}`]) ?? git(cwd, ['merge-base', rev, baseBranch])));
  return {
    commitSha,
    branch,
    baseBranch,
    ancestorSha,
    author: fromCi.author ?? git(cwd, ['log', '-1', '--format=%an <%ae>', rev]),
    message: fromCi.message ?? git(cwd, ['log', '-1', '--format=%B', rev]),
    runUrl: fromCi.runUrl,
  };
}
