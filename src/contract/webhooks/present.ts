// Webhook and delivery → API JSON. The secret appears only in the creation answer.
import type { Webhook, WebhookDelivery } from '../../services/webhooks/types.js';

export function webhookLinks(publicUrl: string, id: number) {
  const self = `${publicUrl}/api/v1/webhooks/${id}`;
  return { self, deliveries: `${self}/deliveries` };
}

export function presentWebhook(w: Webhook, publicUrl: string) {
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
export function presentCreatedWebhook(w: Webhook, secret: string, publicUrl: string) {
  const { links, ...fields } = presentWebhook(w, publicUrl);
  return { ...fields, secret, links };
}

export function presentDelivery(d: WebhookDelivery, publicUrl: string) {
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

export function presentDeliveryWithPayload(d: WebhookDelivery & { payload: unknown }, publicUrl: string) {
  const { links, ...fields } = presentDelivery(d, publicUrl);
  return { ...fields, payload: d.payload as Envelope, links };
}
