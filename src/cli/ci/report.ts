// `pagegrade ci --github / --gitlab` (or the file's `report` key): the verdict posted on the
// pull or merge request — a commit status (or check run) and one comment kept up to date —
// through src/integrations (docs/ci.md, "Pull requests and merge requests"). Where to post is
// resolved before anything is audited: something missing (no token, no repository …) is a
// warning, or exit 2 with `required: true`. A platform that cannot be reached or refuses is a
// warning, or exit 3 with `required: true`. The token is never printed.
import { basename, isAbsolute } from 'node:path';
import { resolveGitHub, resolveGitLab } from '../../integrations/environment.js';
import type { PublishState, PullRequestTarget } from '../../integrations/types.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { ReportConfig } from './schema.js';

const NAMES = { github: 'GitHub', gitlab: 'GitLab' } as const;

interface Destination {
  target: PullRequestTarget;
  targetUrl: string | null;
  required: boolean;
}

export interface PullRequestReporter {
  /** Posts the verdict everywhere asked; returns exit 3 when a required post failed, else null. */
  publish(args: {
    state: PublishState;
    summaryMarkdown: string;
    description: string;
  }): Promise<number | null>;
}

const warn = (line: string) => process.stderr.write(`${line}\n`);

/** The destinations asked for (flags or the file), resolved from the environment; null when none. */
export function prepareReporter(
  report: ReportConfig,
  flags: { github?: boolean; gitlab?: boolean },
  env: NodeJS.ProcessEnv,
  configLabel: string,
): PullRequestReporter | null {
  const destinations: Destination[] = [];
  // the comment's key: the file's path from the working folder (its name when it is elsewhere)
  const key = isAbsolute(configLabel) ? basename(configLabel) : configLabel;
  const wanted = [
    ['github', flags.github === true || report.github !== undefined, report.github ?? {}],
    ['gitlab', flags.gitlab === true || report.gitlab !== undefined, report.gitlab ?? {}],
  ] as const;
  for (const [platform, on, options] of wanted) {
    if (!on) continue;
    const resolved =
      platform === 'github' ? resolveGitHub(options, env, { key }) : resolveGitLab(options, env, { key });
    const required = options.required === true;
    if ('missing' in resolved) {
      const said = `cannot post to ${NAMES[platform]}: missing ${resolved.missing.join('; ')} (docs/ci.md, "Pull requests and merge requests")`;
      if (required) throw new CliError(`report.${platform}: ${said}`);
      warn(`warning: ${said}.`);
      continue;
    }
    destinations.push({ ...resolved, required });
  }
  if (destinations.length === 0) return null;
  return {
    async publish(args) {
      const { publishToPullRequest } = await import('../../integrations/index.js');
      let code: number | null = null;
      for (const d of destinations) {
        const name = NAMES[d.target.platform];
        const outcome = await publishToPullRequest(d.target, { ...args, targetUrl: d.targetUrl });
        const posted: string[] = [];
        if (outcome.status)
          posted.push(
            `${outcome.status.kind === 'check_run' ? 'check run' : 'commit status'} "${d.target.context}" (${args.state}) on ${d.target.sha.slice(0, 12)}`,
          );
        if (outcome.comment)
          posted.push(
            `comment ${outcome.comment.action}${outcome.comment.url ? ` (${outcome.comment.url})` : ''}`,
          );
        if (posted.length > 0) warn(`Posted to ${name}: ${posted.join('; ')}.`);
        for (const n of outcome.notes) warn(`note: ${n}.`);
        for (const e of outcome.errors) warn(`warning: could not post to ${name}: ${e}`);
        if (outcome.errors.length > 0 && d.required) code = EXIT.reportFailed;
      }
      if (code !== null) warn(`The results could not be posted and report.*.required is set: exit ${code}.`);
      return code;
    },
  };
}
