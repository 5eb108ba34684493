// buildTestApp(dialect): the real app (buildApp) over the real services on a real database of
// that dialect (test/helpers/db.ts), with the real analyzer fetching pages from a fixture site
// on 127.0.0.1 (test/helpers/config.ts: host names *.test resolve to 127.0.0.1). The API tests
// (test/helpers/api-harness.ts) and the pages tests (test/helpers/pages-harness.ts) both start from it.
//
//   describeEachDialect('reports', (dialect) => {
//     let t: TestApp;
//     before(async () => { t = await buildTestApp(dialect); });
//     after(() => t.close());
//     …t.request({ method: 'GET', url: '/api/v1/reports', headers: alice.auth })…
//   });
import { describe } from 'node:test';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/app.js';
import type { Dialect } from '../../src/store/database.js';
import { createServices, type ServicesDeps } from '../../src/services/index.js';
import type { Queue } from '../../src/jobs/types.js';
import { embeddedQueue } from '../../src/jobs/index.js';
import type { Services } from '../../src/services/types.js';
import type { AnalyzeFn, ServicesConfig } from '../../src/services/shared/config.js';
import { testAnalyze, testFetchFile, testLookup, testServicesConfig } from './config.js';
import { dialects, openTestDb, type TestDb, type TestDialect } from './db.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from './fixture-server.js';

export const PUBLIC_URL = 'http://pagegrade.test:8080';

/** One response as a test received it through `TestApp.request`. */
export interface Recorded {
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: unknown;
}

export interface TestAppOptions {
  /** PAGEGRADE_PUBLIC_URL (default http://pagegrade.test:8080) */
  publicUrl?: string;
  rateLimit?: number;
  rateLimitWindowMs?: number;
  /** wraps the real services given to the app (fault injection); `TestApp.services` stays real */
  wrapServices?: (s: Services) => Services;
  /** the level of the captured log lines (default info) */
  logLevel?: string;
  /** overrides of testServicesConfig() */
  config?: Partial<ServicesConfig>;
  /** the analyzer (default testAnalyze: the real one with testLookup); a test seam added, e.g. a CA to trust */
  analyze?: AnalyzeFn;
  /** adds or replaces fixture routes (after the default ones of fixtureRoutes) */
  routes?: (fixture: FixtureServer) => void;
  /** the services' job queue (webhook deliveries are enqueued on it) */
  queue?: Queue;
  /** the webhook sender's DNS and address classification (default: testLookup, the real guard) */
  webhookGuard?: ServicesDeps['webhookGuard'];
  /** Chromium for rendered audits (test/helpers/renderer.ts); absent: render=1 answers 422 */
  renderer?: ServicesDeps['renderer'];
  /** PAGEGRADE_METRICS=1 (GET /metrics, reading this database's pool and the services' queue) */
  metrics?: boolean;
  /** PAGEGRADE_METRICS_TOKEN */
  metricsToken?: string;
}

export interface TestApp {
  dialect: Dialect;
  app: App;
  /** the real services (not wrapped) */
  services: Services;
  database: TestDb;
  fixture: FixtureServer;
  /** `http://<name>.test:<port>` on the fixture server */
  site(name: string): string;
  /** the app's log lines (JSON, one per entry) */
  logs: string[];
  /** every response received through request(), in order */
  recorded: Recorded[];
  /** app.inject, recording the response */
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Fixture pages: `/` a well-made page, `/bad` a poor one, `/json` not HTML, `/robots.txt`; else 404. */
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

export async function buildTestApp(target: TestDialect, opts: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDb(target);
  const fixture = await startFixtureServer();
  try {
    fixtureRoutes(fixture);
    opts.routes?.(fixture);

    // the services' queue (GET /metrics reads its counts)
    const queue = opts.queue ?? embeddedQueue(database.db);
    const real = createServices({
      db: database.db,
      analyze: opts.analyze ?? testAnalyze,
      config: { publicUrl: opts.publicUrl ?? PUBLIC_URL, ...testServicesConfig(opts.config) },
      webhookGuard: opts.webhookGuard ?? { lookup: testLookup },
      fetchFile: testFetchFile,
      queue,
      ...(opts.renderer ? { renderer: opts.renderer } : {}),
      // SQLite's key changes come from its connection (the key cache on, as in the service);
      // PostgreSQL's would need a LISTEN bus: its test apps read every key
      ...(database.keyChanges ? { keyChanges: database.keyChanges } : {}),
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
      {
        publicUrl: opts.publicUrl ?? PUBLIC_URL,
        rateLimit: opts.rateLimit ?? 0,
        logLevel: 'info',
        metrics: opts.metrics ?? false,
        metricsToken: opts.metricsToken ?? null,
      },
      {
        services,
        healthCheck: async () => {
          await sql`select 1`.execute(database.db);
        },
        logger,
        ...(opts.rateLimitWindowMs ? { rateLimitWindowMs: opts.rateLimitWindowMs } : {}),
        metricsSources: { dbPool: database.poolStats, queue },
      },
    );
    await app.ready();

    const recorded: Recorded[] = [];
    return {
      dialect: target.name,
      app,
      services: real,
      database,
      fixture,
      site: (name) => `http://${name}.test:${fixture.port}`,
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
  } catch (err) {
    await fixture.close();
    await database.cleanup();
    throw err;
  }
}

/**
 * Declares `body` once per dialect — `describe('<name> [sqlite]')` and `describe('<name>
 * [postgres]')`, the latter skipped with the reason printed when PostgreSQL does not answer
 * (failed when PAGEGRADE_REQUIRE_POSTGRES=1). `opts.skip` skips both (e.g. no Chromium).
 */
export function describeEachDialect(name: string, body: (dialect: TestDialect) => void): void;
export function describeEachDialect(
  name: string,
  opts: { skip?: false | string },
  body: (dialect: TestDialect) => void,
): void;
export function describeEachDialect(
  name: string,
  a: { skip?: false | string } | ((dialect: TestDialect) => void),
  b?: (dialect: TestDialect) => void,
): void {
  const [opts, body] = typeof a === 'function' ? [{}, a] : [a, b!];
  for (const target of dialects) {
    describe(`${name} [${target.name}]`, { skip: opts.skip || target.skip }, () => body(target));
  }
}
