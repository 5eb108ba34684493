// GitHub through @octokit/rest: a commit status (context `pagegrade`) or a check run, and one
// pull-request comment edited in place (found by its marker among every page of comments).
// No retries, no logging (Octokit's log is silenced): each failure becomes one sentence
// without the token, in the outcome's errors.
import { Octokit } from '@octokit/rest';
import { PACKAGE } from '../package-info.js';
import { commentBody, descriptionOf, isOurs } from './comment.js';
import type { GitHubTarget, PublishArgs, PublishOutcome } from './types.js';

/** GitHub refuses a comment body over 65,536 characters. */
const COMMENT_LIMIT = 65_536;

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A failed request in one sentence: the HTTP status and GitHub's message, or the network's error. */
function describeFailure(err: unknown): string {
  const e = err as { status?: number; message?: string; response?: { data?: { message?: string } } };
  const apiMessage = e.response?.data?.message;
  if (typeof e.status === 'number' && e.response)
    return `HTTP ${e.status}${apiMessage ? `: ${apiMessage}` : e.message ? `: ${e.message}` : ''}`;
  return e.message ?? String(err);
}

function checkRunFields(target: GitHubTarget, args: PublishArgs) {
  const title = descriptionOf(args);
  const done = args.state !== 'pending';
  return {
    ...(done
      ? {
          status: 'completed' as const,
          conclusion: args.state === 'success' ? ('success' as const) : ('failure' as const),
        }
      : { status: 'in_progress' as const }),
    ...(args.targetUrl ? { details_url: args.targetUrl } : {}),
    output: { title, summary: commentBody(target, args, COMMENT_LIMIT).split('\n').slice(1).join('\n') },
  };
}

export async function publishToGitHub(target: GitHubTarget, args: PublishArgs): Promise<PublishOutcome> {
  const out: PublishOutcome = { platform: 'github', status: null, comment: null, errors: [], notes: [] };
  const signal = AbortSignal.timeout(target.timeoutMs);
  const octokit = new Octokit({
    auth: target.token.reveal(),
    baseUrl: target.apiUrl,
    userAgent: `pagegrade/${PACKAGE.version}`,
    log: quiet,
    request: { signal, retries: 0 },
  });
  const repo = { owner: target.owner, repo: target.repo };
  const fail = (what: string, err: unknown) => {
    const said = signal.aborted ? `no answer within ${target.timeoutMs} ms` : describeFailure(err);
    out.errors.push(target.token.scrub(`GitHub ${what} (${target.apiUrl}): ${said}`));
  };

  try {
    if (target.check === 'status') {
      const { data } = await octokit.rest.repos.createCommitStatus({
        ...repo,
        sha: target.sha,
        state: args.state,
        context: target.context,
        description: descriptionOf(args),
        ...(args.targetUrl ? { target_url: args.targetUrl } : {}),
      });
      out.status = { kind: 'status', id: data.id };
    } else {
      // one check run per commit and name: a re-run on the same commit updates it
      const { data: found } = await octokit.rest.checks.listForRef({
        ...repo,
        ref: target.sha,
        check_name: target.context,
        filter: 'latest',
        per_page: 1,
      });
      const existing = found.check_runs[0];
      const fields = checkRunFields(target, args);
      const { data } = existing
        ? await octokit.rest.checks.update({ ...repo, check_run_id: existing.id, ...fields })
        : await octokit.rest.checks.create({
            ...repo,
            name: target.context,
            head_sha: target.sha,
            ...fields,
          });
      out.status = { kind: 'check_run', id: data.id };
    }
  } catch (err) {
    fail(target.check === 'status' ? 'commit status' : 'check run', err);
  }

  if (!target.comment) return out;
  if (target.pullRequest === null) {
    out.notes.push('GitHub: no pull request (not a pull_request event, and none configured): no comment');
    return out;
  }
  try {
    const issue = { ...repo, issue_number: target.pullRequest };
    const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...issue, per_page: 100 });
    const ours = comments.find((c) => isOurs(c.body, target.key));
    const body = commentBody(target, args, COMMENT_LIMIT);
    if (ours) {
      const { data } = await octokit.rest.issues.updateComment({ ...repo, comment_id: ours.id, body });
      out.comment = { id: data.id, action: 'updated', url: data.html_url ?? null };
    } else {
      const { data } = await octokit.rest.issues.createComment({ ...issue, body });
      out.comment = { id: data.id, action: 'created', url: data.html_url ?? null };
    }
  } catch (err) {
    fail(`comment on pull request #${target.pullRequest}`, err);
  }
  return out;
}
