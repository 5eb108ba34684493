// schedule.run: one slot of one schedule — an ordinary re-audit of the report (docs/schedules.md).
// An adapter: services.schedules.run() checks that the slot has not run yet, re-audits, and
// records the outcome on the schedule (a page that cannot be fetched is a failed run, not an
// error). It throws only for what is not the page's fault (the database), so the engine
// retries; the last attempt records the failure and frees the schedule.
//
// The scheduler: `schedulesDue` below, a recurring task of every worker process, claims the
// due schedules and enqueues one job per slot (key `schedule:<id>:<slot>`).
import { SCHEDULE_RUN } from '../../contract/jobs.js';
import type { Services } from '../../services/types.js';
import type { JobKind, JobLogger } from '../types.js';
import type { RecurringTask } from '../worker.js';

export interface ScheduleDeps {
  services: Pick<Services, 'schedules'>;
  log: JobLogger;
}

export const scheduleRun: JobKind<typeof SCHEDULE_RUN.payload, ScheduleDeps> = {
  ...SCHEDULE_RUN,
  concurrency: 4,
  maxAttempts: 3,
  backoff: { baseMs: 30_000, maxMs: 5 * 60_000 },
  // a re-audit is one page fetch (PAGEGRADE_FETCH_TIMEOUT_MS) and a write; renewed every 20 s
  leaseMs: 60_000,
  async handle(job, { services, log }) {
    const result = await services.schedules.run(job.payload.scheduleId, job.payload.slot, {
      attempt: job.attempt,
      maxAttempts: job.maxAttempts,
    });
    log.debug({ scheduleId: job.payload.scheduleId, slot: job.payload.slot, result }, 'scheduled run');
  },
};

/** Default tick of the scheduler (PAGEGRADE_SCHEDULER_TICK_MS). */
export const DEFAULT_SCHEDULER_TICK_MS = 30_000;

/** The scheduler's recurring task: enqueue the due schedules, every `tickMs`. */
export function schedulesDue<D extends ScheduleDeps>(
  tickMs: number = DEFAULT_SCHEDULER_TICK_MS,
): RecurringTask<D> {
  return {
    name: 'schedules.due',
    everyMs: tickMs,
    async run({ services, log }, signal) {
      const n = await services.schedules.enqueueDue({ signal });
      if (n > 0) log.info({ enqueued: n }, 'scheduled runs enqueued');
    },
  };
}
