// Where to post, read from the CI's own environment, each value overridable by the
// configuration (the `report.github` / `report.gitlab` keys of pagegrade ci's file, the
// server's settings later):
//   GitHub Actions: GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_EVENT_PATH (the event's JSON:
//     pull_request.number and pull_request.head.sha), GITHUB_SHA; the token from
//     PAGEGRADE_GITHUB_TOKEN, else GITHUB_TOKEN; the link: the run's page.
//   GitLab CI: CI_API_V4_URL, CI_PROJECT_ID, CI_COMMIT_SHA, CI_MERGE_REQUEST_IID, CI_PIPELINE_ID;
//     the token from PAGEGRADE_GITLAB_TOKEN (CI_JOB_TOKEN may not set statuses nor write notes);
//     the link: the job's page.
// A target lacking something it needs is a list of what is missing, in words.
import { readFileSync } from 'node:fs';
import { Secret } from './secret.js';
import type { GitHubTarget, GitLabTarget } from './types.js';

/** What both platforms' settings share (snake_case: the configuration file's keys). */
interface CommonOptions {
  api_url?: string;
  sha?: string;
  /** the variable holding the token, instead of the platform's default ones */
  token_env?: string;
  context?: string;
  comment?: boolean;
  key?: string;
  target_url?: string;
  timeout_ms?: number;
}

export interface GitHubOptions extends CommonOptions {
  /** `owner/name` */
  repository?: string;
  pull_request?: number;
  check?: 'status' | 'check_run';
}

export interface GitLabOptions extends CommonOptions {
  /** the numeric id or `group/project` */
  project?: string;
  merge_request?: number;
}

export type Resolved<T> = { target: T; targetUrl: string | null } | { missing: string[] };

const DEFAULT_TIMEOUT_MS = 30_000;
const set = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v);
const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** The pull_request event's number and head SHA, when GITHUB_EVENT_PATH is such an event. */
function pullRequestEvent(env: NodeJS.ProcessEnv): { number?: number; sha?: string } {
  const file = set(env.GITHUB_EVENT_PATH);
  if (file === undefined) return {};
  try {
    const event = JSON.parse(readFileSync(file, 'utf8')) as {
      pull_request?: { number?: unknown; head?: { sha?: unknown } };
    };
    const pr = event.pull_request;
    return {
      ...(typeof pr?.number === 'number' ? { number: pr.number } : {}),
      ...(typeof pr?.head?.sha === 'string' ? { sha: pr.head.sha } : {}),
    };
  } catch {
    return {};
  }
}

function token(o: CommonOptions, env: NodeJS.ProcessEnv, defaults: string[], missing: string[]): Secret {
  const names = o.token_env !== undefined ? [o.token_env] : defaults;
  const value = names.map((n) => set(env[n])).find((v) => v !== undefined);
  if (value === undefined) missing.push(`a token (set ${names.join(' or ')})`);
  return new Secret(value ?? '');
}

export function resolveGitHub(
  o: GitHubOptions,
  env: NodeJS.ProcessEnv,
  defaults: { key: string },
): Resolved<GitHubTarget> {
  const missing: string[] = [];
  const event = pullRequestEvent(env);
  const repository = o.repository ?? set(env.GITHUB_REPOSITORY);
  const [owner, repo, ...rest] = (repository ?? '').split('/');
  if (repository === undefined)
    missing.push('the repository (GITHUB_REPOSITORY, or report.github.repository)');
  else if (!owner || !repo || rest.length > 0)
    missing.push(`the repository as owner/name (not "${repository}")`);
  const sha = o.sha ?? event.sha ?? set(env.GITHUB_SHA);
  if (sha === undefined) missing.push('the commit (GITHUB_SHA, or report.github.sha)');
  const secret = token(o, env, ['PAGEGRADE_GITHUB_TOKEN', 'GITHUB_TOKEN'], missing);
  if (missing.length > 0) return { missing };
  const server = set(env.GITHUB_SERVER_URL);
  const runId = set(env.GITHUB_RUN_ID);
  const runUrl =
    server && runId && set(env.GITHUB_REPOSITORY)
      ? `${trimSlash(server)}/${env.GITHUB_REPOSITORY}/actions/runs/${runId}`
      : null;
  return {
    target: {
      platform: 'github',
      apiUrl: trimSlash(o.api_url ?? set(env.GITHUB_API_URL) ?? 'https://api.github.com'),
      token: secret,
      owner: owner!,
      repo: repo!,
      sha: sha!,
      pullRequest: o.pull_request ?? event.number ?? null,
      check: o.check ?? 'status',
      context: o.context ?? 'pagegrade',
      comment: o.comment ?? true,
      key: o.key ?? defaults.key,
      timeoutMs: o.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    },
    targetUrl: o.target_url ?? runUrl,
  };
}

export function resolveGitLab(
  o: GitLabOptions,
  env: NodeJS.ProcessEnv,
  defaults: { key: string },
): Resolved<GitLabTarget> {
  const missing: string[] = [];
  const project = o.project ?? set(env.CI_PROJECT_ID);
  if (project === undefined) missing.push('the project (CI_PROJECT_ID, or report.gitlab.project)');
  const sha = o.sha ?? set(env.CI_COMMIT_SHA);
  if (sha === undefined) missing.push('the commit (CI_COMMIT_SHA, or report.gitlab.sha)');
  const secret = token(o, env, ['PAGEGRADE_GITLAB_TOKEN'], missing);
  if (missing.length > 0) return { missing };
  const iid = o.merge_request ?? Number(set(env.CI_MERGE_REQUEST_IID) ?? NaN);
  const pipeline = Number(set(env.CI_PIPELINE_ID) ?? NaN);
  return {
    target: {
      platform: 'gitlab',
      apiUrl: trimSlash(o.api_url ?? set(env.CI_API_V4_URL) ?? 'https://gitlab.com/api/v4'),
      token: secret,
      project: project!,
      sha: sha!,
      mergeRequest: Number.isInteger(iid) ? iid : null,
      // the job's own pipeline, unless the configuration names another commit
      pipelineId: o.sha === undefined && Number.isInteger(pipeline) ? pipeline : null,
      context: o.context ?? 'pagegrade',
      comment: o.comment ?? true,
      key: o.key ?? defaults.key,
      timeoutMs: o.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    },
    targetUrl: o.target_url ?? set(env.CI_JOB_URL) ?? null,
  };
}
