// The pages' test harness: the test kit's app (test/helpers/app.ts: the real app over the real
// services on a real database of the given dialect, with the real analyzer fetching fixture
// pages from 127.0.0.1) plus two users, a hostile page (/xss) and a report helper. The cookie
// jar that lets inject requests act like one browser is test/helpers/browser.ts.
import type { StoredReport } from '../../src/services/reports/types.js';
import { buildTestApp, type TestApp } from './app.js';
import { sqliteDialect, type TestDb, type TestDialect } from './db.js';
import { html, type FixtureServer } from './fixture-server.js';
import { buildUser } from './factories.js';

export { Browser } from './browser.js';

export const XSS_TITLE = '<script>alert(1)</script>';
export const XSS_ATTR = `"'><img src=x onerror=alert(2)>`;

/** The pages' fixtures on top of the kit's: `/bad` with images, `/xss` hostile text in title/attributes. */
function pagesRoutes(f: FixtureServer): void {
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
}

export interface User {
  id: number;
  key: string;
}

export interface PagesHarness extends TestApp {
  db: TestDb;
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
}

export async function createPagesHarness(
  dialect: TestDialect = sqliteDialect,
  publicUrl = 'http://pagegrade.test:8080',
): Promise<PagesHarness> {
  const t = await buildTestApp(dialect, {
    publicUrl,
    logLevel: process.env.PAGES_TEST_LOG ?? 'silent',
    routes: pagesRoutes,
  });
  const alice = await buildUser(t.services, 'alice');
  const bob = await buildUser(t.services, 'bob');
  return {
    ...t,
    db: t.database,
    alice,
    bob,
    report: (user, path = '/', privacy = 0, password, host = 'site') =>
      t.services.reports.create(user.id, {
        url: `${t.site(host)}${path}`,
        privacy,
        password: password ?? null,
      }),
  };
}

export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};
