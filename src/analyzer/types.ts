// The audit engine's public shapes: what analyze() returns (the API's report object without
// the fields only a stored report has), what the fetcher hands to the artifacts, and what a
// check is. Every part of Pagegrade (API, report page, CLI) reads these types.
// The ground floor: it imports only the snapshot's shapes (snapshot.ts) and the artifacts'
// types (artifacts/types.ts, which build on snapshot.ts alone) — nothing that imports it back
// (test/analyzer/layers.test.ts).
import type { Artifacts } from './artifacts/types.js';
import type { ExtraResource, PageSnapshot, PageTimings } from './snapshot.js';

export type { ExtraResource, PageSnapshot, PageTimings } from './snapshot.js';

export const CATEGORIES = ['seo', 'performance', 'security', 'miscellaneous', 'accessibility', 'ai'] as const;
export type Category = (typeof CATEGORIES)[number];
/**
 * The categories added after reports were first stored (issue 21): a report stored before them
 * has no entry for them in `categories` (the API leaves them out; renderers skip them).
 */
export const LATER_CATEGORIES = ['accessibility', 'ai'] as const satisfies readonly Category[];

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
  /** why the check was not judged, when passed is null (ignored: a project's ignore rule, docs/sites.md) */
  inconclusive_reason?: 'blocked' | 'not_applicable' | 'no_data' | 'error' | 'ignored';
}

export interface CategoryScore {
  score: number;
  passed: number;
  failed: number;
  /**
   * Why the category is not judged on this report (its score is then 0 and means nothing):
   * `needs render=1` for accessibility in a raw audit (docs/rendering.md).
   */
  not_judged?: string;
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
// Rendered audits (the browser side is src/render; the pure part src/analyzer/rendered.ts)

export type AxeImpact = 'critical' | 'serious' | 'moderate' | 'minor';
export const AXE_IMPACTS: readonly AxeImpact[] = ['critical', 'serious', 'moderate', 'minor'];

export interface AxeViolation {
  id: string;
  impact: AxeImpact;
  help: string;
  help_url: string;
  /** CSS selectors of the elements concerned (at most 5) */
  targets: string[];
  /** how many elements in all */
  nodes: number;
}

/** What one browser visit learned; `html` is the DOM serialised after load. */
export interface RenderSuccess {
  ok: true;
  html: string;
  finalUrl: string;
  timings: { queue_ms: number; load_ms: number; idle_ms: number; axe_ms: number; total_ms: number };
  requests: number;
  bytes: number;
  refused: { url: string; reason: string }[];
  console_errors: string[];
  failed_requests: { url: string; status: number | null; reason: string }[];
  lab: { lcp_ms: number | null; cls: number | null; tbt_ms: number | null };
  axe: AxeViolation[] | null;
  /** the axe-core rules that passed (applied to some element and found nothing wrong); null when axe did not run */
  axe_passes?: AxePass[] | null;
}

/** An axe-core rule that passed, with the impact axe gives the rule (its priority when scored). */
export interface AxePass {
  id: string;
  impact: AxeImpact;
  help: string;
}

export interface RenderFailure {
  ok: false;
  /** why the rendered audit is inconclusive (crash, timeout, launch failure…) */
  reason: string;
  timings: { queue_ms: number; total_ms: number };
}

export type RenderOutcome = RenderSuccess | RenderFailure;

/** One check whose outcome JavaScript changed. */
export interface RenderDifference {
  id: string;
  raw: { passed: boolean | null; title: string; message: string };
  rendered: { passed: boolean | null; title: string; message: string };
}

/** The report's `render` object (absent from raw audits). */
export interface RenderInfo {
  mode: 'rendered';
  /** completed: `results` are the rendered ones; inconclusive: `results` are the raw ones, `reason` says why */
  status: 'completed' | 'inconclusive';
  reason?: string;
  timings: Partial<RenderSuccess['timings']> & { queue_ms: number; total_ms: number };
  /** requests the page made through the guarded network, and the bytes they received */
  requests: number;
  bytes: number;
  /** requests refused (address guard, budgets, WebSockets…), at most 20 listed */
  refused: { url: string; reason: string }[];
  refused_count: number;
  /** the raw HTML's audit, summarised (its results are where `differences` say they differ) */
  raw: Pick<AuditReport, 'result' | 'score' | 'categories'>;
  /** checks whose outcome differs between raw and rendered (passed changed), in registry order */
  differences: RenderDifference[];
  /** counts in the raw HTML and in the rendered DOM */
  dom: Record<'elements' | 'links' | 'words' | 'images' | 'headings', { raw: number; rendered: number }>;
  /** ids of the checks only a browser judges (in `results`, scored) */
  browser_checks: string[];
  /** axe-core violations by impact (scored as the accessibility category's checks, docs/rendering.md); null when not run */
  accessibility: { counts: Record<AxeImpact, number>; violations: AxeViolation[] } | null;
}

// ---------------------------------------------------------------------------------------
// Fetching (the snapshot's own shapes are in snapshot.ts, below the artifacts)

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
  | 'redirect_loop'
  | 'redirect_refused';

/** The page could not be fetched: the API answers 422 under errors.url with `message`; the CLI exits 2. */
export class FetchError extends Error {
  /** a redirect loop or too many redirects: the URLs the request went through, in order */
  readonly redirectPath?: string[];
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    options?: { cause?: unknown; redirectPath?: string[] },
  ) {
    super(message, options);
    this.name = 'FetchError';
    if (options?.redirectPath) this.redirectPath = options.redirectPath;
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
  /**
   * Request headers sent only to one origin (a project's crawl request settings: its headers,
   * cookies and basic auth; fetch/site-headers.ts): added to the page's and the site files'
   * requests on that origin, per hop, never to a redirect's other origin.
   */
  siteHeaders?: SiteHeaders;
  /**
   * Connections kept between fetches (createConnectionPool, fetch/pool.ts; a batch's crawl):
   * the page's requests reuse them, each new one opened through the address guard; without it
   * each fetch opens its own and closes them at its end.
   */
  connections?: KeptConnections;
}

/** A pool of kept connections (fetch/pool.ts ConnectionPool): closed by whoever made it. */
export interface KeptConnections {
  close(): Promise<void>;
}

/** robots.txt, the sitemap, the 404 probe and the favicon of a site, as the fetcher records them. */
export interface SiteFiles {
  robots: ExtraResource | null;
  sitemap: ExtraResource | null;
  notFoundProbe: ExtraResource | null;
  favicon: ExtraResource | null;
  /** /llms.txt (the AI readiness category); absent in site files stored before it was fetched */
  llms?: ExtraResource | null;
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

/**
 * Headers sent only to `origin` (names in lower case): a project's crawl request settings
 * (fetch/site-headers.ts applies them, per hop, to that origin alone).
 */
export interface SiteHeaders {
  /** `URL.origin` of the site: `https://staging.example.com` */
  origin: string;
  headers: Record<string, string>;
}
