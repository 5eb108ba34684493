// The audit engine's public shapes: what analyze() returns (the API's report object without
// the fields only a stored report has), what the fetcher hands to the artifacts, and what a
// check is. Every part of Pagegrade (API, report page, CLI) reads these types.
import type { Artifacts } from './artifacts/types.js';

import type { RenderInfo, RenderOutcome } from './rendered.js';

export const CATEGORIES = ['seo', 'performance', 'security', 'miscellaneous'] as const;
export type Category = (typeof CATEGORIES)[number];

export const PRIORITIES = ['high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const RESULTS = ['good', 'decent', 'bad'] as const;
export type ResultBand = (typeof RESULTS)[number];

/** A check's details come in a small fixed set of shapes; renderers switch on `type` only. */
export type Details =
  | { type: 'list'; items: string[]; truncated?: number }
  | { type: 'table'; headings: string[]; rows: (string | number | boolean | null)[][]; truncated?: number }
  | { type: 'text'; text: string };

export type CheckValue = string | number | boolean | null | string[];

/** One check's outcome as stored and served (`results[id]`). */
export interface CheckResult {
  id: string;
  category: Category;
  priority: Priority;
  /** true passed, false failed, null not judged (inconclusive, not applicable, or the check erred) */
  passed: boolean | null;
  /** the check's title for its state (the pass title when passed, the failure title otherwise) */
  title: string;
  message: string;
  value?: CheckValue;
  details?: Details;
  /** how to fix it (always present; the page shows it for failed checks) */
  how_to_fix: string;
  /** why the check was not judged, when passed is null */
  inconclusive_reason?: 'blocked' | 'not_applicable' | 'no_data' | 'error';
}

export interface CategoryScore {
  score: number;
  passed: number;
  failed: number;
}

export interface PageTimings {
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  ttfb_ms: number | null;
  total_ms: number;
}

export interface PageInfo {
  status: number;
  http_version: string;
  redirects: { url: string; status: number }[];
  timings: PageTimings;
  sizes: { transfer_bytes: number; html_bytes: number };
  /** counts of subresources referenced by the page, by kind (scripts, stylesheets, images, iframes, media, fonts…) */
  requests: Record<string, number>;
}

/** What analyze() returns; the stored report adds id, privacy, has_password, links, created_at, updated_at. */
export interface AuditReport {
  url: string;
  final_url: string;
  project: string;
  result: ResultBand;
  score: number;
  generated_at: string;
  categories: Record<Category, CategoryScore>;
  results: Record<string, CheckResult>;
  page: PageInfo;
  /** rendered audits only (render=1): mode, timings, raw → rendered differences (docs/rendering.md) */
  render?: RenderInfo;
}

// ---------------------------------------------------------------------------------------
// Fetching

/** A resource fetched besides the page (robots.txt, sitemap, 404 probe, favicon). */
export interface ExtraResource {
  url: string;
  /** final URL after redirects */
  finalUrl: string;
  /** null when the fetch failed (see error) */
  status: number | null;
  /** lower-cased header names; repeated headers joined with ", " (set-cookie with "\n") */
  headers: Record<string, string>;
  /** decoded text, capped (robots 512 KB, sitemap 5 MB, 404 probe 256 KB); favicon: empty */
  body: string;
  /** the fetch error's message, when it failed or was skipped for time */
  error?: string;
  /** the body was cut at its cap (the fetcher stops reading there) */
  truncated?: boolean;
  durationMs: number;
}

/** Everything the fetcher learned; the artifacts are computed from this and nothing else. */
export interface PageSnapshot {
  /** the URL as requested (normalised) */
  url: string;
  finalUrl: string;
  status: number;
  /** "1.1", "2" … */
  httpVersion: string;
  /** lower-cased header names of the final response; repeated headers joined with ", " (set-cookie with "\n") */
  headers: Record<string, string>;
  redirects: { url: string; status: number }[];
  timings: PageTimings;
  /** bytes on the wire (compressed) and after decoding */
  transferBytes: number;
  body: Buffer;
  /** the body decoded with the detected charset */
  text: string;
  charset: { name: string; source: 'header' | 'bom' | 'meta' | 'default' };
  /** the media type of the content-type header, lower-cased, e.g. "text/html" */
  contentType: string;
  robots: ExtraResource | null;
  sitemap: ExtraResource | null;
  notFoundProbe: ExtraResource | null;
  /** /favicon.ico (headers only); the artifacts ignore it when the page declares an icon */
  favicon: ExtraResource | null;
}

export type FetchErrorCode =
  | 'invalid_url'
  | 'blocked_address'
  | 'dns'
  | 'refused'
  | 'connection'
  | 'tls'
  | 'timeout'
  | 'not_html'
  | 'too_large'
  | 'too_many_redirects'
  | 'redirect_refused';

/** The page could not be fetched: the API answers 422 under errors.url with `message`; the CLI exits 2. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FetchError';
  }
}

export interface FetchOptions {
  /** allow loopback/private/special-purpose addresses (PAGEGRADE_ALLOW_PRIVATE_HOSTS=1) */
  allowPrivateHosts?: boolean;
  /** the whole audit's time budget, ms (default 10000) */
  timeoutMs?: number;
  /** the page's size limit, bytes (default 5 MB) */
  maxBytes?: number;
  userAgent?: string;
  /** DNS lookup to use instead of dns.lookup (tests) — same signature as dns.lookup with {all: true} */
  lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  signal?: AbortSignal;
  /**
   * The site files, fetched once by the caller (a batch audits many pages of one site,
   * docs/sites.md): when given, only the page is requested and these stand in for robots.txt,
   * the sitemap, the 404 probe and the favicon.
   */
  siteFiles?: SiteFiles;
  /**
   * Asked before the page's redirect to `url` is followed: null follows it, a reason stops the
   * fetch there (FetchError `redirect_refused` with the reason) — a crawl's robots.txt and
   * same-site rules for redirect targets (docs/sites.md).
   */
  redirectCheck?: (url: string) => string | null;
}

/** robots.txt, the sitemap, the 404 probe and the favicon of a site, as the fetcher records them. */
export interface SiteFiles {
  robots: ExtraResource | null;
  sitemap: ExtraResource | null;
  notFoundProbe: ExtraResource | null;
  favicon: ExtraResource | null;
}

export interface AnalyzeOptions extends FetchOptions {
  /** overrides of the check thresholds (see checks' README table) */
  thresholds?: Partial<Record<string, number>>;
  /** renders the fetched page in a browser (rendered audits); absent: the raw audit only */
  render?: (snapshot: PageSnapshot) => Promise<RenderOutcome>;
  /**
   * Called with the page's artifacts before the checks run (the batch crawler reads the links,
   * canonical, hreflang, title and description from them: one parse per page).
   */
  onArtifacts?: (artifacts: Artifacts) => void;
  /**
   * A rendered audit whose render completed: called with the rendered DOM's artifacts (the
   * crawler of a rendered batch follows the links JavaScript made: docs/rendering.md).
   */
  onRenderedArtifacts?: (artifacts: Artifacts) => void;
}
