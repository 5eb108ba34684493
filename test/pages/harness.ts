// The pages' test harness: the real app (buildApp) over the real services on a real SQLite
// file, with the real analyzer fetching fixture pages from 127.0.0.1 (host names *.test
// resolve to 127.0.0.1, so tests can have several projects). A tiny cookie jar lets inject
// requests act like one browser.
import pino from 'pino';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildApp, type App } from '../../src/app.js';
import { analyze } from '../../src/analyzer/index.js';
import { createServices } from '../../src/services/index.js';
import type { AnalyzeFn, Services, StoredReport } from '../../src/services/types.js';
import { openTestDb, sqliteDialect, type TestDb } from '../helpers/db.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

export const XSS_TITLE = '<script>alert(1)</script>';
export const XSS_ATTR = `"'><img src=x onerror=alert(2)>`;

const testLookup = async (hostname: string) => {
  if (hostname.endsWith('.test') || hostname === '127.0.0.1' || hostname === 'localhost') {
    return [{ address: '127.0.0.1', family: 4 }];
  }
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

const testAnalyze: AnalyzeFn = (url, options) => analyze(url, { ...options, lookup: testLookup });

/** Fixture pages: `/` good, `/bad` poor, `/xss` hostile text in title/attributes, `/json` not HTML. */
function fixtureRoutes(f: FixtureServer): void {
  f.route('/', html(goodPage(f.origin)));
  f.route('/bad', html('<html><body><p>hi</p><img src="a.png"><img src="b.png"></body></html>'));
  f.route(
    '/xss',
    html(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${XSS_TITLE.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</title>
<meta name="description" content="${XSS_ATTR.replace(/"/g, '&quot;')}">
</head><body><h1>${XSS_ATTR.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</h1>
<img src="x.png" alt="x"><img src="${encodeURI('"><svg onload=alert(3)>')}.png">
<p>${'A page about scripts and alerts. '.repeat(10)}</p></body></html>`),
  );
  f.route('/json', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
  f.route('/robots.txt', {
    status: 200,
    headers: { 'content-type': 'text/plain' },
    body: 'User-agent: *\nAllow: /\n',
  });
}

export interface User {
  id: number;
  key: string;
}

export interface PagesHarness {
  app: App;
  services: Services;
  fixture: FixtureServer;
  db: TestDb;
  /** `http://<name>.test:<port>` on the fixture server */
  site(name: string): string;
  alice: User;
  bob: User;
  /** a report stored through the services (the real analyzer) */
  report(
    user: User,
    path?: string,
    privacy?: 0 | 1 | 2,
    password?: string,
    host?: string,
  ): Promise<StoredReport>;
  close(): Promise<void>;
}

export async function createPagesHarness(publicUrl = 'http://pagegrade.test:8080'): Promise<PagesHarness> {
  const db = await openTestDb(sqliteDialect);
  const fixture = await startFixtureServer();
  fixtureRoutes(fixture);
  const services = createServices({
    db: db.db,
    analyze: testAnalyze,
    config: {
      allowPrivateHosts: true,
      fetchTimeoutMs: 5000,
      fetchMaxBytes: 5 * 1024 * 1024,
      userAgent: null,
      sessionSecret: null,
      bootstrapKey: null,
    },
  });
  const app = await buildApp(
    { publicUrl, rateLimit: 0, logLevel: 'silent' },
    {
      services,
      healthCheck: async () => {
        await sql`select 1`.execute(db.db);
      },
      logger: pino({ level: process.env.PAGES_TEST_LOG ?? 'silent' }),
    },
  );
  await app.ready();
  const a = await services.users.create('alice');
  const b = await services.users.create('bob');
  const site = (name: string) => `http://${name}.test:${fixture.port}`;
  return {
    app,
    services,
    fixture,
    db,
    site,
    alice: { id: a.user.id, key: a.key.key },
    bob: { id: b.user.id, key: b.key.key },
    report: (user, path = '/', privacy = 0, password, host = 'site') =>
      services.reports.create(user.id, { url: `${site(host)}${path}`, privacy, password: password ?? null }),
    async close() {
      await app.close();
      await fixture.close();
      await db.cleanup();
    },
  };
}

/** One browser's cookies for inject requests. */
export class Browser {
  readonly cookies = new Map<string, { value: string; path: string }>();
  constructor(
    private readonly app: App,
    readonly ip = '127.0.0.1',
  ) {}

  cookieHeader(url: string): string {
    const path = url.split('?')[0]!;
    return [...this.cookies]
      .filter(
        ([, c]) =>
          path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/',
      )
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
  }

  async request(opts: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
    const cookie = this.cookieHeader(opts.url);
    const res = await this.app.inject({
      remoteAddress: this.ip,
      ...opts,
      headers: { ...(cookie ? { cookie } : {}), ...(opts.headers ?? {}) },
    });
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attrs.some((a) => /^max-age=0$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
    return res;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  /** GETs `url` and returns the CSRF token of its first form. */
  async csrf(url: string): Promise<string> {
    const res = await this.get(url);
    const m = /name="_csrf" value="([^"]+)"/.exec(res.body);
    if (!m) throw new Error(`no CSRF token on ${url} (${res.statusCode})`);
    return m[1]!;
  }

  async login(key: string): Promise<LightMyRequestResponse> {
    const token = await this.csrf('/login');
    return this.post('/login', { _csrf: token, key, next: '/dashboard' });
  }
}

export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};
