// Report history (docs/history.md): re-audits that become numbered runs (or failed runs with
// their reason), the runs list, one run, the diff of two runs, the report page's history and
// the dashboard's trends. The rules live here; the SQL in src/store/runs.repository.ts; the
// diff itself is the pure src/analyzer/diff.ts.
import { notFound, validationError } from '../../errors.js';
import { withTransaction, type Db } from '../../store/database.js';
import { findReport, type ReportRow } from '../../store/reports.repository.js';
import {
  countRuns,
  findKeptRun,
  findRunState,
  findTrends,
  insertFailedRun,
  keptRange,
  listRunSummaries,
  previousCompletedNumber,
  pruneRuns,
  setLatestRunNumber,
  type RunState,
} from '../../store/runs.repository.js';
import { auditColumns, auditPage, isFetchError } from '../audit/audit.js';
import { historyLimit, storeRun } from '../audit/store.js';
import type { ServiceContext } from '../shared/context.js';
import { diffRuns, isRegression, type DiffInput } from '../../analyzer/diff.js';
import { resolveRunsQuery } from '../../contract/lists.js';
import type { ReauditOutcome, ReportDiff, ReportTrend, Run, RunSource, RunSummary } from './types.js';
import type { OwnerServices } from '../types.js';
import type { StoredReport } from '../reports/types.js';

/** runs the report page's chart shows at most */
const CHART_RUNS = 100;

const reportNotFound = () => notFound('No such report.');

/** The current run of a report: its own results, under its run number. */
function currentRun(report: ReportRow | StoredReport, state: RunState): Run {
  return {
    reportId: report.id,
    number: state.runNumber,
    status: 'completed',
    current: true,
    source: state.runSource,
    batchId: state.runBatchId,
    generatedAt: report.generatedAt,
    finalUrl: report.finalUrl,
    result: report.result,
    score: report.score,
    categories: report.categories,
    error: null,
    results: report.results,
    page: report.page,
  };
}

function summaryOf(run: Run): RunSummary {
  const { results: _results, page: _page, ...summary } = run;
  return summary;
}

/** A completed run as the diff reads it. */
function diffInput(run: Run): DiffInput {
  if (run.status !== 'completed' || run.results === null || run.page === null || run.categories === null)
    throw new Error(`run ${run.number} of report ${run.reportId} has no results`);
  return {
    finalUrl: run.finalUrl ?? '',
    score: run.score ?? 0,
    result: run.result ?? 'bad',
    categories: run.categories,
    results: run.results,
    page: run.page,
  };
}

/** Both runs completed: what changed from one to the other. */
function compare(from: Run, to: Run): ReportDiff {
  const diff = diffRuns(diffInput(from), diffInput(to));
  return {
    reportId: to.reportId,
    from: summaryOf(from),
    to: summaryOf(to),
    diff,
    regression: isRegression(diff),
  };
}

/**
 * Re-audits a report of `userId`. `inTransaction` runs inside the transaction that stores a
 * completed run (the API's PATCH applies privacy and password there, all or nothing); it is
 * not called for a failed run.
 */
export type Reauditor = (
  userId: number,
  id: number,
  options: { source: RunSource; render?: boolean },
  inTransaction?: (trx: Db) => Promise<void>,
) => Promise<ReauditOutcome>;

export function createReauditor(ctx: ServiceContext): Reauditor {
  const { db } = ctx;

  return async (userId, id, { source, render }, inTransaction) => {
    const before = await findReport(db, id, userId);
    if (!before) throw reportNotFound();
    let fresh;
    try {
      fresh = await auditPage(ctx, before.url, { render: render === true, userId });
    } catch (err) {
      if (!isFetchError(err)) throw err;
      // the page could not be fetched: a failed run, and the current results stay
      const reason = err.message;
      const at = ctx.now().toISOString();
      const number = await withTransaction(db, async (trx) => {
        const state = await findRunState(trx, id, userId, true);
        if (!state) throw reportNotFound();
        const n = state.latestRunNumber + 1;
        await insertFailedRun(trx, id, { number: n, source, error: reason, at });
        await setLatestRunNumber(trx, id, n);
        await pruneRuns(trx, id, historyLimit(ctx));
        // webhooks: report.failed, with this transaction
        await ctx.reportEvents?.failed(trx, before, reason);
        return n;
      });
      const run: RunSummary = {
        reportId: id,
        number,
        status: 'failed',
        current: false,
        source,
        batchId: null,
        generatedAt: at,
        finalUrl: null,
        result: null,
        score: null,
        categories: null,
        error: reason,
      };
      return { status: 'failed', run, reason };
    }

    const next = auditColumns(fresh);
    // the report as the re-audit left it and the diff from the run before, read and computed
    // once in the re-audit's transaction (the webhooks' payloads and the answer share them)
    const { report, now, diff } = await withTransaction(db, async (trx) => {
      const row = await findReport(trx, id, userId, true);
      if (!row) throw reportNotFound();
      const state = (await findRunState(trx, id, userId))!;
      // the current run keeps its number in report_runs; the fresh one becomes current (the
      // same rule as a crawl's run: src/services/audit/store.ts)
      await storeRun(trx, ctx, { userId, row, state, audit: next, source, batchId: null });
      await inTransaction?.(trx);
      // the run that was current, as it is now kept, against the new current one
      const previous: Run = { ...currentRun(row, state), current: false };
      const report = (await findReport(trx, id, userId))!;
      const now = currentRun(report, (await findRunState(trx, id, userId))!);
      const diff = compare(previous, now);
      // webhooks, with this transaction: report.completed, and report.regressed with the diff
      await ctx.reportEvents?.completed(trx, userId, id, diff.regression ? diff : null);
      return { report, now, diff };
    });
    return { status: 'completed', report, run: summaryOf(now), diff };
  };
}

/** The reports services that this module provides (src/services/index.ts merges them in). */
export type HistoryFunctions = 'reaudit' | 'runs' | 'run' | 'diff' | 'pageHistory' | 'trends';
type HistoryServices = Pick<OwnerServices['reports'], HistoryFunctions>;

export function createHistoryServices(ctx: ServiceContext): HistoryServices {
  const { db } = ctx;
  const reaudit = createReauditor(ctx);

  async function owned(userId: number, id: number): Promise<RunState> {
    const state = await findRunState(db, id, userId);
    if (!state) throw reportNotFound();
    return state;
  }

  /** Run `n` of a report in full (the current one from the report row), or null when not kept. */
  async function loadRun(state: RunState, n: number): Promise<Run | null> {
    if (n === state.runNumber) {
      const report = await findReport(db, state.reportId, null);
      return report ? currentRun(report, state) : null;
    }
    const kept = await findKeptRun(db, state.reportId, n);
    return kept ? { ...kept, reportId: state.reportId } : null;
  }

  /** A completed run named by a diff parameter, or a 422 under that parameter. */
  async function comparable(state: RunState, field: 'from' | 'to', n: number): Promise<Run> {
    const run = await loadRun(state, n);
    if (!run) {
      const { first, last } = await keptRange(db, state);
      throw validationError({
        [field]: [`Run ${n} is not kept: the runs of this report are ${first} to ${last}.`],
      });
    }
    if (run.status !== 'completed') {
      throw validationError({ [field]: [`Run ${n} failed and has no results: choose a completed run.`] });
    }
    return run;
  }

  return {
    reaudit: (userId, id, options) => reaudit(userId, id, options),

    async runs(userId, id, query) {
      await owned(userId, id);
      const { perPage, page } = resolveRunsQuery(query);
      const total = await countRuns(db, id);
      const offset = (page - 1) * perPage;
      if (offset >= total) return { items: [], total };
      const rows = await listRunSummaries(db, id, { limit: perPage, offset });
      return { items: rows.map((r) => ({ ...r, reportId: id })), total };
    },

    async run(userId, id, number) {
      const state = await owned(userId, id);
      const run = await loadRun(state, number);
      if (!run) throw notFound('No such run.');
      return run;
    },

    async diff(userId, id, query) {
      const state = await owned(userId, id);
      const toNumber = query.to ?? state.runNumber;
      const to = await comparable(state, 'to', toNumber);
      let fromNumber = query.from;
      if (fromNumber === undefined) {
        const before = await previousCompletedNumber(db, id, toNumber);
        if (before === null) {
          throw validationError({
            from: [`There is no completed run before run ${toNumber} to compare it with.`],
          });
        }
        fromNumber = before;
      }
      const from = await comparable(state, 'from', fromNumber);
      return compare(from, to);
    },

    async pageHistory(report) {
      const state = await findRunState(db, report.id, null);
      if (!state) return { runs: [], total: 0, changes: null, lastFailed: null };
      // audited once (most reports): nothing more to read
      if (state.latestRunNumber === 1) {
        return { runs: [summaryOf(currentRun(report, state))], total: 1, changes: null, lastFailed: null };
      }
      const [runs, total, before] = await Promise.all([
        listRunSummaries(db, report.id, { limit: CHART_RUNS, offset: 0 }),
        countRuns(db, report.id),
        previousCompletedNumber(db, report.id, state.runNumber),
      ]);
      const previous = before === null ? null : await findKeptRun(db, report.id, before);
      const withId = runs.map((r) => ({ ...r, reportId: report.id }));
      const newest = withId[0];
      return {
        runs: withId,
        total,
        changes: previous ? compare({ ...previous, reportId: report.id }, currentRun(report, state)) : null,
        lastFailed: newest && newest.status === 'failed' ? newest : null,
      };
    },

    async trends(userId, ids) {
      const rows = await findTrends(db, userId, ids);
      return new Map<number, ReportTrend>(
        rows.map((r) => [
          r.id,
          { score: r.score, previousScore: r.previousScore, lastRunFailed: r.lastRunFailed },
        ]),
      );
    },
  };
}
