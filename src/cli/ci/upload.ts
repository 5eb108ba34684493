// `pagegrade ci --upload` (docs/ci.md "Builds"): the results sent to a Pagegrade server as a build
// of a project (POST /api/v1/builds) with the commit's metadata (./git-meta.ts); the server's
// comparison with the base build printed, and in $GITHUB_STEP_SUMMARY as Markdown. The token is
// sent in the Authorization header only: never printed, never in an error.
import { appendFileSync } from 'node:fs';
import { projectName } from '../../analyzer/url.js';
import type { AuditReport } from '../../analyzer/types.js';
import { buildComparisonMarkdown, type BuildComparison } from '../../services/builds/compare.js';
import { CliError } from '../exit-codes.js';
import type { UploadConfig } from './config.js';
import type { PageResult } from './assertions.js';
import { readBuildMeta } from './git-meta.js';

export interface UploadOptions {
  server?: string;
  token?: string;
  project?: string;
}

/** What the server answered: the build's page and its comparison. */
export interface Uploaded {
  id: number;
  page: string;
  comparison: BuildComparison;
}

const UPLOAD_TIMEOUT_MS = 120_000;

/** `url` with the loopback `from` origin replaced by `to` (the site it stands for). */
const rewrite = (url: string, from: string | null, to: string | undefined) =>
  from !== null && to !== undefined && (url === from || url.startsWith(`${from}/`))
    ? `${to}${url.slice(from.length)}`
    : url;

/** The server's error in one line: its message and the fields it names. */
function serverError(status: number, body: string): string {
  try {
    const e = JSON.parse(body) as { message?: string; errors?: Record<string, string[]> };
    const fields = Object.entries(e.errors ?? {})
      .map(([k, v]) => `${k}: ${v.join(' ')}`)
      .join('; ');
    return `${status} ${e.message ?? ''}${fields ? ` (${fields})` : ''}`.trim();
  } catch {
    return `${status}`;
  }
}

export async function uploadBuild(
  config: UploadConfig,
  opts: UploadOptions,
  env: NodeJS.ProcessEnv,
  cwd: string,
  results: { pages: PageResult[]; reports: AuditReport[]; localOrigin: string | null },
): Promise<Uploaded> {
  const server = (opts.server ?? config.server ?? env.PAGEGRADE_SERVER ?? '').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(server))
    throw new CliError(
      'upload: no server: set upload.server in the config, --server, or PAGEGRADE_SERVER (an http or https URL).',
    );
  const token = opts.token ?? env.PAGEGRADE_TOKEN ?? config.token;
  if (token === undefined || token === '')
    throw new CliError('upload: no API key: set PAGEGRADE_TOKEN (a CI secret), --token, or upload.token.');
  const meta = readBuildMeta(env, cwd, config.base_branch ?? null);
  if (meta.commitSha === null)
    throw new CliError(
      'upload: the commit is not known: run in a git checkout, or set PAGEGRADE_BUILD_COMMIT.',
    );
  if (meta.branch === null)
    throw new CliError('upload: the branch is not known (a detached checkout): set PAGEGRADE_BUILD_BRANCH.');
  const { localOrigin } = results;
  const pages = results.pages.map((p, i) => {
    const report = results.reports[i]!;
    const url = rewrite(p.url, localOrigin, config.origin);
    return {
      url,
      report: {
        ...report,
        url: rewrite(report.url, localOrigin, config.origin),
        final_url: rewrite(report.final_url, localOrigin, config.origin),
      },
      figures: p.figures,
      assertions: p.outcomes.map((o) => ({
        id: o.id,
        kind: o.kind,
        level: o.level,
        passed: o.passed,
        actual: o.actual,
        expected: o.expected,
      })),
    };
  });
  if (pages.length === 0) throw new CliError('upload: no URL was audited: nothing to upload.');
  const project = opts.project ?? config.project ?? projectName(new URL(pages[0]!.url).hostname);
  const body = {
    project,
    commit_sha: meta.commitSha,
    branch: meta.branch,
    base_branch: meta.baseBranch,
    ancestor_sha: meta.ancestorSha,
    author: meta.author,
    message: meta.message === null ? null : meta.message.slice(0, 4000),
    run_url: meta.runUrl,
    pages,
  };
  let res: Response;
  try {
    res = await fetch(`${server}/api/v1/builds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new CliError(`upload: could not reach ${server}: ${cause}`);
  }
  const text = await res.text();
  if (res.status !== 201) throw new CliError(`upload: ${server} answered ${serverError(res.status, text)}`);
  const data = (
    JSON.parse(text) as { data: { id: number; links: { page: string }; comparison: BuildComparison } }
  ).data;
  return { id: data.id, page: data.links.page, comparison: data.comparison };
}

const signed = (n: number | null) => (n === null ? '' : n > 0 ? ` (+${n})` : n < 0 ? ` (${n})` : ' (=)');

/** The comparison for the terminal: a verdict, a line per URL, the reasons. */
export function comparisonText(u: Uploaded): string {
  const c = u.comparison;
  const lines = [
    '',
    `Build #${u.id} uploaded: ${u.page}`,
    c.base === null
      ? 'No base build to compare with.'
      : `Compared with build #${c.base.id} (${c.base.branch} @ ${c.base.commit_sha.slice(0, 7)}, ${c.base.matched === 'ancestor' ? 'the ancestor commit' : 'the newest before it'}): ${c.regressed ? 'REGRESSED' : 'no regression'}`,
  ];
  for (const p of c.pages) {
    const parts = [
      `  ${p.path}`,
      p.status === 'removed'
        ? 'removed'
        : `score ${p.score.head}${p.status === 'new' ? ' (new)' : signed(p.score.delta)}`,
    ];
    if (p.newly_failing.length > 0)
      parts.push(`newly failing: ${p.newly_failing.map((x) => x.id).join(', ')}`);
    if (p.assertions_newly_failing.length > 0)
      parts.push(`assertions newly failing: ${p.assertions_newly_failing.map((x) => x.id).join(', ')}`);
    if (p.newly_passing.length > 0)
      parts.push(`newly passing: ${p.newly_passing.map((x) => x.id).join(', ')}`);
    lines.push(parts.join('  '));
  }
  if (c.reasons.length > 0) lines.push('Regressions:', ...c.reasons.map((r) => `  - ${r}`));
  return `${lines.join('\n')}\n`;
}

/** The comparison in Markdown, appended to $GITHUB_STEP_SUMMARY when it is set; also answered (the pull-request comment adds it). */
export function summariseComparison(u: Uploaded, env: NodeJS.ProcessEnv): string {
  const markdown = buildComparisonMarkdown(u.comparison, u.page);
  const summary = env.GITHUB_STEP_SUMMARY;
  if (!summary) return markdown;
  try {
    appendFileSync(summary, markdown);
  } catch (err) {
    process.stderr.write(`warning: GITHUB_STEP_SUMMARY ${summary}: ${(err as Error).message}\n`);
  }
  return markdown;
}
