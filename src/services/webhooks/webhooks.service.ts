// Webhooks: endpoints a user registers for events, and the deliveries of those events.
//
// - emit(user, event, data, {trx}) records one delivery per enabled webhook of the user that
//   takes the event and enqueues one `webhook.deliver` job per delivery, in the caller's
//   transaction when there is one (both exist if and only if it commits).
// - attempt(delivery) is one try of the job: sign the stored body (Standard Webhooks, with the
//   `standardwebhooks` package: the webhook-id is the delivery's message id, the same on every
//   attempt and redelivery; the timestamp is the attempt's), POST it through the fetcher's
//   address guard (src/analyzer/fetch/send.ts, redirects not followed), record the outcome.
//   A 2xx is delivered. Anything else is retried by the job engine (exponential backoff, about a
//   day) until the last attempt, where the delivery fails for good; a webhook whose deliveries
//   fail for good N times in a row (PAGEGRADE_WEBHOOK_DISABLE_AFTER) is disabled, with the reason.
// Decisions: docs/webhooks.md.
import { randomBytes } from 'node:crypto';
import { Webhook as Signer } from 'standardwebhooks';
import { checkTarget, postGuarded, DEFAULT_USER_AGENT } from '../../analyzer/fetch/index.js';
import { isFetchError } from '../audit/audit.js';
import { notFound, validationError } from '../../errors.js';
import { withTransaction, type Db } from '../../store/database.js';
import { diffFields, recordChange } from '../shared/audit-log.js';
import {
  addWebhookFailure,
  countDeliveries,
  countWebhooks,
  deleteWebhook,
  enabledWebhooks,
  failPendingDelivery,
  findDelivery,
  findDeliveryForSending,
  findWebhook,
  insertDelivery,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  pruneDeliveries,
  recordAttempt,
  resetWebhookFailures,
  updateWebhook,
  type DeliveryRow,
  type WebhookRow,
} from '../../store/webhooks.repository.js';
import type { ServiceContext } from '../shared/context.js';
import { EVENT_NAMES, TEST_EVENT, type WebhookEvent } from '../../contract/webhooks/events.js';
import type { OwnerServices } from '../types.js';
import type { Webhook, WebhookDelivery } from './types.js';
import { enqueueJob, WEBHOOK_DELIVER } from '../../contract/jobs.js';

/** Finished deliveries kept per webhook (pending ones are never pruned). */
export const DELIVERIES_KEPT = 1000;
/** Webhooks per user. */
export const MAX_WEBHOOKS = 50;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_DISABLE_AFTER = 5;
/** Characters of an answer's body kept in a failed attempt's error. */
const BODY_IN_ERROR = 200;

const webhookNotFound = () => notFound('No such webhook.');
const deliveryNotFound = () => notFound('No such delivery.');

/** A webhook URL as the audit log records it: its origin only (the path may hold a token). */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
/** A delivery's webhook-id (one per event and webhook). */
export const newMessageId = () => `msg_${randomBytes(16).toString('base64url')}`;

function toWebhook(r: WebhookRow): Webhook {
  return {
    id: r.id,
    userId: r.userId,
    url: r.url,
    events: r.events.filter((e): e is WebhookEvent => (EVENT_NAMES as string[]).includes(e)),
    description: r.description,
    enabled: r.disabledAt === null,
    disabledAt: r.disabledAt,
    disabledReason: r.disabledReason,
    consecutiveFailures: r.consecutiveFailures,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({ ...r });

const unique = <T>(xs: T[]) => [...new Set(xs)];

/** The body of a delivery: the Standard Webhooks envelope. */
export function deliveryBody(type: string, timestamp: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: timestamp.toISOString(), data });
}

export function createWebhookServices(ctx: ServiceContext): OwnerServices['webhooks'] {
  const { db, config } = ctx;
  const iso = () => ctx.now().toISOString();
  const timeoutMs = config.webhookTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const disableAfter = config.webhookDisableAfter ?? DEFAULT_DISABLE_AFTER;
  const guard = {
    allowPrivateHosts: config.allowPrivateHosts,
    ...(ctx.webhookGuard?.lookup ? { lookup: ctx.webhookGuard.lookup } : {}),
    ...(ctx.webhookGuard?.classifyAddress ? { classifyAddress: ctx.webhookGuard.classifyAddress } : {}),
  };
  const userAgent = config.userAgent ?? DEFAULT_USER_AGENT;

  async function load(userId: number, id: number): Promise<WebhookRow> {
    const row = await findWebhook(db, id, userId);
    if (!row) throw webhookNotFound();
    return row;
  }

  /** The URL must be one the sender may reach (the same guard as every delivery). */
  async function checkUrl(url: string): Promise<string> {
    const trimmed = url.trim();
    try {
      await checkTarget(trimmed, { ...guard, timeoutMs: Math.min(timeoutMs, 5000) });
    } catch (err) {
      if (isFetchError(err)) throw validationError({ url: [err.message] });
      throw err;
    }
    return new URL(trimmed).href;
  }

  /** Inserts a delivery and its job (in `trx`): they exist together or not at all. */
  async function enqueueDelivery(
    trx: Db,
    d: { webhookId: number; event: string; messageId: string; payload: string; redeliveryOf?: number },
  ): Promise<number> {
    const id = await insertDelivery(trx, { ...d, now: iso() });
    await enqueueJob(ctx.queue, WEBHOOK_DELIVER, { deliveryId: id }, { key: `delivery:${id}`, trx });
    return id;
  }

  async function deliveryOf(webhookId: number, id: number): Promise<WebhookDelivery> {
    const d = await findDelivery(db, webhookId, id);
    if (!d) throw deliveryNotFound();
    const { payload: _payload, ...row } = d;
    return toDelivery(row);
  }

  function requireEnabled(w: WebhookRow, action: string): void {
    if (w.disabledAt !== null) {
      throw validationError({
        enabled: [
          `The webhook is disabled (${w.disabledReason ?? 'no reason recorded'}); enable it (enabled=1) before ${action}.`,
        ],
      });
    }
  }

  /** Records a delivery that failed for good, and disables the webhook at the limit. */
  async function failedForGood(webhookId: number, error: string): Promise<void> {
    await addWebhookFailure(
      db,
      webhookId,
      disableAfter,
      `Disabled after ${disableAfter} ${disableAfter === 1 ? 'delivery' : 'deliveries'} in a row failed; the last: ${error}`,
      iso(),
    );
  }

  return {
    async create(userId, input) {
      const url = await checkUrl(input.url);
      if ((await countWebhooks(db, userId)) >= MAX_WEBHOOKS) {
        throw validationError({ url: [`A user may have at most ${MAX_WEBHOOKS} webhooks.`] });
      }
      const secret = newSecret();
      const events = unique(input.events);
      const description = input.description ?? '';
      const id = await withTransaction(db, async (trx) => {
        const id = await insertWebhook(trx, { userId, url, events, description, secret, now: iso() });
        await recordChange(trx, ctx.now(), userId, {
          action: 'webhook.created',
          target: { type: 'webhook', id },
          // the signing secret: only that one was made
          changes: { url: originOf(url), events, description, secret: 'set' },
        });
        return id;
      });
      return { webhook: toWebhook(await load(userId, id)), secret };
    },

    async list(userId, { page, perPage }) {
      const total = await countWebhooks(db, userId);
      const offset = (page - 1) * perPage;
      if (offset >= total) return { items: [], total };
      const rows = await listWebhooks(db, userId, { limit: perPage, offset });
      return { items: rows.map(toWebhook), total };
    },

    async get(userId, id) {
      return toWebhook(await load(userId, id));
    },

    async update(userId, id, input) {
      const before = await load(userId, id);
      const url = input.url !== undefined ? await checkUrl(input.url) : undefined;
      const change = {
        ...(url !== undefined ? { url } : {}),
        ...(input.events !== undefined ? { events: unique(input.events) } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      };
      const ok = await withTransaction(db, async (trx) => {
        if (!(await updateWebhook(trx, id, userId, { ...change, now: iso() }))) return false;
        const was: Record<string, unknown> = {
          url: before.url,
          events: before.events,
          description: before.description,
          enabled: before.disabledAt === null,
        };
        const changes = diffFields(Object.fromEntries(Object.keys(change).map((k) => [k, was[k]])), change);
        // a URL may carry a token (a chat's webhook path): only its origin is recorded
        if (changes.url) changes.url = { from: originOf(before.url), to: originOf(url ?? before.url) };
        if (Object.keys(changes).length > 0)
          await recordChange(trx, ctx.now(), userId, {
            action: 'webhook.changed',
            target: { type: 'webhook', id },
            changes,
          });
        return true;
      });
      if (!ok) throw webhookNotFound();
      return toWebhook(await load(userId, id));
    },

    async delete(userId, id) {
      const before = await load(userId, id);
      const ok = await withTransaction(db, async (trx) => {
        if (!(await deleteWebhook(trx, id, userId))) return false;
        await recordChange(trx, ctx.now(), userId, {
          action: 'webhook.deleted',
          target: { type: 'webhook', id },
          changes: { url: originOf(before.url) },
        });
        return true;
      });
      if (!ok) throw webhookNotFound();
    },

    async deliveries(userId, id, { status, page, perPage }) {
      await load(userId, id);
      const total = await countDeliveries(db, id, status);
      const offset = (page - 1) * perPage;
      if (offset >= total) return { items: [], total };
      const rows = await listDeliveries(db, id, { ...(status ? { status } : {}), limit: perPage, offset });
      return { items: rows.map(toDelivery), total };
    },

    async delivery(userId, id, deliveryId) {
      await load(userId, id);
      const d = await findDelivery(db, id, deliveryId);
      if (!d) throw deliveryNotFound();
      const { payload, ...row } = d;
      return { ...toDelivery(row), payload: JSON.parse(payload) as unknown };
    },

    async redeliver(userId, id, deliveryId) {
      const w = await load(userId, id);
      const original = await findDelivery(db, id, deliveryId);
      if (!original) throw deliveryNotFound();
      requireEnabled(w, 'redelivering');
      const newId = await withTransaction(db, (trx) =>
        enqueueDelivery(trx, {
          webhookId: id,
          event: original.event,
          // the same webhook-id: receivers recognise the event they may have had already
          messageId: original.messageId,
          payload: original.payload,
          redeliveryOf: original.id,
        }),
      );
      return deliveryOf(id, newId);
    },

    async test(userId, id) {
      const w = await load(userId, id);
      requireEnabled(w, 'sending a test');
      const payload = deliveryBody(TEST_EVENT, ctx.now(), { webhook: { id: w.id, url: w.url } });
      const newId = await withTransaction(db, (trx) =>
        enqueueDelivery(trx, { webhookId: id, event: TEST_EVENT, messageId: newMessageId(), payload }),
      );
      return deliveryOf(id, newId);
    },

    async emit(userId, event, data, options = {}) {
      const run = async (trx: Db) => {
        const targets = (await enabledWebhooks(trx, userId)).filter((w) => w.events.includes(event));
        if (targets.length === 0) return 0;
        const payload = deliveryBody(event, ctx.now(), typeof data === 'function' ? await data() : data);
        for (const w of targets) {
          await enqueueDelivery(trx, { webhookId: w.id, event, messageId: newMessageId(), payload });
          await pruneDeliveries(trx, w.id, DELIVERIES_KEPT);
        }
        return targets.length;
      };
      return options.trx ? run(options.trx) : withTransaction(db, run);
    },

    async attempt(deliveryId, job) {
      const d = await findDeliveryForSending(db, deliveryId);
      // deleted with its webhook, or finished by an earlier run of this job: nothing to do
      if (!d || d.status !== 'pending') return { status: 'skipped' };
      if (d.webhookDisabledAt !== null) {
        await failPendingDelivery(db, d.id, 'Not sent: the webhook is disabled.', iso());
        return { status: 'failed', error: 'the webhook is disabled' };
      }
      const last = job.attempt >= job.maxAttempts;
      const sentAt = ctx.now();
      let error: string;
      let responseStatus: number | null = null;
      let durationMs: number | null = null;
      let permanent = false;
      try {
        const signature = new Signer(d.secret).sign(d.messageId, sentAt, d.payload);
        const res = await postGuarded(d.url, d.payload, {
          ...guard,
          timeoutMs,
          ...(job.signal ? { signal: job.signal } : {}),
          maxResponseBytes: BODY_IN_ERROR,
          headers: {
            'content-type': 'application/json',
            'user-agent': userAgent,
            'webhook-id': d.messageId,
            'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
            'webhook-signature': signature,
          },
        });
        responseStatus = res.status;
        durationMs = res.durationMs;
        if (res.status >= 200 && res.status < 300) {
          const recorded = await recordAttempt(db, d.id, {
            status: 'delivered',
            responseStatus,
            durationMs,
            error: null,
            now: iso(),
          });
          // the run of failures ends (no write when there was none)
          if (recorded && d.webhookFailures > 0) await resetWebhookFailures(db, d.webhookId);
          return { status: 'delivered' };
        }
        const location = res.headers['location'];
        error =
          res.status >= 300 && res.status < 400 && location
            ? `The endpoint answered ${res.status}, a redirect to ${location}; redirects are not followed.`
            : `The endpoint answered ${res.status}${res.body.trim() ? `: ${res.body.trim().slice(0, BODY_IN_ERROR)}` : '.'}`;
      } catch (err) {
        if (!isFetchError(err)) throw err;
        error = err.message;
        // the address guard's refusal (and a URL that became invalid) will not mend by itself
        permanent = err.code === 'blocked_address' || err.code === 'invalid_url';
      }
      const final = last || permanent;
      const recorded = await recordAttempt(db, d.id, {
        status: final ? 'failed' : 'pending',
        responseStatus,
        durationMs,
        error,
        now: iso(),
      });
      if (!recorded) return { status: 'skipped' };
      if (final) {
        await failedForGood(d.webhookId, error);
        return { status: 'failed', error };
      }
      return { status: 'retry', error };
    },
  };
}
