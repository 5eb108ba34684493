// Scheduled re-audits (docs/schedules.md): one schedule per report, its owner's only.
//
// - put/get/delete/list: the API's and the dashboard's; 404 for a report missing or another
//   user's; 422 under `every` / `timezone` naming the allowed forms.
// - enqueueDue (the scheduler's recurring task, in every worker process): in one transaction
//   per batch, lock the due rows (FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite's BEGIN
//   IMMEDIATE), move each to its next run computed from now (catch-up once), mark the slot
//   claimed, and enqueue `schedule.run` with the key `schedule:<id>:<slot>` in the same
//   transaction: one job per slot, whichever processes tick.
// - run (the job): an ordinary re-audit (`source: "schedule"`: a new run in the history, the
//   report.completed / .regressed / .failed webhooks), recorded on the schedule. A page that
//   cannot be fetched is a failed run with its reason; the schedule goes on. Idempotent: a slot
//   already finished, or whose run is already in the history, is not run again. A project's
//   schedule (same table, same claim) starts a crawl instead: ./project-schedules.ts.
import { requireScheduleQuota } from '../shared/quotas.js';
import { recordChange } from '../shared/audit-log.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { renderUnavailable } from '../audit/audit.js';
import { withTransaction } from '../../store/database.js';
import {
  claimSchedule,
  countSchedules,
  deleteScheduleOfReport,
  findSchedule,
  findScheduleOfReport,
  finishScheduledRun,
  startScheduledRun,
  listSchedules,
  lockDueSchedules,
  newestRunOf,
  schedulesOfReports,
  setNextRunAt,
  upsertSchedule,
  type ScheduleRow,
} from '../../store/schedules.repository.js';
import { findReport } from '../../store/reports.repository.js';
import type { ServiceContext } from '../shared/context.js';
import { checkEvery, checkTimezone, cronOf, nextRun } from './times.js';
import type { OwnerServices, Services } from '../types.js';
import type { ListedSchedule, Schedule } from './types.js';
import type { ListedScheduleRow } from '../../store/schedules.repository.js';
import { runProjectSchedule } from './project-schedules.js';
import { enqueueJob, SCHEDULE_RUN } from '../../contract/jobs.js';
import { sharedNow } from '../../timers.js';

/** how `every` and `timezone` are checked, for the other features' schedules (a project's) */
export { checkEvery, checkTimezone };
/** a project's settings keep its schedule row (docs/sites.md "Scheduled crawls") */
export { syncProjectSchedule } from './project-schedules.js';

/** Due schedules claimed per transaction. */
export const CLAIM_BATCH = 200;
/**
 * A claimed run not finished after this long is taken as lost (its job died without
 * recording anything) and the schedule is claimed again. Far above a run's attempts.
 */
export const STALE_CLAIM_MS = 60 * 60_000;
/** a started run is taken over by another execution of its job only after this (schedule.run's lease) */
const RUN_TAKEOVER_MS = 60_000;

const reportNotFound = () => notFound('No such report.');
const scheduleNotFound = () => notFound('This report has no schedule.');

/** A report's schedule (`reportId` set: the rows of the reports' functions). */
export function toSchedule(r: ScheduleRow): Schedule {
  let jitter = 0;
  try {
    jitter = nextRun(r, new Date(r.nextRunAt)).jitterMs;
  } catch {
    jitter = 0;
  }
  return {
    id: r.id,
    reportId: r.reportId ?? 0,
    userId: r.userId,
    every: r.every,
    cron: cronOf(r.every),
    timezone: r.timezone,
    render: r.render,
    nextRunAt: r.nextRunAt,
    jitterMs: jitter,
    running: r.claimedSlot !== null,
    lastRunAt: r.lastRunAt,
    lastStatus: r.lastStatus === 'completed' || r.lastStatus === 'failed' ? r.lastStatus : null,
    lastError: r.lastError,
    lastRunNumber: r.lastRunNumber,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The start URL and render setting of a project's stored settings (JSON; its defaults when unset). */
function projectCrawlSettings(json: string | null): { startUrl: string | null; render: boolean } {
  try {
    const s = JSON.parse(json ?? '{}') as { start_url?: unknown; render?: unknown };
    return { startUrl: typeof s.start_url === 'string' ? s.start_url : null, render: s.render === 1 };
  } catch {
    return { startUrl: null, render: false };
  }
}

/** A schedule of the list, of either kind. */
function toListed(r: ListedScheduleRow): ListedSchedule {
  const base = toSchedule(r);
  if (r.projectId === null) {
    return {
      ...base,
      kind: 'report',
      reportId: r.reportId,
      project: r.projectName,
      url: r.url ?? '',
      lastStatus: base.lastStatus,
      lastBatchId: null,
    };
  }
  const settings = projectCrawlSettings(r.projectSettings);
  return {
    ...base,
    kind: 'project',
    reportId: null,
    project: r.projectName,
    // a schedule needs a start_url (settings.ts): the host's home page is only a fallback
    url: settings.startUrl ?? `https://${r.projectName ?? ''}/`,
    render: settings.render,
    lastStatus: r.lastStatus,
    lastRunNumber: null,
    lastBatchId: r.lastBatchId,
  };
}

export function createScheduleServices(
  ctx: ServiceContext,
  reports: Pick<OwnerServices['reports'], 'reaudit'>,
  projects: Pick<OwnerServices['projects'], 'crawl'>,
): Services['schedules'] {
  const { db } = ctx;

  async function ownedReport(userId: number, reportId: number): Promise<void> {
    if ((await findReport(db, reportId, userId)) === null) throw reportNotFound();
  }

  return {
    async put(userId, reportId, input) {
      await ownedReport(userId, reportId);
      const timezone = checkTimezone(input.timezone ?? 'UTC');
      const every = checkEvery(input.every, timezone);
      const render = input.render === true;
      if (render) {
        const why = renderUnavailable(ctx);
        if (why !== null) throw validationError({ render: [why] });
      }
      const now = ctx.now();
      const existing = await findScheduleOfReport(db, reportId, userId);
      if (!existing) await requireScheduleQuota(db, userId);
      // the jitter depends on the id: a new schedule's next run is computed once it has one
      const provisional = nextRun({ id: existing?.id ?? 0, every, timezone }, now);
      const id = await upsertSchedule(db, {
        reportId,
        userId,
        every,
        timezone,
        render,
        nextRunAt: provisional.runAt.toISOString(),
        now: now.toISOString(),
      });
      if (!existing) {
        const next = nextRun({ id, every, timezone }, now);
        await setNextRunAt(db, id, next.runAt.toISOString());
      }
      const row = await findScheduleOfReport(db, reportId, userId);
      if (!row) throw reportNotFound(); // deleted meanwhile
      return { schedule: toSchedule(row), created: !existing };
    },

    async get(userId, reportId) {
      const row = await findScheduleOfReport(db, reportId, userId);
      if (row) return toSchedule(row);
      await ownedReport(userId, reportId);
      throw scheduleNotFound();
    },

    async delete(userId, reportId) {
      const deleted = await withTransaction(db, async (trx) => {
        if (!(await deleteScheduleOfReport(trx, reportId, userId))) return false;
        await recordChange(trx, ctx.now(), userId, {
          action: 'schedule.deleted',
          target: { type: 'report', id: reportId },
        });
        return true;
      });
      if (deleted) return;
      await ownedReport(userId, reportId);
      throw scheduleNotFound();
    },

    async list(userId, { page, perPage }) {
      const total = await countSchedules(db, userId);
      const offset = (page - 1) * perPage;
      if (offset >= total) return { items: [], total };
      const rows = await listSchedules(db, userId, { limit: perPage, offset });
      return { items: rows.map(toListed), total };
    },

    async ofReports(userId, reportIds) {
      const rows = await schedulesOfReports(db, userId, reportIds);
      return new Map(rows.map((r) => [r.reportId ?? 0, toSchedule(r)]));
    },

    async enqueueDue(options = {}) {
      const batch = options.batch ?? CLAIM_BATCH;
      let enqueued = 0;
      for (;;) {
        if (options.signal?.aborted) break;
        const now = ctx.now();
        const claimed = await withTransaction(db, async (trx) => {
          const due = await lockDueSchedules(trx, {
            now: now.toISOString(),
            staleBefore: new Date(now.getTime() - STALE_CLAIM_MS).toISOString(),
            limit: batch,
          });
          let n = 0;
          for (const row of due) {
            let nextAt: string;
            try {
              nextAt = nextRun(row, now).runAt.toISOString();
            } catch {
              // an expression that no longer runs (cannot happen for one that was accepted):
              // looked at again in a day
              nextAt = new Date(now.getTime() + 24 * 3600_000).toISOString();
            }
            // the slot that came due: its run time identifies it
            const slot = row.nextRunAt;
            const ok = await claimSchedule(trx, row.id, {
              expectedNextRunAt: row.nextRunAt,
              nextRunAt: nextAt,
              slot,
              now: now.toISOString(),
            });
            if (!ok) continue;
            await enqueueJob(
              ctx.queue,
              SCHEDULE_RUN,
              { scheduleId: row.id, slot },
              { key: `schedule:${row.id}:${slot}`, trx },
            );
            n++;
          }
          return { found: due.length, n };
        });
        enqueued += claimed.n;
        if (claimed.found < batch) break;
      }
      return enqueued;
    },

    async run(scheduleId, slot, job) {
      const row = await findSchedule(db, scheduleId);
      if (!row) return { status: 'skipped', reason: 'the schedule was deleted' };
      if (row.lastSlot === slot) return { status: 'skipped', reason: 'this slot has run' };
      if (row.projectId !== null) {
        if (row.project === null) return { status: 'skipped', reason: 'the project was deleted' };
        return runProjectSchedule({ db, now: ctx.now, projects }, { ...row, project: row.project }, slot, job);
      }
      const reportId = row.reportId!;
      const finish = (status: 'completed' | 'failed', runNumber: number | null, error: string | null) =>
        finishScheduledRun(db, scheduleId, { slot, status, error, runNumber, at: ctx.now().toISOString() });

      // a run of this slot that made its run but died before recording it (at-least-once jobs)
      if (row.claimedSlot === slot && row.claimedAt !== null) {
        const newest = await newestRunOf(db, reportId);
        if (newest && newest.source === 'schedule' && newest.at >= row.claimedAt) {
          await finish(newest.status, newest.number, null);
          return { status: 'skipped', reason: `run ${newest.number} already made for this slot` };
        }
        // two executions of one job at once: only one runs (the other skips)
        if (!(await startScheduledRun(db, scheduleId, slot, sharedNow(), RUN_TAKEOVER_MS))) {
          return { status: 'skipped', reason: 'another run of this slot is under way' };
        }
      }

      let outcome;
      try {
        outcome = await reports.reaudit(row.userId, reportId, { source: 'schedule', render: row.render });
      } catch (err) {
        if (err instanceof AppError && err.status === 404) {
          return { status: 'skipped', reason: 'the report was deleted' };
        }
        // not the page's fault (the database, a bug): the job is tried again; on its last
        // attempt the failure is recorded and the schedule freed for its next slot
        if (job.attempt >= job.maxAttempts) {
          await finish('failed', null, err instanceof Error ? err.message : String(err));
        }
        throw err;
      }
      const error = outcome.status === 'failed' ? outcome.reason : null;
      await finish(outcome.status, outcome.run.number, error);
      return { status: outcome.status, runNumber: outcome.run.number, error };
    },
  };
}
