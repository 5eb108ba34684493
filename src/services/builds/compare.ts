// A build compared with its base build (issue 23 §2; docs/ci.md "Builds"): per URL (matched by
// path and query), the checks newly failing and newly passing, the score delta, the figures'
// deltas and the CLI's assertions (budgets) newly failing; `regressed` with its reasons. Pure:
// the one place the comparison is made — the API's answers, the dashboard's build page and
// `pagegrade ci --upload` (which prints the server's answer) all show this object, and the
// pull-request integrations post its Markdown (buildComparisonMarkdown).

import type { BuildPageData } from '../../store/builds.repository.js';

export type { BuildPageData };

/** A build's identity in a comparison. */
export interface BuildRef {
  id: number;
  commit_sha: string;
  branch: string;
}

export interface CheckChange {
  id: string;
  title: string;
}

export interface FigureDelta {
  id: string;
  base: number | null;
  head: number | null;
  delta: number | null;
}

export interface PageComparison {
  url: string;
  path: string;
  /** compared with the base's page of the same path; `new`: the base has none; `removed`: only the base has it */
  status: 'compared' | 'new' | 'removed';
  score: { base: number | null; head: number | null; delta: number | null };
  newly_failing: CheckChange[];
  newly_passing: CheckChange[];
  figures: FigureDelta[];
  /** error- or warn-level assertions (budgets too) that fail now and did not fail in the base */
  assertions_newly_failing: { id: string; level: 'warn' | 'error'; actual: number | null; expected: string }[];
  regressed: boolean;
  reasons: string[];
}

export interface BuildComparison {
  build: BuildRef;
  /** the base build compared with; null when there is none (no base branch, or no build of it yet) */
  base: (BuildRef & { matched: 'ancestor' | 'newest' }) | null;
  /** a check newly failing, the score lower, or an error-level assertion newly failing, on any URL */
  regressed: boolean;
  reasons: string[];
  pages: PageComparison[];
}

const failing = (c: { passed: boolean | null } | undefined) => c?.passed === false;

function comparePage(head: BuildPageData, base: BuildPageData | undefined): PageComparison {
  if (base === undefined)
    return {
      url: head.url,
      path: head.path,
      status: 'new',
      score: { base: null, head: head.score, delta: null },
      newly_failing: [],
      newly_passing: [],
      figures: Object.entries(head.figures).map(([id, v]) => ({ id, base: null, head: v, delta: null })),
      assertions_newly_failing: [],
      regressed: false,
      reasons: [],
    };
  const newlyFailing: CheckChange[] = [];
  const newlyPassing: CheckChange[] = [];
  for (const [id, c] of Object.entries(head.checks)) {
    const before = base.checks[id];
    if (c.passed === false && before?.passed === true) newlyFailing.push({ id, title: c.title });
    if (c.passed === true && failing(before)) newlyPassing.push({ id, title: c.title });
  }
  const ids = [...new Set([...Object.keys(head.figures), ...Object.keys(base.figures)])];
  const figures = ids.map((id) => {
    const b = base.figures[id] ?? null;
    const h = head.figures[id] ?? null;
    return { id, base: b, head: h, delta: b !== null && h !== null ? h - b : null };
  });
  const baseFailed = new Set(base.assertions.filter((a) => a.passed === false).map((a) => a.id));
  const assertions = head.assertions
    .filter((a) => a.passed === false && !baseFailed.has(a.id))
    .map((a) => ({ id: a.id, level: a.level, actual: a.actual, expected: a.expected }));
  const delta = head.score - base.score;
  const reasons: string[] = [];
  for (const c of newlyFailing) reasons.push(`${head.path}: ${c.id} newly fails`);
  if (delta < 0) reasons.push(`${head.path}: score ${base.score} → ${head.score} (${delta})`);
  for (const a of assertions)
    if (a.level === 'error')
      reasons.push(`${head.path}: assertion ${a.id} newly fails (${a.actual ?? '—'}, expected ${a.expected})`);
  return {
    url: head.url,
    path: head.path,
    status: 'compared',
    score: { base: base.score, head: head.score, delta },
    newly_failing: newlyFailing,
    newly_passing: newlyPassing,
    figures,
    assertions_newly_failing: assertions,
    regressed: reasons.length > 0,
    reasons,
  };
}

/**
 * The comparison of `build`'s pages with `base`'s (null: no base build — every page `new`, no
 * regression). Pages are matched by path and query, so a site served on another loopback port
 * in each CI run still compares with itself.
 */
export function compareBuild(
  build: BuildRef,
  pages: BuildPageData[],
  base: { ref: BuildRef; matched: 'ancestor' | 'newest'; pages: BuildPageData[] } | null,
): BuildComparison {
  const byPath = new Map((base?.pages ?? []).map((p) => [p.path, p]));
  const compared = pages.map((p) => comparePage(p, base === null ? undefined : byPath.get(p.path)));
  const seen = new Set(pages.map((p) => p.path));
  for (const p of base?.pages ?? [])
    if (!seen.has(p.path))
      compared.push({
        url: p.url,
        path: p.path,
        status: 'removed',
        score: { base: p.score, head: null, delta: null },
        newly_failing: [],
        newly_passing: [],
        figures: [],
        assertions_newly_failing: [],
        regressed: false,
        reasons: [],
      });
  const reasons = compared.flatMap((p) => p.reasons);
  return {
    build,
    base: base === null ? null : { ...base.ref, matched: base.matched },
    regressed: reasons.length > 0,
    reasons,
    pages: compared,
  };
}

const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const signed = (n: number | null) => (n === null ? '—' : n > 0 ? `+${n}` : `${n}`);
const short = (sha: string) => sha.slice(0, 7);

/**
 * The comparison as Markdown (a pull-request comment, a job summary): a verdict line, a table
 * with a row per URL, the reasons, and a link to the build's page.
 */
export function buildComparisonMarkdown(c: BuildComparison, buildUrl: string): string {
  const lines: string[] = [];
  const verdict = c.regressed ? '**Regressed**' : '**No regression**';
  lines.push(
    `### Pagegrade build #${c.build.id} (${cell(c.build.branch)} @ \`${short(c.build.commit_sha)}\`)`,
    '',
    c.base === null
      ? `${verdict}: no base build to compare with.`
      : `${verdict} compared with build #${c.base.id} (${cell(c.base.branch)} @ \`${short(c.base.commit_sha)}\`${c.base.matched === 'ancestor' ? ', the ancestor commit' : ', the newest before this build'}).`,
    '',
    '| Page | Score | Δ | Newly failing | Newly passing |',
    '| --- | ---: | ---: | --- | --- |',
  );
  for (const p of c.pages) {
    const score = p.score.head === null ? 'removed' : String(p.score.head);
    const failingIds = [...p.newly_failing.map((x) => x.id), ...p.assertions_newly_failing.map((a) => a.id)];
    lines.push(
      `| ${p.regressed ? '❌ ' : ''}${cell(p.path)} | ${score} | ${p.status === 'new' ? 'new' : signed(p.score.delta)} | ${cell(failingIds.join(', ')) || '—'} | ${cell(p.newly_passing.map((x) => x.id).join(', ')) || '—'} |`,
    );
  }
  if (c.reasons.length > 0) lines.push('', ...c.reasons.map((r) => `- ${cell(r)}`));
  lines.push('', `[The build on Pagegrade](${buildUrl})`, '');
  return lines.join('\n');
}
