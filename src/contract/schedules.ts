// TypeBox schemas of the schedule endpoints' answers (the requests: src/web/schedule-requests.ts).
import { Type, type TSchema } from 'typebox';
import { paginated } from './pagination.js';
import { withExample } from './common.js';

export { ListSchedulesQuery, PutScheduleBody } from '../web/schedule-requests.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const dateTime = (description: string) => Type.String({ format: 'date-time', description });
const uri = () => Type.String({ format: 'uri' });

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
export const ListedSchedule = Type.Object(
  { ...fields, url: Type.String({ description: "The report's URL." }), links },
  { additionalProperties: false, examples: [{ ...example, url: 'https://example.com/pricing' }] },
);
export const ScheduleEnvelope = Type.Object(
  { data: Schedule },
  { additionalProperties: false, examples: [{ data: example }] },
);
export const ScheduleList = withExample(paginated(ListedSchedule), {
  data: [{ ...example, url: 'https://example.com/pricing' }],
  links: {
    first: 'https://pagegrade.example.com/api/v1/schedules?page=1',
    last: 'https://pagegrade.example.com/api/v1/schedules?page=1',
    prev: null,
    next: null,
  },
  meta: {
    current_page: 1,
    from: 1,
    to: 1,
    last_page: 1,
    per_page: 10,
    total: 1,
    path: 'https://pagegrade.example.com/api/v1/schedules',
  },
});
export const ScheduleDeleted = Type.Object(
  { report_id: Type.Integer(), object: Type.Literal('schedule'), deleted: Type.Literal(true) },
  { additionalProperties: false, examples: [{ report_id: 42, object: 'schedule', deleted: true }] },
);
