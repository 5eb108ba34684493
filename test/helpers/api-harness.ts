// The API test harness: the test kit's app (test/helpers/app.ts: the real app over the real
// services on a real database — a SQLite file always, PostgreSQL when it answers — with the
// real analyzer fetching pages from a fixture site on 127.0.0.1), plus two users.
//
// Every response a test receives through `h.request` is recorded; `checkAgainstOpenApi`
// validates them all against the response schemas of the served OpenAPI document.
import { after, before, describe } from 'node:test';
import type { InjectOptions } from 'fastify';
import type { Services } from '../../src/services/types.js';
import { buildTestApp, PUBLIC_URL, type TestApp, type TestAppOptions } from './app.js';
import { testAnalyze, testServicesConfig } from './config.js';
import { dialects, type TestDialect } from './db.js';
import { buildUser, type TestUser } from './factories.js';
import { checkAgainstOpenApi } from './openapi-check.js';

export { PUBLIC_URL } from './app.js';

/** The dialect matrix of test/helpers/db.ts: SQLite always, PostgreSQL when it answers. */
export const DIALECTS: TestDialect[] = dialects;

export interface HarnessOptions {
  rateLimit?: number;
  rateLimitWindowMs?: number;
  /** wraps the real services (fault injection for the 500 test) */
  wrapServices?: (s: Services) => Services;
  logLevel?: string;
  /** the analyzer (default testAnalyze) */
  analyze?: TestAppOptions['analyze'];
}

export interface Harness extends TestApp {
  alice: TestUser;
  bob: TestUser;
}

/** The services' configuration of the API tests. */
export const TEST_SERVICES_CONFIG = testServicesConfig({
  fetchMaxBytes: 5 * 1024 * 1024,
  sessionSecret: 'x'.repeat(32),
});

export { testAnalyze };

export async function createHarness(target: TestDialect, opts: HarnessOptions = {}): Promise<Harness> {
  const t = await buildTestApp(target, { ...opts, publicUrl: PUBLIC_URL, config: TEST_SERVICES_CONFIG });
  return { ...t, alice: await buildUser(t.services, 'alice'), bob: await buildUser(t.services, 'bob') };
}

export type Fields = Record<string, string | number | boolean | null | undefined>;

/** Options for a request with a body, form-encoded (default, as SPEC §3) or JSON. */
export function withBody(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  auth: Record<string, string>,
  fields: Fields,
  as: 'form' | 'json' = 'form',
): InjectOptions {
  if (as === 'json') {
    return {
      method,
      url,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify(fields),
    };
  }
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null) params.append(k, String(v));
  return {
    method,
    url,
    headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    payload: params.toString(),
  };
}

/**
 * Declares `body` once per dialect (test/helpers/db.ts: a SQLite file always; PostgreSQL when
 * it answers, else skipped with the reason printed — failed when PAGEGRADE_REQUIRE_POSTGRES=1). The
 * harness is created before and closed after; every recorded response is checked against the
 * OpenAPI document before closing.
 */
export function forEachDialect(
  name: string,
  body: (h: () => Harness) => void,
  opts: HarnessOptions = {},
): void {
  for (const target of DIALECTS) {
    let harness: Harness | null = null;
    describe(`${name} [${target.name}]`, { skip: target.skip }, () => {
      before(async () => {
        harness = await createHarness(target, opts);
      });
      after(async () => {
        if (!harness) return;
        try {
          const checked = await checkAgainstOpenApi(harness);
          console.log(`# ${name} [${target.name}]: ${checked} responses valid against the OpenAPI document`);
        } finally {
          await harness.close();
        }
      });
      body(() => {
        if (!harness) throw new Error('harness not ready');
        return harness;
      });
    });
  }
}
