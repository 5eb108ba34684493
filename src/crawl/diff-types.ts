// The shapes of a crawl diff (src/crawl/diff.ts makes it; docs/sites.md, "Comparing crawls"):
// a page's digest, the two crawls, and the diff's stable, documented shape with its summary.
import type { Priority, ResultBand } from '../analyzer/types.js';
import type { Finding } from './findings/index.js';
import type { FindingPage } from './findings/types.js';

/** One page of a crawl as the diff reads it. */
export interface PageDigest {
  url: string;
  /** the HTTP status (null: no answer) */
  status: number | null;
  /** where the request was redirected to (null: not redirected) */
  redirect: string | null;
  /** the page was audited: title … failed are the audit's (null, false and '' otherwise) */
  audited: boolean;
  title: string | null;
  /** the canonical URL when it names another URL (the page is canonicalised to it) */
  canonical: string | null;
  noindex: boolean;
  band: ResultBand | null;
  score: number | null;
  /** the failed checks' ids, sorted, space-separated (one string a page: compact) */
  failed: string;
  /** audited: its custom extraction values' key (extractedKey); null: nothing to compare */
  extracted: string | null;
}

/** A failed check's title and priority, by id (both crawls' checks in one table). */
export type CheckTable = Map<string, { title: string; priority: Priority }>;

/** One crawl as the diff reads it. */
export interface CrawlSide {
  id: number;
  finishedAt: string | null;
  pages: PageDigest[];
  findings: Finding[];
}

/** What a page is, in a crawl (added, removed, and both sides of a change). */
export interface PageState {
  status: number | null;
  redirect: string | null;
  title: string | null;
  canonical: string | null;
  noindex: boolean;
  band: ResultBand | null;
  score: number | null;
}

export const CHANGE_FIELDS = [
  'status',
  'redirect',
  'title',
  'canonical',
  'noindex',
  'band',
  'score',
  'checks',
  'extracted',
] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

/** A custom extractor whose value on a page changed: the first match, every match (`all`), or null. */
export interface ExtractedChange {
  name: string;
  before: string | string[] | null;
  after: string | string[] | null;
}

export interface CheckRef {
  id: string;
  title: string;
  priority: Priority;
}

export interface PageChange {
  url: string;
  /** what changed, in CHANGE_FIELDS order */
  changes: ChangeField[];
  before: PageState;
  after: PageState;
  /** after's score minus before's (null unless audited in both) */
  scoreDelta: number | null;
  /** failed checks, audited in both: newly failed, and failed before but passed now */
  checks: { new: CheckRef[]; fixed: CheckRef[] };
  /** custom extraction, audited in both: each extractor of both crawls whose value changed */
  extracted: ExtractedChange[];
}

export const FINDING_STATES = ['new', 'persisting', 'fixed'] as const;

export interface FindingChange {
  id: string;
  title: string;
  priority: Priority;
  state: (typeof FINDING_STATES)[number];
  /** the pages concerned: in the later crawl (new, persisting), in the earlier one (fixed) */
  pages: FindingPage[];
  /** pages (with their detail) concerned now and not before */
  newPages: FindingPage[];
  /** pages (with their detail) concerned before and not now */
  fixedPages: FindingPage[];
}

export interface SiteScore {
  /** the mean of the audited pages' scores, rounded */
  score: number;
  band: ResultBand;
}

export const REGRESSION_CODES = [
  'site_band_dropped',
  'high_priority_finding',
  'pages_non_200',
  'pages_noindex',
  'pages_band_dropped',
] as const;

export interface RegressionReason {
  code: (typeof REGRESSION_CODES)[number];
  message: string;
  /** the finding (high_priority_finding) */
  finding?: string;
  /** the pages (pages_non_200, pages_noindex, pages_band_dropped, the finding's new pages) */
  count?: number;
}

export interface DiffSummary {
  pages: {
    before: number;
    after: number;
    added: number;
    removed: number;
    changed: number;
    /** pages audited in both crawls */
    compared: number;
    bandsDropped: number;
    bandsRaised: number;
    /** answered 200 before, anything else (or nothing) now */
    newlyNon200: number;
    newlyNoindex: number;
  };
  findings: { new: number; persisting: number; fixed: number };
  checks: { new: number; fixed: number };
  /** custom extraction: the extractors compared (those both crawls have), pages whose values changed */
  extracted: { names: string[]; changed: number };
  site: { before: SiteScore | null; after: SiteScore | null };
}

export interface CrawlDiff {
  /** the earlier crawl; null: none to compare with (the project's first crawl) */
  from: { id: number; finishedAt: string | null } | null;
  to: { id: number; finishedAt: string | null };
  summary: DiffSummary;
  regressed: boolean;
  reasons: RegressionReason[];
  pages: {
    added: (PageState & { url: string })[];
    removed: (PageState & { url: string })[];
    changed: PageChange[];
  };
  findings: FindingChange[];
}

export interface DiffOptions {
  /** more than this share of the pages audited in both crawls dropping a band is a regression */
  pageShare: number;
  /** the custom extractors compared, those both crawls have (comparedExtractors): the pages' keys' */
  extracted?: readonly string[];
}

export const DEFAULT_REGRESSION_PAGE_SHARE = 0.1;
