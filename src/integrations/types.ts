// What Pagegrade posts on a pull request (GitHub) or a merge request (GitLab), and where: the
// targets (resolved from the CI's environment and the configuration: environment.ts), the
// publication's arguments and what came of it (docs/ci.md, "Pull requests and merge requests").
import type { Secret } from './secret.js';

/** The verdict a commit status, check run or comment carries. */
export type PublishState = 'pending' | 'success' | 'failure' | 'error';

interface TargetBase {
  /** the REST API's base URL, without a trailing slash (GitHub Enterprise: https://HOST/api/v3) */
  apiUrl: string;
  /** the commit the status or check run is set on */
  sha: string;
  /** the status context (GitHub), the check run's name, the status name (GitLab) */
  context: string;
  /** post (and update) the comment or note; needs the pull/merge request's number */
  comment: boolean;
  /** tells this configuration's comment apart from another's in the same repository */
  key: string;
  /** the whole publication's time budget, in milliseconds */
  timeoutMs: number;
  /** the token, wrapped so that logging or serialising a target never prints it (secret.ts) */
  token: Secret;
}

export interface GitHubTarget extends TargetBase {
  platform: 'github';
  owner: string;
  repo: string;
  /** the pull request's number; null: no comment (a push, not a pull request) */
  pullRequest: number | null;
  /** a commit status (`repos.createCommitStatus`) or a check run (a GitHub App's token) */
  check: 'status' | 'check_run';
}

export interface GitLabTarget extends TargetBase {
  platform: 'gitlab';
  /** the numeric id or the path (`group/project`) */
  project: string;
  /** the merge request's IID; null: no note */
  mergeRequest: number | null;
  /** the pipeline the status belongs to (CI_PIPELINE_ID), when known */
  pipelineId: number | null;
}

export type PullRequestTarget = GitHubTarget | GitLabTarget;

export interface PublishArgs {
  state: PublishState;
  /** the comment's body (Markdown): the results table, the comparison when there is one */
  summaryMarkdown: string;
  /** the report or build page (or the CI job) the status and the comment link to */
  targetUrl?: string | null;
  /** the status's one line (at most 140 characters are kept); a default per state otherwise */
  description?: string;
}

export interface PublishOutcome {
  platform: PullRequestTarget['platform'];
  /** what was set on the commit, or null when that failed */
  status: { kind: 'status' | 'check_run'; id: number | null } | null;
  /** the comment or note: made on this run, or edited in place; null when none (or it failed) */
  comment: { id: number; action: 'created' | 'updated'; url: string | null } | null;
  /** what was not posted and why (a sentence each; never the token); empty when all went through */
  errors: string[];
  /** what was left out on purpose (no pull request: no comment) */
  notes: string[];
}
