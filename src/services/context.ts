// What every service module receives.
import type { Queue } from '../jobs/types.js';
import type { Db } from '../store/database.js';
import type { AnalyzeFn, ServicesConfig } from './types.js';
import type { GuardOptions } from '../analyzer/fetch/index.js';
import type { ReportEvents } from './report-events.js';

export interface ServiceContext {
  db: Db;
  analyze: AnalyzeFn;
  config: ServicesConfig;
  now: () => Date;
  /** the job queue: a service enqueues work (with `trx` to commit it with its transaction) */
  queue: Queue;
  /** test seam for the webhook sender's address guard (DNS, classification); never from config */
  webhookGuard?: Pick<GuardOptions, 'lookup' | 'classifyAddress'>;
  /** emits the report events to webhooks (report.created, .completed, .regressed, .failed) */
  reportEvents?: ReportEvents;
}
