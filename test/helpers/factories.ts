// Factories: users with a key, and reports stored from a canned audit (no network, no fixture
// server) — for tests about what is done with reports rather than how a page is audited.
//
//   const alice = await buildUser(services, 'alice');
//   const r = await buildReport(services, alice, { path: '/pricing', privacy: 1 });
//
// buildReport goes through services.reports.create like any report; the services must have
// been built with testAnalyze (test/helpers/config.ts, as buildTestApp does), which answers
// URLs on `canned.test` and `*.canned.test` with cannedAudit() instead of fetching them.
import { readFileSync } from 'node:fs';
import { analyzeSnapshot } from '../../src/analyzer/index.js';
import type { AuditReport } from '../../src/analyzer/types.js';
import { snapshotFrom } from './checks.js';
import type { Services } from '../../src/services/types.js';
import type { StoredReport } from '../../src/services/reports/types.js';
import { randomId } from './services.js';

export const CANNED_HOST = 'canned.test';
/** true for the hosts whose pages are canned, not fetched */
export const isCannedHost = (hostname: string): boolean =>
  hostname === CANNED_HOST || hostname.endsWith(`.${CANNED_HOST}`);
/** the page the canned audit is made of: the "good" fixture page */
const CANNED_PAGE = readFileSync(new URL('../fixtures/pages/good/page.html', import.meta.url), 'utf8');
/** the date every canned audit carries */
export const CANNED_DATE = new Date('2026-01-15T10:00:00.000Z');

/**
 * The audit of the "good" fixture page as if fetched from `url` (status 200, no redirects,
 * robots.txt allowing all) — computed by the real checks and scoring, without I/O.
 */
export function cannedAudit(url = `http://${CANNED_HOST}/`): AuditReport {
  const origin = new URL(url).origin;
  const snapshot = snapshotFrom(CANNED_PAGE.replaceAll('{{origin}}', origin), {
    url,
    robotsTxt: 'User-agent: *\nAllow: /\n',
    notFoundStatus: 404,
    faviconStatus: 200,
  });
  return analyzeSnapshot(snapshot, {}, CANNED_DATE);
}

export interface TestUser {
  /** the user's own organisation: the owner the services take */
  id: number;
  /** the person (users.id) */
  userId: number;
  name: string;
  /** the user's first API key (secret) */
  key: string;
  /** `{ authorization: 'Bearer <key>' }` */
  auth: Record<string, string>;
}

/** A user with its first API key, created through the services. */
export async function buildUser(services: Services, name = `user-${randomId()}`): Promise<TestUser> {
  const { user, key, organization } = await services.users.create(name);
  // the services take the owner: the user's own organisation
  return {
    id: organization.id,
    userId: user.id,
    name: user.name,
    key: key.key,
    auth: { authorization: `Bearer ${key.key}` },
  };
}

export interface BuildReportInput {
  /** the page's path (default `/`) */
  path?: string;
  /** a project of its own: the page is on `<site>.canned.test` (default: canned.test) */
  site?: string;
  privacy?: 0 | 1 | 2;
  password?: string | null;
}

/** A report of `user` stored from the canned audit (through services.reports.create). */
export function buildReport(
  services: Services,
  user: { id: number },
  input: BuildReportInput = {},
): Promise<StoredReport> {
  const host = input.site ? `${input.site}.${CANNED_HOST}` : CANNED_HOST;
  const url = `http://${host}${input.path ?? '/'}`;
  return services.reports.create(user.id, {
    url,
    privacy: input.privacy ?? 0,
    password: input.password ?? null,
  });
}
