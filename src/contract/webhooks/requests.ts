// The webhook request schemas both web layers validate with (TypeBox): the API's routes
// (src/http/routes/webhooks.ts) and the dashboard's webhooks page (src/pages/routes/webhooks.ts).
import { Type, type Static } from 'typebox';
import { enumOf } from '../common.js';
import { pageParam, PER_PAGE } from '../lists.js';
import { EVENT_NAMES } from './events.js';
import { MAX_ID } from '../common.js';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

const id = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });

export const WebhookParams = Type.Object({ id: id('Webhook id (anything else answers 404).') });
export const DeliveryParams = Type.Object({
  id: id('Webhook id.'),
  delivery: id('Delivery id.'),
});

const url = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://',
  description:
    'Where deliveries are POSTed (http or https). Refused when its host resolves to a loopback, private or otherwise reserved address (unless PAGEGRADE_ALLOW_PRIVATE_HOSTS=1).',
});
const events = Type.Array(enumOf('string', EVENT_NAMES), {
  minItems: 1,
  maxItems: 32,
  description: `The events to deliver: one or more of ${EVENT_NAMES.join(', ')}. In a form body, repeat the field or separate the names with commas.`,
});
const description = Type.String({ maxLength: 255, description: 'A note for its owner.' });

export const CreateWebhookBody = Type.Object({ url, events, description: Type.Optional(description) });
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(url),
  events: Type.Optional(events),
  description: Type.Optional(description),
  enabled: Type.Optional(
    enumOf('integer', [0, 1], {
      description: '1 enables the webhook again (and clears its failure count); 0 disables it.',
    }),
  ),
});
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

const perPage = enumOf('integer', PER_PAGE, { default: 10, description: 'Items per page.' });
const page = pageParam();

export const ListWebhooksQuery = Type.Object({
  per_page: Type.Optional(perPage),
  page: Type.Optional(page),
});
export const ListDeliveriesQuery = Type.Object({
  status: Type.Optional(
    enumOf('string', DELIVERY_STATUSES, { description: 'Only the deliveries in this state.' }),
  ),
  per_page: Type.Optional(perPage),
  page: Type.Optional(page),
});

