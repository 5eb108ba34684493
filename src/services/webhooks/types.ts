// The webhooks feature's types (docs/webhooks.md): webhooks, deliveries, the service.
// Dates are ISO 8601 strings in UTC with milliseconds (`2026-11-21T20:50:25.123Z`), exactly
// what the API returns; presenters copy them as they are.
import type { Db } from '../../store/database.js';
import type { Page } from '../../contract/lists.js';
export type { WebhookEvent } from '../../contract/webhooks/events.js';
import type { WebhookEvent } from '../../contract/webhooks/events.js';

// a delivery is the store's row; a webhook as shown is the contract's (the presenters' inputs)
export type { DeliveryRow as WebhookDelivery, DeliveryStatus } from '../../store/webhooks.repository.js';
export type { Webhook } from '../../contract/webhooks/present.js';
import type { DeliveryRow as WebhookDelivery, DeliveryStatus } from '../../store/webhooks.repository.js';
import type { Webhook } from '../../contract/webhooks/present.js';

export interface CreateWebhookInput {
  /** http(s), ≤ 2048 characters (schema); refused when it resolves to a private address */
  url: string;
  /** at least one, each one of WEBHOOK_EVENTS (schema); duplicates are dropped */
  events: WebhookEvent[];
  description?: string;
}

export interface UpdateWebhookInput {
  url?: string;
  events?: WebhookEvent[];
  description?: string;
  /** true re-enables (and clears the failure count); false disables */
  enabled?: boolean;
}

/** What one delivery attempt came to (the job kind retries on `retry`). */
export type DeliveryAttemptResult =
  { status: 'delivered' | 'failed' | 'skipped'; error?: string } | { status: 'retry'; error: string };

export interface WebhooksServices {
  /** 422 `url` when refused by the address guard (or not resolvable); the secret is returned once, here */
  create(userId: number, input: CreateWebhookInput): Promise<{ webhook: Webhook; secret: string }>;
  /** newest first */
  list(userId: number, page: { page: number; perPage: number }): Promise<Page<Webhook>>;
  /** 404 when missing or another user's */
  get(userId: number, id: number): Promise<Webhook>;
  update(userId: number, id: number, input: UpdateWebhookInput): Promise<Webhook>;
  /** its deliveries go with it (pending ones are not sent) */
  delete(userId: number, id: number): Promise<void>;
  /** newest first; 404 for the webhook as in get */
  deliveries(
    userId: number,
    id: number,
    query: { status?: DeliveryStatus | undefined; page: number; perPage: number },
  ): Promise<Page<WebhookDelivery>>;
  /** one delivery with the body it sends */
  delivery(userId: number, id: number, deliveryId: number): Promise<WebhookDelivery & { payload: unknown }>;
  /** a new delivery of the same event (same webhook-id and body); 422 when the webhook is disabled */
  redeliver(userId: number, id: number, deliveryId: number): Promise<WebhookDelivery>;
  /** a `webhook.test` delivery to this webhook; 422 when it is disabled */
  test(userId: number, id: number): Promise<WebhookDelivery>;
  /**
   * One delivery (and its job) per enabled webhook of the user that takes `event`, in `trx`
   * when given (they exist if and only if it commits). Returns how many.
   */
  emit(
    userId: number,
    event: WebhookEvent,
    /** the payload's `data`, or a function that reads it (called only when some webhook takes the event) */
    data: Record<string, unknown> | (() => Promise<Record<string, unknown>>),
    options?: { trx?: Db },
  ): Promise<number>;
  /** One attempt of a delivery (the webhook.deliver job): sign, send through the guard, record. */
  attempt(
    deliveryId: number,
    job: { attempt: number; maxAttempts: number; signal?: AbortSignal },
  ): Promise<DeliveryAttemptResult>;
}
