// Builds artifacts from an inline HTML string (no network), so check tests are one-liners:
//   runOn(title, '<title>Hello</title>')  → the CheckResult
import { buildArtifacts } from '../../src/analyzer/artifacts/index.js';
import type { Artifacts } from '../../src/analyzer/artifacts/types.js';
import { runCheck } from '../../src/analyzer/run-checks.js';
import type { CheckResult, ExtraResource, PageSnapshot, PageTimings } from '../../src/analyzer/types.js';
import type { CheckDefinition } from '../../src/analyzer/checks/types.js';

export interface SnapshotOptions {
  /** the page URL (default https://example.com/) */
  url?: string;
  /** where redirects ended (default: url) */
  finalUrl?: string;
  status?: number;
  httpVersion?: string;
  /** response headers (names lower-cased by the helper); default: content-type text/html; charset=utf-8 */
  headers?: Record<string, string>;
  redirects?: { url: string; status: number }[];
  timings?: Partial<PageTimings>;
  transferBytes?: number;
  charset?: PageSnapshot['charset'];
  /** robots.txt body (status 200) — or null/undefined for not fetched */
  robotsTxt?: string | null;
  robotsStatus?: number | null;
  robotsHeaders?: Record<string, string>;
  sitemapXml?: string | null;
  sitemapStatus?: number | null;
  sitemapUrl?: string;
  sitemapHeaders?: Record<string, string>;
  /** status of the random-path probe (undefined: not probed) */
  notFoundStatus?: number | null;
  /** status of /favicon.ico (undefined: not probed) */
  faviconStatus?: number | null;
  /** /llms.txt body (status 200 unless llmsStatus) — undefined for not fetched */
  llmsTxt?: string;
  llmsStatus?: number | null;
}

function resource(
  url: string,
  status: number | null,
  body: string,
  headers: Record<string, string> = {},
): ExtraResource {
  const r: ExtraResource = { url, finalUrl: url, status, headers, body, durationMs: 1 };
  if (status === null) r.error = 'fetch failed';
  return r;
}

export function snapshotFrom(html: string, o: SnapshotOptions = {}): PageSnapshot {
  const url = o.url ?? 'https://example.com/';
  const finalUrl = o.finalUrl ?? url;
  const origin = new URL(finalUrl).origin;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.headers ?? { 'content-type': 'text/html; charset=utf-8' })) {
    headers[k.toLowerCase()] = v;
  }
  const body = Buffer.from(html, 'utf8');
  const ct = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return {
    url,
    finalUrl,
    status: o.status ?? 200,
    httpVersion: o.httpVersion ?? '1.1',
    headers,
    redirects: o.redirects ?? [],
    timings: { dns_ms: 1, connect_ms: 1, tls_ms: null, ttfb_ms: 10, total_ms: 50, ...o.timings },
    transferBytes: o.transferBytes ?? body.length,
    body,
    text: html,
    charset: o.charset ?? {
      name: 'utf-8',
      source: headers['content-type']?.includes('charset') ? 'header' : 'default',
    },
    contentType: ct,
    robots:
      o.robotsTxt === undefined && o.robotsStatus === undefined
        ? null
        : resource(
            `${origin}/robots.txt`,
            o.robotsStatus === undefined ? 200 : o.robotsStatus,
            o.robotsTxt ?? '',
            {
              'content-type': 'text/plain',
              ...o.robotsHeaders,
            },
          ),
    sitemap:
      o.sitemapXml === undefined && o.sitemapStatus === undefined
        ? null
        : resource(
            o.sitemapUrl ?? `${origin}/sitemap.xml`,
            o.sitemapStatus === undefined ? 200 : o.sitemapStatus,
            o.sitemapXml ?? '',
            {
              'content-type': 'application/xml',
              ...o.sitemapHeaders,
            },
          ),
    notFoundProbe:
      o.notFoundStatus === undefined
        ? null
        : resource(`${origin}/pagegrade-404-probe-8f3a1c`, o.notFoundStatus, ''),
    favicon:
      o.faviconStatus === undefined
        ? null
        : resource(`${origin}/favicon.ico`, o.faviconStatus, '', { 'content-type': 'image/x-icon' }),
    llms:
      o.llmsTxt === undefined && o.llmsStatus === undefined
        ? null
        : resource(`${origin}/llms.txt`, o.llmsStatus === undefined ? 200 : o.llmsStatus, o.llmsTxt ?? '', {
            'content-type': 'text/markdown',
          }),
  };
}

export function artifactsFrom(html: string, o: SnapshotOptions = {}): Artifacts {
  return buildArtifacts(snapshotFrom(html, o));
}

/** Runs one check (through runCheck, so blocked/not-applicable/errors behave as in an audit). */
export function runOn(
  check: CheckDefinition,
  html: string,
  o: SnapshotOptions = {},
  thresholds: Partial<Record<string, number>> = {},
): CheckResult {
  return runCheck(check, artifactsFrom(html, o), thresholds);
}

/** A minimal valid page around a body fragment (and optional head content). */
export function page(body: string, head = '<title>Test page</title>', lang = 'en'): string {
  return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
}
