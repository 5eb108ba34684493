// createServices({db, analyze, config}) → Services. (Implementation in progress: signatures are stable.)
import type { Kysely } from 'kysely';
import type { AnalyzeFn, Services, ServicesConfig } from './types.js';

export * from './types.js';

export interface ServicesDeps {
  /** from createDb(databaseUrl).db, migrated */
  db: Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  analyze: AnalyzeFn;
  config: ServicesConfig;
  /** clock, for tests; default () => new Date() */
  now?: () => Date;
}

export function createServices(_deps: ServicesDeps): Services {
  throw new Error('not implemented yet');
}

/**
 * First start: on an empty users table creates user `admin` with a key (config.bootstrapKey
 * when set, else random) and returns that key so the server prints it once; otherwise null.
 */
export async function bootstrap(_services: Services, _config: Pick<ServicesConfig, 'bootstrapKey'>): Promise<string | null> {
  throw new Error('not implemented yet');
}
