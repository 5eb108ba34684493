// TypeBox schemas of the webhook endpoints (requests and responses), and the OpenAPI 3.1
// `webhooks` section: one entry per event of src/services/webhooks/events.ts, with its payload.
import { Type, type TSchema } from 'typebox';
import {
  EVENT_NAMES,
  TEST_EVENT,
  TEST_EVENT_SPEC,
  WEBHOOK_EVENTS,
  envelope,
} from './events.js';
import * as ex from './examples.js';
import { paginated } from '../pagination.js';
import { withExample } from '../common.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const dateTime = (description: string) => Type.String({ format: 'date-time', description });

// ── requests: shared with the dashboard (src/web/webhook-requests.ts) ─────────────────

export {
  DeliveryParams,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  WebhookParams,
} from './requests.js';
import {
  CreateWebhookBody as CreateBody,
  DELIVERY_STATUSES,
  UpdateWebhookBody as UpdateBody,
} from './requests.js';

export const CreateWebhookBody = withExample(CreateBody, {
  url: 'https://hooks.example.com/pagegrade',
  events: ['report.created', 'report.regressed'],
  description: 'CI',
});
export const UpdateWebhookBody = withExample(UpdateBody, { enabled: 1, events: ['report.created'] });

// ── responses ─────────────────────────────────────────────────────────────────────────

const WebhookLinks = Type.Object(
  { self: Type.String({ format: 'uri' }), deliveries: Type.String({ format: 'uri' }) },
  { additionalProperties: false },
);

const webhookFields = {
  id: Type.Integer({ minimum: 1 }),
  url: Type.String(),
  events: Type.Array(Type.String({ enum: [...EVENT_NAMES] })),
  description: Type.String(),
  enabled: Type.Boolean({ description: 'false once disabled, by its owner or after failed deliveries.' }),
  disabled_at: nullable(dateTime('When it was disabled.')),
  disabled_reason: nullable(
    Type.String({ description: 'Why it was disabled, e.g. after deliveries failed N times in a row.' }),
  ),
  consecutive_failures: Type.Integer({
    minimum: 0,
    description: 'Deliveries failed for good since the last one that arrived.',
  }),
  created_at: dateTime('When it was created.'),
  updated_at: dateTime('When it last changed.'),
};

export const Webhook = Type.Object(
  { ...webhookFields, links: WebhookLinks },
  { additionalProperties: false },
);

export const WebhookEnvelope = withExample(Type.Object({ data: Webhook }, { additionalProperties: false }), {
  data: ex.webhook,
});
export const WebhookCreatedEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        ...webhookFields,
        secret: Type.String({
          pattern: '^whsec_',
          description:
            'The signing secret (Standard Webhooks, `whsec_…`). Shown once, here: store it to verify deliveries.',
        }),
        links: WebhookLinks,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, examples: [{ data: ex.webhookCreated }] },
);
export const WebhookList = withExample(paginated(Webhook), { data: [ex.webhook], ...ex.webhookListMeta });
export const WebhookDeleted = Type.Object(
  { id: Type.Integer(), object: Type.Literal('webhook'), deleted: Type.Literal(true) },
  { additionalProperties: false, examples: [{ id: 7, object: 'webhook', deleted: true }] },
);

const deliveryFields = {
  id: Type.Integer({ minimum: 1 }),
  webhook_id: Type.Integer({ minimum: 1 }),
  event: Type.String({ description: `An event name, or ${TEST_EVENT} for a test ping.` }),
  webhook_message_id: Type.String({
    description:
      'The `webhook-id` header sent: the same on every attempt and every redelivery of one event, so receivers can de-duplicate.',
  }),
  status: Type.String({
    enum: [...DELIVERY_STATUSES],
    description:
      'pending (not sent yet, or waiting for its next attempt), delivered (a 2xx answer), failed (for good).',
  }),
  attempts: Type.Integer({ minimum: 0 }),
  response_status: nullable(
    Type.Integer({ description: "The last attempt's HTTP status (null: no answer)." }),
  ),
  duration_ms: nullable(Type.Integer({ minimum: 0, description: "The last attempt's duration." })),
  error: nullable(Type.String({ description: 'Why the last attempt failed.' })),
  redelivery_of: nullable(Type.Integer({ description: 'The delivery this one sends again.' })),
  created_at: dateTime('When the event was recorded for this webhook.'),
  last_attempt_at: nullable(dateTime('When it was last tried.')),
  delivered_at: nullable(dateTime('When a 2xx answer came.')),
};

export const Delivery = Type.Object(
  {
    ...deliveryFields,
    links: Type.Object({ self: Type.String({ format: 'uri' }) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export const DeliveryEnvelope = withExample(
  Type.Object({ data: Delivery }, { additionalProperties: false }),
  {
    data: ex.delivery,
  },
);
export const DeliveryWithPayloadEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        ...deliveryFields,
        payload: Type.Object(
          {
            type: Type.String(),
            timestamp: Type.String({ format: 'date-time' }),
            data: Type.Object({}, { additionalProperties: true }),
          },
          { description: 'The JSON body sent (see the `webhooks` of this document).' },
        ),
        links: Type.Object({ self: Type.String({ format: 'uri' }) }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, examples: [{ data: ex.deliveryWithPayload }] },
);
export const DeliveryList = withExample(paginated(Delivery), {
  data: [ex.delivery],
  ...ex.deliveryListMeta,
});

// ── OpenAPI `webhooks` ────────────────────────────────────────────────────────────────

const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The message id: the same on every attempt and redelivery of one event (de-duplicate on it).',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Seconds since the epoch, when this attempt was signed.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the secret.',
    schema: { type: 'string' },
  },
];

function webhookOperation(name: string, summary: string, data: TSchema) {
  return {
    post: {
      operationId: `webhook_${name.replace(/\./g, '_')}`,
      summary,
      description: `${summary} Sent as a signed POST (Standard Webhooks) to every enabled webhook that takes \`${name}\`.`,
      tags: ['webhooks'],
      // not an API call: Pagegrade sends it, signed with the webhook's secret (no API key)
      security: [],
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: envelope(name, data, summary) } },
      },
      responses: {
        '2XX': { description: 'Delivered. Any other answer (or none within 10 s) is retried with backoff.' },
      },
    },
  };
}

/** The OpenAPI 3.1 `webhooks` object: one per event (and the test ping). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- plain OpenAPI objects, typed by the swagger plugin
export function openApiWebhooks(): Record<string, any> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(WEBHOOK_EVENTS))
    out[name] = webhookOperation(name, spec.summary, spec.data);
  out[TEST_EVENT] = webhookOperation(TEST_EVENT, TEST_EVENT_SPEC.summary, TEST_EVENT_SPEC.data);
  return JSON.parse(JSON.stringify(out)) as Record<string, object>;
}
