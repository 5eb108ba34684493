// What every service module receives.
import type { Db } from '../store/database.js';
import type { AnalyzeFn, ServicesConfig } from './types.js';

export interface ServiceContext {
  db: Db;
  analyze: AnalyzeFn;
  config: ServicesConfig;
  now: () => Date;
}
