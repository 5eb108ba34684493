// The schedule request schemas both web layers validate with (TypeBox): the API's routes
// (src/http/routes/schedules.ts) and the report page's schedule form (src/pages/routes/schedules.ts).
import { Type, type Static } from 'typebox';
import { enumOf } from '../contract/common.js';
import { pageParam, PER_PAGE } from '../contract/lists.js';
import { EVERY_FORMS } from '../services/schedules/times.js';

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
