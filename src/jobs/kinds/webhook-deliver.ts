// webhook.deliver: one delivery of one event to one webhook. An adapter like a route handler:
// the payload names the delivery (its body, webhook-id and target are in the database), and
// services.webhooks.attempt() does the rest — sign, send through the address guard, record.
// A failed attempt throws, so the engine retries it with exponential backoff; the service
// records the last attempt's failure itself (and disables a webhook that keeps failing), so
// the job then ends normally. Idempotent: a delivery already delivered or failed is skipped.
//
// Retries: 13 attempts, 30 s × 2^(n−1) between them, at most 8 h: the last attempt comes
// about 24.5 hours after the first (0.5, 1, 2, 4 … 256 min, then 8 h, 8 h). The 30 s
// (PAGEGRADE_WEBHOOK_RETRY_MS) and the 15 s lease (PAGEGRADE_WEBHOOK_LEASE_MS) are settings:
// webhookDeliverFor(config).
import { WEBHOOK_DELIVER } from '../../contract/jobs.js';
import type { Services } from '../../services/types.js';
import type { JobKind } from '../types.js';

export interface WebhookDeliverDeps {
  services: Pick<Services, 'webhooks'>;
}

export type WebhookDeliverKind = JobKind<typeof WEBHOOK_DELIVER.payload, WebhookDeliverDeps>;

/** The kind, with its timing overridable (tests shorten the backoff). */
export function webhookDeliverKind(
  overrides: Partial<Pick<WebhookDeliverKind, 'concurrency' | 'maxAttempts' | 'backoff' | 'leaseMs'>> = {},
): WebhookDeliverKind {
  return {
    ...WEBHOOK_DELIVER,
    concurrency: 8,
    maxAttempts: 13,
    backoff: { baseMs: 30_000, maxMs: 8 * 60 * 60 * 1000 },
    // renewed every leaseMs/3 while an attempt runs; after a crash, taken up again within 15 s
    leaseMs: 15_000,
    ...overrides,
    async handle(job, { services }) {
      const result = await services.webhooks.attempt(job.payload.deliveryId, {
        attempt: job.attempt,
        maxAttempts: job.maxAttempts,
        signal: job.signal,
      });
      // the engine retries it (the service keeps the delivery pending until its last attempt)
      if (result.status === 'retry') throw new Error(result.error);
    },
  };
}

export const webhookDeliver: WebhookDeliverKind = webhookDeliverKind();

/** The kind with the configured first retry and lease (the defaults when not given). */
export function webhookDeliverFor(config: {
  webhookRetryMs?: number;
  webhookLeaseMs?: number;
}): WebhookDeliverKind {
  const baseMs = config.webhookRetryMs ?? webhookDeliver.backoff.baseMs;
  const leaseMs = config.webhookLeaseMs ?? webhookDeliver.leaseMs;
  if (baseMs === webhookDeliver.backoff.baseMs && leaseMs === webhookDeliver.leaseMs) return webhookDeliver;
  return webhookDeliverKind({ backoff: { ...webhookDeliver.backoff, baseMs }, leaseMs });
}
