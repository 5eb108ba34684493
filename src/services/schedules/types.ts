// The schedules feature's types (docs/schedules.md): a report's schedule, the service.
// Dates are ISO 8601 strings in UTC with milliseconds (`2026-11-21T20:50:25.123Z`), exactly
// what the API returns; presenters copy them as they are.
import type { Page } from '../../contract/lists.js';
import type { RunStatus } from '../../store/runs.repository.js';

export interface Schedule {
  id: number;
  reportId: number;
  userId: number;
  /** hourly, daily, weekly or a 5-field cron expression, as set */
  every: string;
  /** the cron expression it stands for */
  cron: string;
  /** IANA time zone */
  timezone: string;
  /** each run renders the page in Chromium (docs/rendering.md) */
  render: boolean;
  /** the next run, jitter included */
  nextRunAt: string;
  /** the fixed offset after each slot (docs/schedules.md) */
  jitterMs: number;
  /** a run of it is enqueued or running now */
  running: boolean;
  lastRunAt: string | null;
  lastStatus: RunStatus | null;
  /** why the last run failed (the fetcher's message) */
  lastError: string | null;
  /** the run of the report's history the last scheduled run made */
  lastRunNumber: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface ListedSchedule extends Schedule {
  /** the report's URL */
  url: string;
}

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
  | { status: 'skipped'; reason: string };

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
  /** newest first, with the reports' URLs and next runs */
  list(userId: number, page: { page: number; perPage: number }): Promise<Page<ListedSchedule>>;
  /** the schedules of these reports of the user (the dashboard), by report id */
  ofReports(userId: number, reportIds: number[]): Promise<Map<number, Schedule>>;
  /**
   * The scheduler's tick: claims the due schedules (atomically, across processes) and enqueues
   * one `schedule.run` job per due slot. Returns how many were enqueued.
   */
  enqueueDue(options?: { signal?: AbortSignal; batch?: number }): Promise<number>;
  /** One scheduled run (the `schedule.run` job): an ordinary re-audit, recorded on the schedule. */
  run(
    scheduleId: number,
    slot: string,
    job: { attempt: number; maxAttempts: number },
  ): Promise<ScheduledRunResult>;
}
