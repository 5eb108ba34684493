// The schedules' contract (docs/schedules.md): the request schemas both web layers validate
// with (the API's routes and the report page's schedule form), the answers, the example, the
// schedule as the services give it and the presenter.
import { Type, type Static } from 'typebox';
import type { RunStatus } from '../store/runs.repository.js';
import { dateTime, enumOf, nullable, uri, withExample } from './common.js';
import { pageParam, PER_PAGE } from './lists.js';
import { paginated } from './pagination.js';
import { listExample } from './pagination.js';

/** The forms `every` takes (named in the schema and in the service's 422). */
export const EVERY_FORMS =
  'hourly, daily, weekly, or a cron expression of 5 fields (minute hour day-of-month month day-of-week), e.g. "30 6 * * 1-5"';

// ── requests ──────────────────────────────────────────────────────────────────────────

export const PutScheduleBody = Type.Object(
  {
    every: Type.String({
      minLength: 1,
      maxLength: 120,
      description: `When to re-audit: ${EVERY_FORMS}. hourly is minute 0 of every hour, daily 00:00, weekly Monday 00:00, in the timezone.`,
      examples: ['daily', '30 6 * * 1-5'],
    }),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'An IANA time zone name the schedule is read in (default UTC).',
        examples: ['Europe/Paris'],
      }),
    ),
    render: Type.Optional(
      enumOf('integer', [0, 1], {
        default: 0,
        description:
          '1: each scheduled run renders the page in headless Chromium, as `render=1` on a report (docs/rendering.md). Without Chromium: 422 under `errors.render`.',
      }),
    ),
  },
  { examples: [{ every: 'daily', timezone: 'Europe/Paris' }, { every: '30 6 * * 1-5' }] },
);
export type PutScheduleBody = Static<typeof PutScheduleBody>;

export const ListSchedulesQuery = Type.Object({
  per_page: Type.Optional(enumOf('integer', PER_PAGE, { default: 10, description: 'Items per page.' })),
  page: Type.Optional(pageParam()),
});

// ── answers ───────────────────────────────────────────────────────────────────────────

const example = {
  id: 7,
  report_id: 42,
  every: 'daily',
  cron: '0 0 * * *',
  timezone: 'Europe/Paris',
  render: false,
  next_run_at: '2026-11-26T23:02:41.517Z',
  jitter_ms: 161517,
  running: false,
  last_run_at: '2026-11-25T23:02:44.020Z',
  last_status: 'completed',
  last_error: null,
  last_run_number: 5,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  links: {
    self: 'https://pagegrade.example/api/v1/reports/42/schedule',
    report: 'https://pagegrade.example/api/v1/reports/42',
    runs: 'https://pagegrade.example/api/v1/reports/42/runs',
  },
};

const fields = {
  id: Type.Integer({ minimum: 1 }),
  report_id: Type.Integer({ minimum: 1 }),
  every: Type.String({ description: 'hourly, daily, weekly, or the cron expression, as set.' }),
  cron: Type.String({ description: 'The cron expression `every` stands for.' }),
  timezone: Type.String({ description: 'The IANA time zone it is read in.' }),
  render: Type.Boolean({
    description: 'Each scheduled run renders the page in headless Chromium (docs/rendering.md).',
  }),
  next_run_at: dateTime('The next run, jitter included.'),
  jitter_ms: Type.Integer({
    minimum: 0,
    description: "The schedule's fixed delay after each slot: min(10 % of the period, 5 min) at most.",
  }),
  running: Type.Boolean({ description: 'A run of the schedule is queued or running now.' }),
  last_run_at: nullable(dateTime('When the last scheduled run finished.')),
  last_status: nullable(Type.String({ enum: ['completed', 'failed'] })),
  last_error: nullable(
    Type.String({ description: 'Why the last run failed (the page could not be fetched).' }),
  ),
  last_run_number: nullable(
    Type.Integer({ minimum: 1, description: "The run the last scheduled run made in the report's history." }),
  ),
  created_at: dateTime('When it was created.'),
  updated_at: dateTime('When it was last set.'),
};
const links = Type.Object({ self: uri(), report: uri(), runs: uri() }, { additionalProperties: false });

export const Schedule = Type.Object(
  { ...fields, links },
  { additionalProperties: false, examples: [example] },
);
const projectExample = {
  id: 8,
  kind: 'project',
  report_id: null,
  project: 'example.com',
  every: 'weekly',
  cron: '0 0 * * 1',
  timezone: 'Europe/Paris',
  render: false,
  next_run_at: '2026-11-30T23:04:10.000Z',
  jitter_ms: 250000,
  running: false,
  last_run_at: '2026-11-23T23:04:11.310Z',
  last_status: 'skipped',
  last_error: 'A crawl of this project was still running (batch 41): this slot was skipped.',
  last_run_number: null,
  last_batch_id: 40,
  created_at: '2026-11-02T09:00:00.000Z',
  updated_at: '2026-11-02T09:00:00.000Z',
  url: 'https://example.com/',
  links: {
    self: 'https://pagegrade.example/api/v1/projects/example.com',
    project: 'https://pagegrade.example/api/v1/projects/example.com',
    last_batch: 'https://pagegrade.example/api/v1/batches/40',
  },
};
const reportListed = {
  ...example,
  kind: 'report',
  project: 'example.com',
  last_batch_id: null,
  url: 'https://example.com/pricing',
};

/** How a listed schedule's slot went (a project's crawl: started, or skipped while one still runs). */
export const SCHEDULE_STATUSES = ['completed', 'failed', 'started', 'skipped'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** The list shows both kinds: a report's re-audits and a project's crawls (docs/sites.md "Scheduled crawls"). */
const listedFields = {
  ...fields,
  kind: Type.String({
    enum: ['report', 'project'],
    description: "report: re-audits one report; project: crawls the project with its settings.",
  }),
  report_id: nullable(Type.Integer({ minimum: 1, description: "The report (null for a project's schedule)." })),
  project: nullable(Type.String({ description: "The report's project, or the scheduled project." })),
  render: Type.Boolean({
    description: "Each run renders in headless Chromium (a project's: its settings' render).",
  }),
  last_status: nullable(
    Type.String({
      enum: [...SCHEDULE_STATUSES],
      description:
        "A report's: completed or failed. A project's: started (a crawl, last_batch_id), skipped (a crawl of the project was still queued or running) or failed (the crawl could not start).",
    }),
  ),
  last_error: nullable(Type.String({ description: 'Why the last slot failed or was skipped.' })),
  last_batch_id: nullable(
    Type.Integer({ minimum: 1, description: "A project's schedule: the crawl (batch) its last started slot made." }),
  ),
};
const listedLinks = Type.Object(
  {
    self: uri(),
    report: Type.Optional(uri()),
    runs: Type.Optional(uri()),
    project: Type.Optional(uri()),
    last_batch: Type.Optional(uri()),
  },
  { additionalProperties: false },
);
export const ListedSchedule = Type.Object(
  {
    ...listedFields,
    url: Type.String({ description: "The report's URL, or the start URL of the project's crawls." }),
    links: listedLinks,
  },
  { additionalProperties: false, examples: [reportListed, projectExample] },
);
export const ScheduleEnvelope = Type.Object(
  { data: Schedule },
  { additionalProperties: false, examples: [{ data: example }] },
);
export const ScheduleList = withExample(paginated(ListedSchedule), {
  data: [projectExample, reportListed],
  ...listExample('https://pagegrade.example.com/api/v1/schedules'),
});
export const ScheduleDeleted = Type.Object(
  { report_id: Type.Integer(), object: Type.Literal('schedule'), deleted: Type.Literal(true) },
  { additionalProperties: false, examples: [{ report_id: 42, object: 'schedule', deleted: true }] },
);

// ── the schedule as the services give it, and as the API shows it ──────────────────────

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

/** A schedule of the list: a report's, or a project's (docs/sites.md "Scheduled crawls"). */
export interface ListedSchedule extends Omit<Schedule, 'reportId' | 'lastStatus'> {
  kind: 'report' | 'project';
  /** null for a project's */
  reportId: number | null;
  /** the report's project, or the scheduled project */
  project: string | null;
  /** the report's URL, or the start URL of the project's crawls */
  url: string;
  lastStatus: ScheduleStatus | null;
  /** a project's: the batch its last started slot made */
  lastBatchId: number | null;
}

export function presentSchedule(s: Schedule, publicUrl: string): Static<typeof Schedule> {
  const report = `${publicUrl}/api/v1/reports/${s.reportId}`;
  return {
    id: s.id,
    report_id: s.reportId,
    every: s.every,
    cron: s.cron,
    timezone: s.timezone,
    render: s.render,
    next_run_at: s.nextRunAt,
    jitter_ms: s.jitterMs,
    running: s.running,
    last_run_at: s.lastRunAt,
    last_status: s.lastStatus,
    last_error: s.lastError,
    last_run_number: s.lastRunNumber,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    links: { self: `${report}/schedule`, report, runs: `${report}/runs` },
  };
}

export function presentListedSchedule(s: ListedSchedule, publicUrl: string): Static<typeof ListedSchedule> {
  const { reportId, project, kind } = s;
  const base = presentSchedule({ ...s, reportId: reportId ?? 0, lastStatus: null }, publicUrl);
  const { links: reportLinks, ...rest } = base;
  let links: Static<typeof listedLinks>;
  if (kind === 'report') links = reportLinks;
  else {
    const self = `${publicUrl}/api/v1/projects/${encodeURIComponent(project ?? '')}`;
    links = { self, project: self };
    if (s.lastBatchId !== null) links.last_batch = `${publicUrl}/api/v1/batches/${s.lastBatchId}`;
  }
  return {
    ...rest,
    kind,
    report_id: reportId,
    project,
    last_status: s.lastStatus,
    last_batch_id: s.lastBatchId,
    url: s.url,
    links,
  };
}
