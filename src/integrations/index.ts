// Pagegrade on pull requests and merge requests (issue 23 §3; docs/ci.md, "Pull requests and
// merge requests"): a commit status or check run and one comment kept up to date, on GitHub or
// GitLab. `pagegrade ci` calls it now; the server can call it when builds land. It never throws
// for the platform's sake: what could not be posted is in the outcome's errors, in words and
// without the token, for the caller to warn about (and to fail on, when asked to). The types: types.ts.
import { publishToGitHub } from './github.js';
import { publishToGitLab } from './gitlab.js';
import type { PublishArgs, PublishOutcome, PullRequestTarget } from './types.js';

// where to post, from the CI's environment and settings: environment.ts (resolveGitHub, resolveGitLab)

export async function publishToPullRequest(
  target: PullRequestTarget,
  args: PublishArgs,
): Promise<PublishOutcome> {
  try {
    return target.platform === 'github'
      ? await publishToGitHub(target, args)
      : await publishToGitLab(target, args);
  } catch (err) {
    // anything the steps did not catch themselves (a bad base URL, …): a warning, never a crash
    return {
      platform: target.platform,
      status: null,
      comment: null,
      errors: [target.token.scrub(`${target.platform}: ${(err as Error).message ?? String(err)}`)],
      notes: [],
    };
  }
}
