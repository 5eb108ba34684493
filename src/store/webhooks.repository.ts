// webhooks and webhook_deliveries: every SQL statement on them. `events` is a JSON array kept
// as text; dates come back as ISO strings. The secret is read only where a delivery is signed
// (findDeliveryForSending) — no listing returns it.
import { sql } from 'kysely';
import { arg, compiledOnce } from './compiled.js';
import type { Db } from './database.js';
import { toIso, toIsoOrNull, toNumber } from './sql-helpers.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookRow {
  id: number;
  userId: number;
  url: string;
  events: string[];
  description: string;
  consecutiveFailures: number;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryRow {
  id: number;
  webhookId: number;
  event: string;
  messageId: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  redeliveryOf: number | null;
  createdAt: string;
  updatedAt: string;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
}

/** A delivery with its body, and what sending it needs from its webhook. */
export interface DeliveryToSend extends DeliveryRow {
  payload: string;
  userId: number;
  url: string;
  secret: string;
  webhookDisabledAt: string | null;
  webhookFailures: number;
}

const MAX_INT = 2_147_483_647;
const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_INT;

const webhookColumns = [
  'webhooks.id',
  'webhooks.org_id',
  'webhooks.url',
  'webhooks.events',
  'webhooks.description',
  'webhooks.consecutive_failures',
  'webhooks.disabled_at',
  'webhooks.disabled_reason',
  'webhooks.created_at',
  'webhooks.updated_at',
] as const;

function webhookQuery(db: Db) {
  return db.selectFrom('webhooks').select(webhookColumns);
}
type WebhookSelect = Awaited<ReturnType<ReturnType<typeof webhookQuery>['executeTakeFirstOrThrow']>>;

function toWebhook(r: WebhookSelect): WebhookRow {
  return {
    id: r.id,
    userId: r.org_id,
    url: r.url,
    events: JSON.parse(r.events) as string[],
    description: r.description,
    consecutiveFailures: toNumber(r.consecutive_failures),
    disabledAt: toIsoOrNull(r.disabled_at),
    disabledReason: r.disabled_reason,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  };
}

const deliveryColumns = [
  'webhook_deliveries.id',
  'webhook_deliveries.webhook_id',
  'webhook_deliveries.event',
  'webhook_deliveries.message_id',
  'webhook_deliveries.status',
  'webhook_deliveries.attempts',
  'webhook_deliveries.response_status',
  'webhook_deliveries.duration_ms',
  'webhook_deliveries.error',
  'webhook_deliveries.redelivery_of',
  'webhook_deliveries.created_at',
  'webhook_deliveries.updated_at',
  'webhook_deliveries.last_attempt_at',
  'webhook_deliveries.delivered_at',
] as const;

function deliveryQuery(db: Db) {
  return db.selectFrom('webhook_deliveries').select(deliveryColumns);
}
type DeliverySelect = Awaited<ReturnType<ReturnType<typeof deliveryQuery>['executeTakeFirstOrThrow']>>;

function toDelivery(r: DeliverySelect): DeliveryRow {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    event: r.event,
    messageId: r.message_id,
    status: r.status as DeliveryStatus,
    attempts: toNumber(r.attempts),
    responseStatus: r.response_status,
    durationMs: r.duration_ms,
    error: r.error,
    redeliveryOf: r.redelivery_of,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
    lastAttemptAt: toIsoOrNull(r.last_attempt_at),
    deliveredAt: toIsoOrNull(r.delivered_at),
  };
}

// ── webhooks ─────────────────────────────────────────────────────────────────────────────

export async function insertWebhook(
  db: Db,
  w: { userId: number; url: string; events: string[]; description: string; secret: string; now: string },
): Promise<number> {
  const row = await db
    .insertInto('webhooks')
    .values({
      org_id: w.userId,
      url: w.url,
      events: JSON.stringify(w.events),
      description: w.description,
      secret: w.secret,
      created_at: w.now,
      updated_at: w.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One user's webhook (null when missing or another user's). */
export async function findWebhook(db: Db, id: number, userId: number): Promise<WebhookRow | null> {
  if (!validId(id)) return null;
  const r = await webhookQuery(db).where('id', '=', id).where('org_id', '=', userId).executeTakeFirst();
  return r ? toWebhook(r) : null;
}

export async function countWebhooks(db: Db, userId: number): Promise<number> {
  const r = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', userId)
    .executeTakeFirstOrThrow();
  return toNumber(r.n);
}

/** Newest first. */
export async function listWebhooks(
  db: Db,
  userId: number,
  page: { limit: number; offset: number },
): Promise<WebhookRow[]> {
  const rows = await webhookQuery(db)
    .where('org_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toWebhook);
}

/** The user's enabled webhooks (the events they take are filtered by the caller). */
export async function enabledWebhooks(db: Db, userId: number): Promise<WebhookRow[]> {
  const rows = await enabledQuery(db, [userId]);
  return rows.map(toWebhook);
}

/** read at every event (a crawl's page too): compiled once */
const enabledQuery = compiledOnce((db) =>
  webhookQuery(db).where('org_id', '=', arg<number>(0)).where('disabled_at', 'is', null).orderBy('id'),
);

export interface WebhookChanges {
  url?: string;
  events?: string[];
  description?: string;
  /** true: enable (clears the disabled state and the failure count); false: disable with `disabledReason` */
  enabled?: boolean;
  disabledReason?: string;
  now: string;
}

/** false when the webhook is missing or another user's. */
export async function updateWebhook(db: Db, id: number, userId: number, c: WebhookChanges): Promise<boolean> {
  if (!validId(id)) return false;
  const set: Record<string, unknown> = { updated_at: c.now };
  if (c.url !== undefined) set.url = c.url;
  if (c.events !== undefined) set.events = JSON.stringify(c.events);
  if (c.description !== undefined) set.description = c.description;
  if (c.enabled === true) {
    set.disabled_at = null;
    set.disabled_reason = null;
    set.consecutive_failures = 0;
  }
  if (c.enabled === false) {
    // disabling a disabled webhook keeps its first date and reason
    set.disabled_at = sql`coalesce(disabled_at, ${c.now})`;
    set.disabled_reason = sql`coalesce(disabled_reason, ${c.disabledReason ?? 'Disabled by its owner.'})`;
  }
  const res = await db
    .updateTable('webhooks')
    .set(set)
    .where('id', '=', id)
    .where('org_id', '=', userId)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function deleteWebhook(db: Db, id: number, userId: number): Promise<boolean> {
  if (!validId(id)) return false;
  const res = await db
    .deleteFrom('webhooks')
    .where('id', '=', id)
    .where('org_id', '=', userId)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** A delivery arrived: the run of failures ends. */
export async function resetWebhookFailures(db: Db, id: number): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ consecutive_failures: 0 })
    .where('id', '=', id)
    .where('consecutive_failures', '!=', 0)
    .execute();
}

/**
 * A delivery failed for good: one more failure in a row. At `disableAfter` the webhook is
 * disabled with `reason` (once: the first to reach it sets the date and reason). Returns the
 * count and whether this call disabled it.
 */
export async function addWebhookFailure(
  db: Db,
  id: number,
  disableAfter: number,
  reason: string,
  now: string,
): Promise<{ failures: number; disabled: boolean }> {
  const row = await db
    .updateTable('webhooks')
    .set({ consecutive_failures: sql`consecutive_failures + 1` })
    .where('id', '=', id)
    .returning('consecutive_failures')
    .executeTakeFirst();
  if (!row) return { failures: 0, disabled: false };
  const failures = toNumber(row.consecutive_failures);
  if (failures < disableAfter) return { failures, disabled: false };
  const res = await db
    .updateTable('webhooks')
    .set({ disabled_at: now, disabled_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return { failures, disabled: res.numUpdatedRows > 0n };
}

// ── deliveries ───────────────────────────────────────────────────────────────────────────

export async function insertDelivery(
  db: Db,
  d: {
    webhookId: number;
    event: string;
    messageId: string;
    payload: string;
    redeliveryOf?: number;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: d.webhookId,
      event: d.event,
      message_id: d.messageId,
      payload: d.payload,
      redelivery_of: d.redeliveryOf ?? null,
      created_at: d.now,
      updated_at: d.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A delivery of one webhook, with its body (null when missing). */
export async function findDelivery(
  db: Db,
  webhookId: number,
  id: number,
): Promise<(DeliveryRow & { payload: string }) | null> {
  if (!validId(id)) return null;
  const r = await deliveryQuery(db)
    .select('webhook_deliveries.payload')
    .where('webhook_deliveries.id', '=', id)
    .where('webhook_deliveries.webhook_id', '=', webhookId)
    .executeTakeFirst();
  return r ? { ...toDelivery(r), payload: r.payload } : null;
}

/** A delivery with what sending it needs from its webhook (null when either is gone). */
export async function findDeliveryForSending(db: Db, id: number): Promise<DeliveryToSend | null> {
  if (!validId(id)) return null;
  const r = await deliveryQuery(db)
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .select([
      'webhook_deliveries.payload',
      'webhooks.org_id',
      'webhooks.url',
      'webhooks.secret',
      'webhooks.disabled_at as webhook_disabled_at',
      'webhooks.consecutive_failures as webhook_failures',
    ])
    .where('webhook_deliveries.id', '=', id)
    .executeTakeFirst();
  if (!r) return null;
  return {
    ...toDelivery(r),
    payload: r.payload,
    userId: r.org_id,
    url: r.url,
    secret: r.secret,
    webhookDisabledAt: toIsoOrNull(r.webhook_disabled_at),
    webhookFailures: toNumber(r.webhook_failures),
  };
}

export async function countDeliveries(db: Db, webhookId: number, status?: DeliveryStatus): Promise<number> {
  let q = db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('webhook_id', '=', webhookId);
  if (status) q = q.where('status', '=', status);
  const r = await q.executeTakeFirstOrThrow();
  return toNumber(r.n);
}

/** Newest first. */
export async function listDeliveries(
  db: Db,
  webhookId: number,
  o: { status?: DeliveryStatus; limit: number; offset: number },
): Promise<DeliveryRow[]> {
  let q = deliveryQuery(db).where('webhook_id', '=', webhookId);
  if (o.status) q = q.where('status', '=', o.status);
  const rows = await q.orderBy('id', 'desc').limit(o.limit).offset(o.offset).execute();
  return rows.map(toDelivery);
}

export interface AttemptOutcome {
  /** the delivery's status after this attempt */
  status: DeliveryStatus;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  now: string;
}

/**
 * Records one attempt of a pending delivery (attempts + 1). False when the delivery is no
 * longer pending (another worker finished it: nothing is written).
 */
export async function recordAttempt(db: Db, id: number, o: AttemptOutcome): Promise<boolean> {
  const res = await db
    .updateTable('webhook_deliveries')
    .set({
      status: o.status,
      attempts: sql`attempts + 1`,
      response_status: o.responseStatus,
      duration_ms: o.durationMs,
      error: o.error,
      updated_at: o.now,
      last_attempt_at: o.now,
      ...(o.status === 'delivered' ? { delivered_at: o.now } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Ends a pending delivery without an attempt (its webhook was disabled meanwhile). */
export async function failPendingDelivery(db: Db, id: number, error: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', error, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Keeps the newest `keep` finished deliveries of a webhook (pending ones are never pruned). */
export async function pruneDeliveries(db: Db, webhookId: number, keep: number): Promise<void> {
  const cutoff = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(keep)
    .executeTakeFirst();
  if (!cutoff) return;
  await db
    .deleteFrom('webhook_deliveries')
    .where('webhook_id', '=', webhookId)
    .where('id', '<=', cutoff.id)
    .where('status', '!=', 'pending')
    .execute();
}
