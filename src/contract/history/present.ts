// Runs and diffs → API JSON (docs/history.md): a run's `id` is its number within the report.
import type { Static } from 'typebox';
import type { RunDiff } from '../../analyzer/diff.js';
import type { RunRow, RunSummaryRow } from '../../store/runs.repository.js';
import type {
  ReportDiff as ReportDiffSchema,
  Run as RunSchema,
  RunSummary as RunSummarySchema,
} from './schemas.js';

/**
 * One run of a report, as listed: the runs table's row and its report. Runs are numbered per
 * report (1 is the first audit); the current run is the report's own results, and a run keeps
 * its number when a later one replaces it.
 */
export interface RunSummary extends RunSummaryRow {
  reportId: number;
}

/** A run in full: its checks and page facts too (null for a failed run). */
export interface Run extends RunSummary, Pick<RunRow, 'results' | 'page'> {}

/** Two runs of a report compared (src/analyzer/diff.ts). */
export interface ReportDiff {
  reportId: number;
  from: RunSummary;
  to: RunSummary;
  diff: RunDiff;
  /** isRegression(diff): the band dropped, or a high-priority check newly failed */
  regression: boolean;
}

export function runLinks(
  publicUrl: string,
  reportId: number,
  number: number,
): { self: string; report: string } {
  const report = `${publicUrl}/api/v1/reports/${reportId}`;
  return { self: `${report}/runs/${number}`, report };
}

/** A run as listed: no `results`, no `page`. */
export function presentRunSummary(r: RunSummary, publicUrl: string): Static<typeof RunSummarySchema> {
  return {
    id: r.number,
    report_id: r.reportId,
    status: r.status,
    current: r.current,
    source: r.source,
    batch_id: r.batchId,
    generated_at: r.generatedAt,
    final_url: r.finalUrl,
    result: r.result,
    score: r.score,
    categories: r.categories,
    error: r.error,
    links: runLinks(publicUrl, r.reportId, r.number),
  };
}

/** A run in full: its checks and page facts (null for a failed run). */
export function presentRun(r: Run, publicUrl: string): Static<typeof RunSchema> {
  const { links, ...summary } = presentRunSummary(r, publicUrl);
  return { ...summary, results: r.results, page: r.page, links };
}

/** Two runs compared: the diff's own shape (src/analyzer/diff.ts) between the two runs. */
export function presentDiff(d: ReportDiff, publicUrl: string): Static<typeof ReportDiffSchema> {
  const report = `${publicUrl}/api/v1/reports/${d.reportId}`;
  return {
    report_id: d.reportId,
    from: presentRunSummary(d.from, publicUrl),
    to: presentRunSummary(d.to, publicUrl),
    changed: d.diff.changed,
    regression: d.regression,
    score: d.diff.score,
    result: d.diff.result,
    categories: d.diff.categories,
    checks: d.diff.checks,
    page: d.diff.page,
    links: { self: `${report}/diff?from=${d.from.number}&to=${d.to.number}`, report },
  };
}
