// Storing an audit as a new report and removing a report, with the project and the user's
// counters kept in step: one rule for single audits (reports.service) and batches
// (batches/pages.ts, batches.delete). Both run inside the caller's transaction.
import type { AuditReport } from '../../analyzer/types.js';
import type { Db } from '../../store/database.js';
import { addReportToProject, lockProject, removeReportFromProject } from '../../store/projects.repository.js';
import { deleteReport, insertReport } from '../../store/reports.repository.js';
import { adjustUserCounters } from '../../store/users.repository.js';
import type { Privacy } from '../../store/reports.repository.js';
import type { ServiceContext } from '../shared/context.js';
import { auditColumns } from './audit.js';

/**
 * A new report of `report` for the user (its project made when it is the first): its id. A
 * report.created event, or for a batch's page batch.page.completed (a crawl sends no report.*).
 */
export async function storeAudit(
  trx: Db,
  ctx: Pick<ServiceContext, 'reportEvents'>,
  input: {
    userId: number;
    report: AuditReport;
    privacy: Privacy;
    passwordHash: string | null;
    now: string;
    /** a batch's page: batch.page.completed instead of report.created (docs/webhooks.md) */
    batch?: { id: number; url: string };
  },
): Promise<number> {
  const { userId, report, now } = input;
  const projectCreated = await addReportToProject(trx, userId, report.project, now);
  const id = await insertReport(trx, {
    ...auditColumns(report),
    userId,
    url: report.url,
    project: report.project,
    privacy: input.privacy,
    passwordHash: input.passwordHash,
    now,
  });
  await adjustUserCounters(trx, userId, {
    projects: projectCreated ? 1 : 0,
    reports: 1,
    [report.result]: 1,
  });
  if (input.batch) await ctx.reportEvents?.batchPageCompleted(trx, userId, id, input.batch);
  else await ctx.reportEvents?.created(trx, userId, id);
  return id;
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
  await adjustUserCounters(trx, userId, {
    projects: projectDeleted ? -1 : 0,
    reports: -1,
    [gone.result]: -1,
  });
  return true;
}
