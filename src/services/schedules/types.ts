// The schedules feature's types (docs/schedules.md): a report's schedule, a project's
// (docs/sites.md "Scheduled crawls"), the service.
// Dates are ISO 8601 strings in UTC with milliseconds (`2026-11-21T20:50:25.123Z`), exactly
// what the API returns; presenters copy them as they are.
import type { Page } from '../../contract/lists.js';

// a schedule as shown is the contract's (the presenter's input)
export type { ListedSchedule, Schedule } from '../../contract/schedules.js';
import type { ListedSchedule, Schedule } from '../../contract/schedules.js';

export interface PutScheduleInput {
  every: string;
  /** default UTC */
  timezone?: string | undefined;
  /** each run renders the page in Chromium; 422 under `render` when it cannot here */
  render?: boolean | undefined;
}

/** What one scheduled run (the `schedule.run` job) came to. */
export type ScheduledRunResult =
  | { status: 'completed' | 'failed'; runNumber: number; error: string | null }
  | { status: 'skipped'; reason: string }
  /** a project's slot: its crawl started, or could not start (the reason) */
  | { status: 'started'; batchId: number }
  | { status: 'failed'; batchId: null; error: string };

export interface SchedulesServices {
  /**
   * Sets the report's schedule (creates it, or replaces its settings; the next run is computed
   * from now). 404 for a report missing or another user's; 422 under `every` / `timezone`.
   */
  put(
    userId: number,
    reportId: number,
    input: PutScheduleInput,
  ): Promise<{ schedule: Schedule; created: boolean }>;
  /** 404 when the report is missing or another user's, or has no schedule */
  get(userId: number, reportId: number): Promise<Schedule>;
  /** 404 as get */
  delete(userId: number, reportId: number): Promise<void>;
  /** both kinds (reports' and projects'), newest first, with the reports' URLs or projects, and next runs */
  list(userId: number, page: { page: number; perPage: number }): Promise<Page<ListedSchedule>>;
  /** the schedules of these reports of the user (the dashboard), by report id */
  ofReports(userId: number, reportIds: number[]): Promise<Map<number, Schedule>>;
  /**
   * The scheduler's tick: claims the due schedules (atomically, across processes) and enqueues
   * one `schedule.run` job per due slot. Returns how many were enqueued.
   */
  enqueueDue(options?: { signal?: AbortSignal; batch?: number }): Promise<number>;
  /**
   * One scheduled run (the `schedule.run` job), recorded on the schedule: a report's is an
   * ordinary re-audit; a project's starts a crawl with its settings, or is skipped while one runs.
   */
  run(
    scheduleId: number,
    slot: string,
    job: { attempt: number; maxAttempts: number },
  ): Promise<ScheduledRunResult>;
}
