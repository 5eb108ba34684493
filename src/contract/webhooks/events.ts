// The webhook events: one line each. The table drives everything else — the `events` a webhook
// may subscribe to (and the 422 that lists them), the OpenAPI document's `webhooks` (one per
// event, with its payload), and docs/webhooks.md. Adding an event is one line here plus the
// `services.webhooks.emit(...)` call where it happens.
//
// Every delivery's body is the Standard Webhooks envelope `{type, timestamp, data}`; `data` is
// the event's schema below. The report in it is the API's report summary (the list shape, with
// its links), so a receiver can GET the full report or its page.
import { Type, type TSchema } from 'typebox';
import { DiffDigest } from '../batches/diff.js';
import { ReportDiff } from '../history/schemas.js';
import { ReportSummary } from '../reports/schemas.js';

const report = ReportSummary;

interface EventSpec {
  summary: string;
  data: TSchema;
}

const event = (summary: string, data: Record<string, TSchema>): EventSpec => ({
  summary,
  data: Type.Object(data, { additionalProperties: false }),
});

/** The diff from the previous run to this one, as GET /api/v1/reports/{id}/diff answers it. */
const Diff = ReportDiff;

/** A batch as batch.completed, .failed and .cancelled carry it (the status says which). */
const batchOf = (status: 'done' | 'failed' | 'cancelled', extra: Record<string, TSchema> = {}) =>
  Type.Object(
    {
      id: Type.Integer(),
      url: Type.String(),
      mode: Type.String({ enum: ['sitemap', 'crawl', 'list'] }),
      status: Type.Literal(status),
      discovered: Type.Integer({ minimum: 0 }),
      audited: Type.Integer({ minimum: 0 }),
      failed: Type.Integer({
        minimum: 0,
        description: 'Pages failed or skipped (GET /api/v1/batches/{id}/failures).',
      }),
      finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      ...extra,
    },
    { additionalProperties: false },
  );

export const WEBHOOK_EVENTS = {
  'report.created': event('A report was stored (its first audit).', { report }),
  'report.completed': event('A re-audit completed, scheduled or not (a new run in the history).', { report }),
  'report.regressed': event(
    'A re-audit found a regression: the band dropped (good → decent → bad) or a high-priority check newly failed. Sent with report.completed.',
    { report, diff: Diff },
  ),
  'report.failed': event('A re-audit could not fetch the page; the report stays as it was.', {
    report,
    reason: Type.String({ description: 'Why the page could not be fetched.' }),
  }),
  'batch.completed': event(
    'A batch (a whole-site audit, docs/sites.md) finished: every page audited or failed, at least one audited. `diff`: the summary of its comparison with the project’s previous finished crawl (GET /api/v1/batches/{id}/diff).',
    { batch: batchOf('done'), diff: DiffDigest },
  ),
  'batch.regressed': event(
    'A finished batch is a regression against the project’s previous finished crawl: the site’s band dropped, a high-priority finding is new (broken links, canonical template …), pages newly answer other than 200 or are newly noindex, or more than PAGEGRADE_REGRESSION_PAGE_SHARE of the pages dropped a band. `diff.reasons` says which. Sent with batch.completed.',
    { batch: batchOf('done'), diff: DiffDigest },
  ),
  'batch.failed': event(
    'A batch found nothing: its start page could not be fetched, robots.txt disallows every page, or no page could be audited. `error` says which.',
    { batch: batchOf('failed', { error: Type.String({ description: 'Why the batch failed.' }) }) },
  ),
  'batch.cancelled': event('A batch was cancelled (pages in flight finish; the rest are skipped).', {
    batch: batchOf('cancelled'),
  }),
  'batch.page.completed': event(
    "A batch's page was audited and its report stored (one per page: opt-in; a batch's pages send no report.* event).",
    {
      batch: Type.Object({ id: Type.Integer() }, { additionalProperties: false }),
      url: Type.String({ description: 'The page as the batch requested it.' }),
      report,
    },
  ),
} satisfies Record<string, EventSpec>;

export type WebhookEvent = keyof typeof WEBHOOK_EVENTS;
export const EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as WebhookEvent[];

/** The test ping (POST /api/v1/webhooks/{id}/test): sent to one webhook whatever its events. */
export const TEST_EVENT = 'webhook.test';
export const TEST_EVENT_SPEC: EventSpec = event(
  'A test ping sent on request (POST /api/v1/webhooks/{id}/test).',
  {
    webhook: Type.Object({ id: Type.Integer(), url: Type.String() }, { additionalProperties: false }),
  },
);

/** The body of every delivery (the Standard Webhooks envelope). */
export function envelope(type: string, data: TSchema, description: string): TSchema {
  return Type.Object(
    {
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time', description: 'When the event happened.' }),
      data,
    },
    { additionalProperties: false, description },
  );
}
