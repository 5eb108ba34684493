// The API test harness: the real app (buildApp) over the real services on a real database —
// a SQLite file always, PostgreSQL when it answers — with the real analyzer fetching pages
// from a fixture site on 127.0.0.1 (host names of the form *.test resolve to 127.0.0.1 through
// the analyzer's `lookup` option, so that tests can have several projects).
//
// Every response a test receives through `h.request` is recorded; `checkAgainstOpenApi`
// validates them all against the response schemas of the served OpenAPI document.
import { after, before, describe } from 'node:test';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/app.js';
import { analyze } from '../../src/analyzer/index.js';
import type { Dialect } from '../../src/store/database.js';
import { createServices } from '../../src/services/index.js';
import type { AnalyzeFn, Services } from '../../src/services/types.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { dialects, openTestDb, type TestDb, type TestDialect } from '../helpers/db.js';
import { checkAgainstOpenApi } from './openapi-check.js';

export const PUBLIC_URL = 'http://pagegrade.test:8080';

/** The dialect matrix of test/helpers/db.ts: SQLite always, PostgreSQL when it answers. */
export const DIALECTS: TestDialect[] = dialects;

export interface Recorded {
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: unknown;
}

export interface HarnessOptions {
  rateLimit?: number;
  rateLimitWindowMs?: number;
  /** wraps the real services (fault injection for the 500 test) */
  wrapServices?: (s: Services) => Services;
  logLevel?: string;
}

export interface Harness {
  dialect: Dialect;
  app: App;
  services: Services;
  database: TestDb;
  fixture: FixtureServer;
  /** `http://<name>.test:<port>` on the fixture server */
  site(name: string): string;
  alice: { id: number; key: string; auth: Record<string, string> };
  bob: { id: number; key: string; auth: Record<string, string> };
  logs: string[];
  recorded: Recorded[];
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

const testLookup = async (hostname: string) => {
  if (hostname.endsWith('.test') || hostname === '127.0.0.1' || hostname === 'localhost') {
    return [{ address: '127.0.0.1', family: 4 }];
  }
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** The real analyzer, with *.test host names resolving to 127.0.0.1. */
export const TEST_SERVICES_CONFIG = {
  allowPrivateHosts: true,
  fetchTimeoutMs: 5000,
  fetchMaxBytes: 5 * 1024 * 1024,
  userAgent: null,
  sessionSecret: 'x'.repeat(32),
  bootstrapKey: null,
} as const;

export const testAnalyze: AnalyzeFn = (url, options) => analyze(url, { ...options, lookup: testLookup });

/** Fixture pages: `/` a well-made page, `/bad` a poor one, `/json` not HTML, `/gone` 404 HTML. */
export function fixtureRoutes(fixture: FixtureServer): void {
  fixture.route('/', html(goodPage(fixture.origin)));
  fixture.route('/bad', html('<html><body><p>hi</p></body></html>'));
  fixture.route('/json', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
  fixture.route('/robots.txt', {
    status: 200,
    headers: { 'content-type': 'text/plain' },
    body: 'User-agent: *\nAllow: /\n',
  });
}

export async function createHarness(target: TestDialect, opts: HarnessOptions = {}): Promise<Harness> {
  const database = await openTestDb(target);
  const fixture = await startFixtureServer();
  fixtureRoutes(fixture);

  const real = createServices({
    db: database.db,
    analyze: testAnalyze,
    config: TEST_SERVICES_CONFIG,
  });
  const services = opts.wrapServices ? opts.wrapServices(real) : real;

  const logs: string[] = [];
  const logger = pino(
    { level: opts.logLevel ?? 'info' },
    new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    }),
  );

  const app = await buildApp(
    { publicUrl: PUBLIC_URL, rateLimit: opts.rateLimit ?? 0, logLevel: 'info' },
    {
      services,
      healthCheck: async () => {
        await sql`select 1`.execute(database.db);
      },
      logger,
      ...(opts.rateLimitWindowMs ? { rateLimitWindowMs: opts.rateLimitWindowMs } : {}),
    },
  );
  await app.ready();

  const a = await real.users.create('alice');
  const b = await real.users.create('bob');
  const recorded: Recorded[] = [];

  return {
    dialect: target.name,
    app,
    services: real,
    database,
    fixture,
    site: (name) => `http://${name}.test:${fixture.port}`,
    alice: { id: a.user.id, key: a.key.key, auth: { authorization: `Bearer ${a.key.key}` } },
    bob: { id: b.user.id, key: b.key.key, auth: { authorization: `Bearer ${b.key.key}` } },
    logs,
    recorded,
    async request(o) {
      const res = await app.inject(o);
      const contentType = String(res.headers['content-type'] ?? '');
      recorded.push({
        method: String(o.method ?? 'GET').toUpperCase(),
        url: String(o.url),
        status: res.statusCode,
        contentType,
        body: contentType.startsWith('application/json') && res.body !== '' ? res.json() : res.body,
      });
      return res;
    },
    async close() {
      await app.close();
      await fixture.close();
      await database.cleanup();
    },
  };
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
