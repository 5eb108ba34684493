// The Kysely table types of the work the service queues and sends — the embedded job engine's
// queue and outbox, the webhooks and their deliveries — beside database.ts's (which holds the
// Database interface that names them).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date | string, string, string>;
type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;
/** epoch milliseconds (bigint: a string from PostgreSQL) */
type Millis = ColumnType<number | string, number, number>;
type NullableMillis = ColumnType<number | string | null, number | null, number | null>;

/** The embedded job engine's queue (src/store/jobs.repository.ts, docs/jobs.md). */
export interface JobsTable {
  id: Generated<number | string>;
  kind: string;
  key: string | null;
  /** JSON text */
  payload: string;
  state: 'waiting' | 'running' | 'dead';
  attempts: Generated<number>;
  max_attempts: number;
  run_at: Millis;
  /** the running attempt's token */
  lease: string | null;
  locked_until: NullableMillis;
  last_error: string | null;
  created_at: Millis;
  finished_at: NullableMillis;
}

/** Jobs enqueued in a transaction for the BullMQ engine, relayed to Redis after commit. */
export interface JobOutboxTable {
  id: Generated<number | string>;
  job_id: string;
  kind: string;
  key: string | null;
  payload: string;
  max_attempts: number | null;
  run_at: Millis;
  created_at: Millis;
}

export interface WebhooksTable {
  id: Generated<number>;
  /** the owning organisation */
  org_id: number;
  url: string;
  /** JSON array of event names */
  events: string;
  description: Generated<string>;
  /** `whsec_<base64>`: kept as it is, every delivery is signed with it */
  secret: string;
  /** deliveries failed for good since the last one that arrived */
  consecutive_failures: Generated<number>;
  disabled_at: NullableTimestamp;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event: string;
  /** the `webhook-id` header: the same on every attempt and redelivery of one event */
  message_id: string;
  /** the JSON body sent */
  payload: string;
  /** pending, delivered, failed */
  status: Generated<string>;
  attempts: Generated<number>;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  redelivery_of: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_attempt_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
}

/**
 * Schedules (src/store/schedules.repository.ts, docs/schedules.md): a report's re-audits
 * (report_id) or a project's crawls (project_id), exactly one of the two.
 */
