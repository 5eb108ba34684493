// What the MCP tools answer an agent: the API's presenters (src/contract), with a report's
// failed checks drawn out and ordered — the first thing an agent needs to act on a page.
import type { Static } from 'typebox';
import { PRIORITIES } from '../analyzer/types.js';
import type { Report } from '../contract/reports/schemas.js';
import type { Run } from '../contract/history/schemas.js';

/** a check as the API presents it (the fields read here) */
interface CheckResult {
  id: string;
  category: string;
  priority: string;
  passed: boolean | null;
  title: string;
  message: string;
  how_to_fix: string;
}

const rank = (priority: string) => (PRIORITIES as readonly string[]).indexOf(priority);

interface FailedCheck {
  id: string;
  category: string;
  priority: string;
  title: string;
  message: string;
  how_to_fix: string;
}

/** The failed checks, high priority first (then by category and id): what to fix, and how. */
export function failedChecks(results: Record<string, CheckResult> | null): FailedCheck[] {
  return Object.values(results ?? {})
    .filter((r) => r.passed === false)
    .sort(
      (a, b) =>
        rank(a.priority) - rank(b.priority) ||
        a.category.localeCompare(b.category) ||
        a.id.localeCompare(b.id),
    )
    .map((r) => ({
      id: r.id,
      category: r.category,
      priority: r.priority,
      title: r.title,
      message: r.message,
      how_to_fix: r.how_to_fix,
    }));
}

const counts = (results: Record<string, CheckResult> | null) => {
  const all = Object.values(results ?? {});
  return {
    passed: all.filter((r) => r.passed === true).length,
    failed: all.filter((r) => r.passed === false).length,
    inconclusive: all.filter((r) => r.passed === null).length,
  };
};

/** A report as an agent reads it: the summary, the counts, the failed checks with how to fix them. */
export function reportDigest(report: Static<typeof Report>) {
  const { results, page, render, ...summary } = report;
  return {
    report: summary,
    checks: counts(results),
    failed_checks: failedChecks(results),
    page: { status: page.status, timings: page.timings, sizes: page.sizes },
    ...(render ? { rendered: true } : {}),
  };
}

/** One run of a report, as reportDigest has the current one (a failed run: its error). */
export function runDigest(run: Static<typeof Run>) {
  const { results, page, ...summary } = run;
  return {
    run: summary,
    checks: counts(results),
    failed_checks: failedChecks(results),
    page: page ? { status: page.status, timings: page.timings, sizes: page.sizes } : null,
  };
}
