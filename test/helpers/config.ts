// The services' configuration and the analyzer as tests use them: one copy instead of one per
// test file. Host names `*.test` resolve to 127.0.0.1 (so tests can have several projects on one
// fixture server); any other name fails as an unknown host — tests never reach the internet.
// URLs on `canned.test` (and `*.canned.test`) are not fetched at all: they answer the canned audit of factories.ts.
import { analyze, fetchSiteFile } from '../../src/analyzer/index.js';
import type { AnalyzeFn, ServicesConfig } from '../../src/services/shared/config.js';
import { cannedAudit, isCannedHost } from './factories.js';

/** The services' configuration for tests; override what a test is about. */
export function testServicesConfig(overrides: Partial<ServicesConfig> = {}): ServicesConfig {
  return {
    allowPrivateHosts: true,
    fetchTimeoutMs: 5000,
    fetchMaxBytes: 5_000_000,
    userAgent: null,
    sessionSecret: null,
    bootstrapKey: null,
    ...overrides,
  };
}

/** DNS for tests: `*.test`, localhost and 127.0.0.1 are 127.0.0.1; anything else is unknown. */
export const testLookup = async (hostname: string): Promise<{ address: string; family: number }[]> => {
  if (hostname.endsWith('.test') || hostname === '127.0.0.1' || hostname === 'localhost') {
    return [{ address: '127.0.0.1', family: 4 }];
  }
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** The real analyzer with testLookup; `http://canned.test/…` gives the canned audit (no I/O). */
export const testAnalyze: AnalyzeFn = async (url, options) => {
  if (isCannedHost(new URL(url).hostname)) return cannedAudit(url);
  return analyze(url, { ...options, lookup: testLookup });
};

/** The batches' site-file fetcher (robots.txt, sitemaps) with testLookup. */
export const testFetchFile: typeof fetchSiteFile = (url, options = {}) =>
  fetchSiteFile(url, { ...options, lookup: testLookup });
