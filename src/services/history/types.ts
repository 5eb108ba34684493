// The history feature's types (docs/history.md): runs, re-audit outcomes, diffs and trends.
// Dates are ISO 8601 strings in UTC with milliseconds (`2026-11-21T20:50:25.123Z`), exactly
// what the API returns; presenters copy them as they are.
import type { ListRunsQuery, Page } from '../../contract/lists.js';
import type { StoredReport } from '../reports/types.js';

// --- History (docs/history.md) ---------------------------------------------------------

// run sources are the stored values, declared once with the runs' table
export type { RunSource } from '../../store/runs.repository.js';
import type { RunSource } from '../../store/runs.repository.js';

// a run, a run in full and two runs compared are the contract's (the presenters' inputs)
export type { ReportDiff, Run, RunSummary } from '../../contract/history/present.js';
import type { ReportDiff, Run, RunSummary } from '../../contract/history/present.js';

/** What a re-audit did: a new current run with what changed, or a failed run with its reason. */
export type ReauditOutcome =
  | { status: 'completed'; report: StoredReport; run: RunSummary; diff: ReportDiff }
  | { status: 'failed'; run: RunSummary; reason: string };

/** A report's trend on the dashboard. */
export interface ReportTrend {
  score: number;
  /** the score of the run before the current one; null for a report audited once */
  previousScore: number | null;
  /** the newest re-audit could not fetch the page (the current results are older) */
  lastRunFailed: boolean;
}

/** What the report page shows of the history. */
export interface ReportHistory {
  /** the newest runs (at most 100), newest first */
  runs: RunSummary[];
  /** every run kept */
  total: number;
  /** "changed since the last run": the previous completed run → the current one; null for a first run */
  changes: ReportDiff | null;
  /** the newest run when it failed after the current one */
  lastFailed: RunSummary | null;
}

/** The history operations the reports service offers (implemented in history.service.ts). */
export interface ReportHistoryServices {
  /**
   * Audits the report's page again (docs/history.md). Completed: the results become a new
   * current run, and the outcome has the diff from the run before. The page could not be
   * fetched: a failed run with the reason is recorded and the current results stay — this is
   * an outcome, never a throw. Throws 404 only when the report is missing or another user's.
   * Does not move `updatedAt` (password passes stay valid); `update({results: true})` does.
   */
  reaudit(
    userId: number,
    id: number,
    options: { source: RunSource; render?: boolean },
  ): Promise<ReauditOutcome>;
  /** a page of the report's runs, newest first (the current one among them); 404 as getOwned */
  runs(userId: number, id: number, query: ListRunsQuery): Promise<Page<RunSummary>>;
  /** one run in full; 404 when the report or the run is not there (never made, or pruned) */
  run(userId: number, id: number, number: number): Promise<Run>;
  /**
   * Run `from` compared with run `to` (default: the current run, and the completed run before
   * `to`); 422 under `from`/`to` for a run that is not kept, failed, or has none before it.
   */
  diff(
    userId: number,
    id: number,
    query: { from?: number | undefined; to?: number | undefined },
  ): Promise<ReportDiff>;
  /** the report page's history of a report the viewer may see (forViewer decided that) */
  pageHistory(report: StoredReport): Promise<ReportHistory>;
  /** the trend of each of these reports of the user (the dashboard's arrows); others are left out */
  trends(userId: number, ids: number[]): Promise<Map<number, ReportTrend>>;
}
