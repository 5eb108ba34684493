// What every service module receives.
import type { Queue } from '../jobs/types.js';
import type { Db } from '../store/database.js';
import type { AnalyzeFn, ServicesConfig } from './types.js';

export interface ServiceContext {
  db: Db;
  analyze: AnalyzeFn;
  config: ServicesConfig;
  now: () => Date;
  /** the job queue: a service enqueues work (with `trx` to commit it with its transaction) */
  queue: Queue;
}
