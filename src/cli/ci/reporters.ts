// `pagegrade ci`'s readable outputs: the terminal table (colours only when asked: a terminal,
// not CI, not NO_COLOR) and the Markdown summary (--markdown, $GITHUB_STEP_SUMMARY).
import { safeText, styler } from '../render-report.js';
import { table } from '../table.js';
import { failedErrors, type CiResults, type Outcome } from './assertions.js';

/** Each group of outcomes the reports show: one per URL, and the crawl's site findings. */
export function groupsOf(
  r: CiResults,
): { name: string; url: string; score: number | null; outcomes: Outcome[] }[] {
  const out = r.pages.map((p) => ({
    name: p.url,
    url: p.url,
    score: p.score as number | null,
    outcomes: p.outcomes,
  }));
  if (r.site)
    out.push({
      name: `site findings of the crawl from ${r.site.url}`,
      url: r.site.url,
      score: null,
      outcomes: r.site.outcomes,
    });
  return out;
}

const value = (o: Outcome) => (o.actual === null ? '–' : String(Math.round(o.actual * 1000) / 1000));

function counts(outcomes: readonly Outcome[]) {
  return {
    errors: outcomes.filter((o) => o.passed === false && o.level === 'error').length,
    warnings: outcomes.filter((o) => o.passed === false && o.level === 'warn').length,
    passed: outcomes.filter((o) => o.passed === true).length,
    unjudged: outcomes.filter((o) => o.passed === null).length,
  };
}

/** The terminal's report: per URL, the failing assertions in a table and the count of the rest. */
export function terminalTable(r: CiResults, colour: boolean): string {
  const c = styler(colour);
  const lines: string[] = [c('bold', `pagegrade ci (${safeText(r.config)}): ${r.pages.length} URL(s)`)];
  for (const g of groupsOf(r)) {
    const n = counts(g.outcomes);
    lines.push('', c('bold', `${safeText(g.name)}${g.score === null ? '' : `  score ${g.score}`}`));
    const failing = g.outcomes.filter((o) => o.passed === false);
    if (failing.length > 0) {
      const rows = [
        ['STATUS', 'ASSERTION', 'ACTUAL', 'EXPECTED', 'WHAT'],
        ...failing.map((o) => [
          o.level === 'error' ? 'FAIL' : 'WARN',
          o.id,
          value(o),
          o.expected,
          safeText(`${o.title}: ${o.message}`).slice(0, 160),
        ]),
      ];
      for (const line of table(rows)
        .split('\n')
        .map((l) => `  ${l}`))
        lines.push(
          line.startsWith('  FAIL')
            ? c('red', line)
            : line.startsWith('  WARN')
              ? c('yellow', line)
              : c('dim', line),
        );
    }
    lines.push(
      `  ${c('green', `${n.passed} passed`)}, ${n.errors} failed, ${n.warnings} warning(s)${n.unjudged > 0 ? `, ${n.unjudged} not judged` : ''}`,
    );
  }
  const failed = failedErrors(r).length;
  lines.push(
    '',
    failed > 0
      ? c('red', c('bold', `${failed} error-level assertion(s) failed: exit 1`))
      : c('green', c('bold', 'Every error-level assertion holds: exit 0')),
    '',
  );
  return lines.join('\n');
}

/** A Markdown table cell: one line, pipes and markup characters escaped. */
function cell(s: string): string {
  return safeText(s)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/([|\\`*_[\]<>])/g, '\\$1');
}

/** The Markdown summary (GitHub's job summary, a pull-request comment, any Markdown viewer). */
export function markdownSummary(r: CiResults): string {
  const failed = failedErrors(r).length;
  const out = [
    '## Pagegrade CI',
    '',
    failed > 0
      ? `**${failed} error-level assertion(s) failed** (exit 1).`
      : '**Every error-level assertion holds** (exit 0).',
    '',
    '| URL | Score | Failed | Warnings | Passed |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  const groups = groupsOf(r);
  for (const g of groups) {
    const n = counts(g.outcomes);
    out.push(`| ${cell(g.name)} | ${g.score ?? '–'} | ${n.errors} | ${n.warnings} | ${n.passed} |`);
  }
  const failing = groups.flatMap((g) => g.outcomes.filter((o) => o.passed === false).map((o) => ({ g, o })));
  if (failing.length > 0) {
    out.push(
      '',
      '### Failing assertions',
      '',
      '| Level | URL | Assertion | Actual | Expected | What |',
      '| --- | --- | --- | ---: | --- | --- |',
    );
    for (const { g, o } of failing)
      out.push(
        `| ${o.level} | ${cell(g.url)} | \`${o.id}\` | ${value(o)} | ${cell(o.expected)} | ${cell(`${o.title}: ${o.message}`)} |`,
      );
  }
  return `${out.join('\n')}\n`;
}
