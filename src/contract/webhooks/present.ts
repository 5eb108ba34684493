// Webhook and delivery → API JSON. The secret appears only in the creation answer.
import type { Static } from 'typebox';
import type { DeliveryRow as WebhookDelivery, WebhookRow } from '../../store/webhooks.repository.js';
import type { WebhookEvent } from './events.js';
import type {
  Delivery,
  DeliveryWithPayloadEnvelope,
  Webhook as WebhookSchema,
  WebhookCreatedEnvelope,
} from './schemas.js';

/** A webhook as the service gives it: its row, with its events named and `enabled`. */
export interface Webhook extends Omit<WebhookRow, 'events'> {
  events: WebhookEvent[];
  /** false once disabled (by its owner, or after too many failed deliveries in a row) */
  enabled: boolean;
}

export function webhookLinks(publicUrl: string, id: number) {
  const self = `${publicUrl}/api/v1/webhooks/${id}`;
  return { self, deliveries: `${self}/deliveries` };
}

export function presentWebhook(w: Webhook, publicUrl: string): Static<typeof WebhookSchema> {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    enabled: w.enabled,
    disabled_at: w.disabledAt,
    disabled_reason: w.disabledReason,
    consecutive_failures: w.consecutiveFailures,
    created_at: w.createdAt,
    updated_at: w.updatedAt,
    links: webhookLinks(publicUrl, w.id),
  };
}

/** The creation answer: the webhook and its secret (shown this once). */
export function presentCreatedWebhook(
  w: Webhook,
  secret: string,
  publicUrl: string,
): Static<typeof WebhookCreatedEnvelope>['data'] {
  const { links, ...fields } = presentWebhook(w, publicUrl);
  return { ...fields, secret, links };
}

export function presentDelivery(d: WebhookDelivery, publicUrl: string): Static<typeof Delivery> {
  return {
    id: d.id,
    webhook_id: d.webhookId,
    event: d.event,
    webhook_message_id: d.messageId,
    status: d.status,
    attempts: d.attempts,
    response_status: d.responseStatus,
    duration_ms: d.durationMs,
    error: d.error,
    redelivery_of: d.redeliveryOf,
    created_at: d.createdAt,
    last_attempt_at: d.lastAttemptAt,
    delivered_at: d.deliveredAt,
    links: { self: `${publicUrl}/api/v1/webhooks/${d.webhookId}/deliveries/${d.id}` },
  };
}

/** The body as sent: the Standard Webhooks envelope. */
interface Envelope {
  type: string;
  timestamp: string;
  data: object;
}

export function presentDeliveryWithPayload(
  d: WebhookDelivery & { payload: unknown },
  publicUrl: string,
): Static<typeof DeliveryWithPayloadEnvelope>['data'] {
  const { links, ...fields } = presentDelivery(d, publicUrl);
  return { ...fields, payload: d.payload as Envelope, links };
}
