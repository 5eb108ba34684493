// A project's schedule (docs/sites.md "Scheduled crawls"): the project's `schedule` setting
// becomes a row of the schedules table, claimed by the same scheduler as the reports' (one job
// `schedule.run` per slot, across processes; catch-up once; jitter). A slot starts a crawl with
// the project's settings (services.projects.crawl) — unless a crawl of the project is still
// queued or running, and then the slot is skipped and says so on the schedule.
import { AppError } from '../../errors.js';
import type { Db } from '../../store/database.js';
import {
  activeProjectBatch,
  deleteScheduleOfProject,
  findScheduleOfProject,
  finishScheduledRun,
  projectBatchSince,
  setNextRunAt,
  startScheduledRun,
  upsertProjectSchedule,
  type ScheduleRow,
} from '../../store/schedules.repository.js';
import type { ProjectsServices } from '../projects/types.js';
import { nextRun } from './times.js';
import type { ScheduledRunResult } from './types.js';
import { sharedNow } from '../../timers.js';

/**
 * Makes the project's schedule row say what its settings say, in the caller's transaction (the
 * one that saves the settings): created, changed (the next run computed anew from now) or
 * removed. The same `every` and `timezone` leave the row, its next run and its claim as they are.
 */
export async function syncProjectSchedule(
  trx: Db,
  now: Date,
  p: { userId: number; project: string; schedule: { every: string; timezone: string } | null },
): Promise<void> {
  const { userId, project, schedule } = p;
  if (schedule === null) {
    await deleteScheduleOfProject(trx, userId, project);
    return;
  }
  const existing = await findScheduleOfProject(trx, userId, project);
  if (existing && existing.every === schedule.every && existing.timezone === schedule.timezone) return;
  // the jitter depends on the id: a new schedule's next run is computed once it has one
  const provisional = nextRun({ id: existing?.id ?? 0, ...schedule }, now);
  const id = await upsertProjectSchedule(trx, {
    userId,
    project,
    ...schedule,
    nextRunAt: provisional.runAt.toISOString(),
    now: now.toISOString(),
  });
  if (!existing) await setNextRunAt(trx, id, nextRun({ id, ...schedule }, now).runAt.toISOString());
}

/** a started run is taken over by another execution of its job only after this (schedule.run's lease) */
const RUN_TAKEOVER_MS = 60_000;

/**
 * One slot of a project's schedule (the `schedule.run` job). At-least-once like every job:
 * a second execution of the slot at once skips; one that takes over from an execution that
 * died after starting the crawl records that crawl instead of starting another.
 */
export async function runProjectSchedule(
  d: { db: Db; now: () => Date; projects: Pick<ProjectsServices, 'crawl'> },
  row: ScheduleRow & { project: string },
  slot: string,
  job: { attempt: number; maxAttempts: number },
): Promise<ScheduledRunResult> {
  const { db } = d;
  const finish = (
    status: 'started' | 'skipped' | 'failed',
    batchId: number | undefined,
    error: string | null,
  ) =>
    finishScheduledRun(db, row.id, {
      slot,
      status,
      error,
      runNumber: null,
      batchId,
      at: d.now().toISOString(),
    });

  if (row.claimedSlot === slot && row.claimedAt !== null) {
    if (!(await startScheduledRun(db, row.id, slot, sharedNow(), RUN_TAKEOVER_MS))) {
      return { status: 'skipped', reason: 'another run of this slot is under way' };
    }
    // an earlier execution of this slot started (and died): the crawl it may have made is this slot's
    if (row.runStartedAt !== null) {
      const made = await projectBatchSince(db, row.userId, row.project, row.claimedAt);
      if (made !== null) {
        await finish('started', made, null);
        return { status: 'started', batchId: made };
      }
    }
  }

  // never two crawls of one site at once: this slot is skipped, the next one tries again
  const active = await activeProjectBatch(db, row.userId, row.project);
  if (active) {
    const reason = `A crawl of this project was still ${active.status} (batch ${active.id}): this slot was skipped.`;
    await finish('skipped', undefined, reason);
    return { status: 'skipped', reason };
  }

  let batchId: number;
  try {
    batchId = (await d.projects.crawl(row.userId, row.project)).id;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) {
      return { status: 'skipped', reason: 'the project was deleted' };
    }
    // the settings cannot crawl (no start_url, Chromium missing for render …): the slot failed
    // with the reason, the schedule goes on
    if (err instanceof AppError && err.status === 422) {
      const reason = `The crawl could not start: ${err.message}`;
      await finish('failed', undefined, reason);
      return { status: 'failed', batchId: null, error: reason };
    }
    // not the settings' fault (the database): the job is tried again; its last attempt records it
    if (job.attempt >= job.maxAttempts) {
      await finish('failed', undefined, err instanceof Error ? err.message : String(err));
    }
    throw err;
  }
  await finish('started', batchId, null);
  return { status: 'started', batchId };
}
