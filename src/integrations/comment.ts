// The comment (GitHub) or note (GitLab) Pagegrade keeps on a pull or merge request: one per
// configuration key, found again by its hidden marker and edited in place on every new run.
import type { PublishArgs, PublishState, PullRequestTarget } from './types.js';

/** `<!-- pagegrade:report key=… -->`: the first line of the comment, the key URL-encoded (no `-->`). */
export function markerOf(key: string): string {
  return `<!-- pagegrade:report key=${encodeURIComponent(key)} -->`;
}

/** Whether a comment's body is this key's report (another key's, or a person's, is left alone). */
export function isOurs(body: string | null | undefined, key: string): boolean {
  return typeof body === 'string' && body.includes(markerOf(key));
}

const HEADLINE: Record<PublishState, string> = {
  pending: 'Pagegrade is running',
  success: 'Every error-level assertion holds',
  failure: 'Error-level assertions failed',
  error: 'Pagegrade could not run',
};

/** The status's one line: the caller's, else the state's; at most 140 characters (GitHub's limit). */
export function descriptionOf(args: PublishArgs): string {
  const text = (args.description ?? HEADLINE[args.state]).replace(/\s+/g, ' ').trim();
  return text.length <= 140 ? text : `${text.slice(0, 139)}…`;
}

/**
 * The comment's body: the marker, the summary (cut to fit `limit` characters: GitHub takes
 * 65,536), the link and which commit it is about.
 */
export function commentBody(target: PullRequestTarget, args: PublishArgs, limit: number): string {
  const head = `${markerOf(target.key)}\n`;
  const tail = [
    '',
    ...(args.targetUrl ? [`[The full report](${args.targetUrl})`, ''] : []),
    `<sub>Pagegrade · ${target.context} · commit ${target.sha.slice(0, 12)} · this comment is updated on every run</sub>`,
    '',
  ].join('\n');
  let summary = args.summaryMarkdown.trimEnd();
  const room = limit - head.length - tail.length - 2;
  if (summary.length > room) {
    const cut = '\n\n… (cut: the summary is longer than a comment may be)';
    summary = summary.slice(0, Math.max(0, room - cut.length)) + cut;
  }
  return `${head}${summary}\n${tail}`;
}
