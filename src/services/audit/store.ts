// Storing an audit — as a new report, or as a new run of a report — and removing a report, with
// the project and the user's counters kept in step: one rule for single audits
// (reports.service), re-audits (history.service) and crawls (batches/pages.ts, batches.delete).
// All run inside the caller's transaction.
import type { AuditReport } from '../../analyzer/types.js';
import { crawlUrl, DEFAULT_TRACKING_PARAMS } from '../../crawl/url.js';
import type { Db } from '../../store/database.js';
import { deleteProjectIssues } from '../../store/issues.repository.js';
import {
  addReportToProject,
  claimProject,
  deleteProjectRow,
  lockProject,
  removeReportFromProject,
} from '../../store/projects.repository.js';
import {
  deleteReport,
  findPageReport,
  findReport,
  insertReport,
  updateReportAudit,
  type AuditColumns,
  type ReportRow,
} from '../../store/reports.repository.js';
import {
  findRunState,
  insertCompletedRun,
  pruneRuns,
  setCurrentRun,
  type RunSource,
  type RunState,
} from '../../store/runs.repository.js';
import { adjustOrgCounters, bumpReportsVersion } from '../../store/organizations.repository.js';
import type { Privacy } from '../../store/reports.repository.js';
import type { ServiceContext } from '../shared/context.js';
import { crawlReportRefusal } from '../shared/quotas.js';
import { auditColumns } from './audit.js';

/** runs kept per report when the configuration does not say (PAGEGRADE_HISTORY_LIMIT) */
const DEFAULT_HISTORY_LIMIT = 100;

/** How many runs a report keeps (the current one included, failed ones counted). */
export const historyLimit = (ctx: Pick<ServiceContext, 'config'>): number =>
  ctx.config.historyLimit ?? DEFAULT_HISTORY_LIMIT;

type StoreContext = Pick<ServiceContext, 'reportEvents' | 'config'>;

/**
 * The page a report of `url` is of (reports.page_key): the crawler's normal form, tracking
 * parameters removed as a crawl removes them, so that a single audit of `/a?utm_source=x` and
 * a crawl's `/a` are one page (docs/sites.md, "One report per page").
 */
export function pageKeyOf(ctx: Pick<ServiceContext, 'config'>, url: string): string {
  return crawlUrl(url, url, ctx.config.crawlTrackingParams ?? DEFAULT_TRACKING_PARAMS) ?? url;
}

/**
 * A new report of `report` for the user (its project made when it is the first): its id. A
 * report.created event, or for a batch's page batch.page.completed (a crawl sends no report.*)
 * and its first run is the crawl's (source `batch`, with the batch's id).
 */
export async function storeAudit(
  trx: Db,
  ctx: StoreContext,
  input: {
    userId: number;
    report: AuditReport;
    privacy: Privacy;
    passwordHash: string | null;
    now: string;
    /** a batch's page: batch.page.completed instead of report.created (docs/webhooks.md) */
    batch?: { id: number; url: string };
    /** the caller made the project's row in this transaction (claimProject), with 0 reports */
    projectClaimed?: boolean;
  },
): Promise<number> {
  const { userId, report, now } = input;
  const projectCreated =
    (await addReportToProject(trx, userId, report.project, now)) || input.projectClaimed === true;
  const id = await insertReport(trx, {
    ...auditColumns(report),
    userId,
    url: report.url,
    pageKey: pageKeyOf(ctx, report.url),
    project: report.project,
    privacy: input.privacy,
    passwordHash: input.passwordHash,
    now,
    ...(input.batch ? { batchId: input.batch.id } : {}),
  });
  await adjustOrgCounters(
    trx,
    userId,
    { projects: projectCreated ? 1 : 0, reports: 1, [report.result]: 1 },
    input.batch !== undefined,
  );
  if (input.batch) await ctx.reportEvents?.batchPageCompleted(trx, userId, id, input.batch);
  else await ctx.reportEvents?.created(trx, userId, id);
  return id;
}

/**
 * Stores `audit` (an audit already made) as the new current run of report `row`, in the
 * caller's transaction, which has locked the row (findReport with forUpdate) and read its run
 * `state` after: the current run moves to report_runs under its own number (its source and
 * crawl kept), the new one becomes current with the next number, the runs past the history
 * limit are pruned, and the user's band counters follow the result (or, the band unchanged,
 * the reports version moves: generated_at did). Privacy, password and updated_at are left as
 * they are. Answers the new run's number. No event: the caller sends its own.
 */
export async function storeRun(
  trx: Db,
  ctx: Pick<ServiceContext, 'config'>,
  input: {
    userId: number;
    row: ReportRow;
    state: RunState;
    audit: AuditColumns;
    source: RunSource;
    /** the crawl that made the run (source `batch`), else null */
    batchId: number | null;
  },
): Promise<number> {
  const { userId, row, state, audit } = input;
  const id = row.id;
  const n = state.latestRunNumber + 1;
  await insertCompletedRun(trx, id, {
    number: state.runNumber,
    source: state.runSource,
    batchId: state.runBatchId,
    audit: row,
  });
  await updateReportAudit(trx, id, audit);
  await setCurrentRun(trx, id, {
    number: n,
    previousScore: row.score,
    source: input.source,
    batchId: input.batchId,
  });
  await pruneRuns(trx, id, historyLimit(ctx));
  const crawl = input.source === 'batch';
  if (audit.result !== row.result) {
    await adjustOrgCounters(trx, userId, { [row.result]: -1, [audit.result]: 1 }, crawl);
  } else {
    await bumpReportsVersion(trx, userId, crawl);
  }
  return n;
}

/**
 * A crawl's audited page (docs/sites.md, "One report per page"): a run (source `batch`, with
 * the batch's id) added to the project's report of the page when there is one — the newest
 * when several are — its privacy and password untouched; else a new report with the crawl's
 * privacy. batch.page.completed either way, no report.* event. The project's row is made if
 * need be and locked before the report is looked up, so that two crawls of one project never
 * both make a report of one page. Lock order: the batch (the caller's), project, report, user.
 * A page new to the project when the organisation's month of reports is used up makes no report:
 * `refused` says why (docs/teams.md "Quotas").
 */
export async function storeCrawledPage(
  trx: Db,
  ctx: StoreContext,
  input: {
    userId: number;
    report: AuditReport;
    privacy: Privacy;
    now: string;
    batch: { id: number; url: string };
  },
): Promise<{ reportId: number; created: boolean } | { refused: string }> {
  const { userId, report, now, batch } = input;
  const claimed = await claimProject(trx, userId, report.project, now);
  const existing = claimed
    ? null
    : await findPageReport(trx, userId, report.project, pageKeyOf(ctx, report.url));
  const row = existing === null ? null : await findReport(trx, existing, userId, true);
  const state = row === null ? null : await findRunState(trx, row.id, userId);
  if (row === null || state === null) {
    // a new report: within the organisation's reports a month (a run of a known page is not one)
    const refused = await crawlReportRefusal(trx, userId, new Date(now));
    if (refused !== null) {
      // the project's row made just now for this page goes again (no report of it is kept)
      if (claimed) await deleteProjectRow(trx, userId, report.project);
      return { refused };
    }
    const reportId = await storeAudit(trx, ctx, {
      userId,
      report,
      privacy: input.privacy,
      passwordHash: null,
      now,
      batch,
      projectClaimed: claimed,
    });
    return { reportId, created: true };
  }
  await storeRun(trx, ctx, {
    userId,
    row,
    state,
    audit: auditColumns(report),
    source: 'batch',
    batchId: batch.id,
  });
  await ctx.reportEvents?.batchPageCompleted(trx, userId, row.id, batch);
  return { reportId: row.id, created: false };
}

/**
 * Removes the user's report `id` of `project` (its project goes with its last report): false
 * when it was not there. Lock order project → report → user, as deleting a project does.
 */
export async function removeReport(trx: Db, userId: number, id: number, project: string): Promise<boolean> {
  await lockProject(trx, userId, project);
  const gone = await deleteReport(trx, id, userId);
  if (!gone) return false;
  const projectDeleted = await removeReportFromProject(trx, userId, gone.project);
  // the project went with its last report: its issue states and rule log go with it (as when
  // the project is deleted), or a crawl that makes it again would read them as its previous one's
  if (projectDeleted) await deleteProjectIssues(trx, userId, gone.project);
  await adjustOrgCounters(trx, userId, {
    projects: projectDeleted ? -1 : 0,
    reports: -1,
    [gone.result]: -1,
  });
  return true;
}
