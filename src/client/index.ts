// The typed API client: `import { createClient } from 'pagegrade/client'`. openapi-fetch over
// the types generated from the OpenAPI document (./schema.ts, `npm run client`): paths,
// parameters, bodies and answers are checked by the compiler.
//
//   const api = createClient({ baseUrl: 'http://127.0.0.1:8080', key: process.env.PAGEGRADE_KEY! });
//   const { data, error } = await api.GET('/api/v1/reports/{id}', { params: { path: { id: 42 } } });
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
/** A report as the API answers it */
export type Report =
  paths['/api/v1/reports/{id}']['get']['responses'][200]['content']['application/json']['data'];

export interface PagegradeClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** the service's address, e.g. http://127.0.0.1:8080 (PAGEGRADE_PUBLIC_URL) */
  baseUrl: string;
  /** an API key (`pagegrade keys create USER`) */
  key: string;
  headers?: Record<string, string>;
}

/**
 * The client reads JSON: `data` is typed by each answer's `application/json` content. Other
 * media (the reports list's `text/csv`, a batch's events) are read with `parseAs: 'text'` or
 * `'stream'`.
 */
export type PagegradeClient = Client<paths, 'application/json'>;

export function createClient(options: PagegradeClientOptions): PagegradeClient {
  const { key, headers, baseUrl, ...rest } = options;
  return createFetchClient<paths, 'application/json'>({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, Authorization: `Bearer ${key}` },
  });
}
