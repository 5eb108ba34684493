// Batches as the API shows them (snake_case, links on the public URL); the dashboard's JSON
// download and `pagegrade crawl --json` use the same shapes.
import type { Static } from 'typebox';
import type { BatchSummary } from '../../crawl/findings/index.js';
import type { BatchMode, BatchStatus } from '../../store/batches.repository.js';
import type { Privacy } from '../../store/reports.repository.js';
import type { Extractor } from '../../crawl/extract.js';
import type { Batch as BatchSchema, BatchSummary as SummarySchema, Failure } from './schemas.js';

/** A batch as the service gives it (the presenter's input). */
export interface Batch {
  id: number;
  userId: number;
  mode: BatchMode;
  url: string;
  status: BatchStatus;
  options: {
    maxPages: number;
    maxDepth: number;
    include: string[];
    exclude: string[];
    privacy: Privacy;
    /** every page is a rendered audit (docs/rendering.md) */
    render: boolean;
    /** custom extraction (docs/sites.md); absent in batches made before it */
    extractors?: Extractor[];
    /** links to other sites (and resources on other hosts) are checked (docs/sites.md "Links and resources checked") */
    checkExternal: boolean;
    /** at most this many URLs of other hosts checked in the batch */
    maxExternalChecks: number;
    /** at most this many of the site's own URLs checked in the batch (link targets outside the crawl, resources) */
    maxSiteChecks: number;
    /** the findings' thresholds (docs/sites.md "Every finding"): thin_content, near_duplicates (percent), deep_pages */
    thinContentWords: number;
    nearDuplicateThreshold: number;
    deepPageDepth: number;
  };
  progress: { discovered: number; audited: number; failed: number; skipped: number; remaining: number };
  /** the audited pages' reports: made by this batch (pages new to the project), or given a run */
  reports: { created: number; updated: number };
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** when done (or cancelled after some pages): the summary */
  summary: BatchSummary | null;
}

/** A page of a batch that failed or was skipped. */
export interface BatchFailure {
  url: string;
  state: 'failed' | 'skipped';
  statusCode: number | null;
  reason: string;
}

export function presentSummary(s: BatchSummary): Static<typeof SummarySchema> {
  return {
    pages: s.pages,
    bands: s.bands,
    histogram: s.histogram,
    average_score: s.averageScore,
    top_checks: s.topChecks,
    slowest: s.slowest,
    largest: s.largest,
    findings: s.findings,
  };
}

export function presentBatch(b: Batch, publicUrl: string): Static<typeof BatchSchema> {
  const self = `${publicUrl}/api/v1/batches/${b.id}`;
  return {
    id: b.id,
    url: b.url,
    mode: b.mode,
    status: b.status,
    options: {
      max_pages: b.options.maxPages,
      max_depth: b.options.maxDepth,
      include: b.options.include,
      exclude: b.options.exclude,
      privacy: b.options.privacy,
      render: b.options.render,
      extractors: b.options.extractors ?? [],
      check_external: b.options.checkExternal,
      max_external_checks: b.options.maxExternalChecks,
      max_site_checks: b.options.maxSiteChecks,
      thin_content_words: b.options.thinContentWords,
      near_duplicate_threshold: b.options.nearDuplicateThreshold,
      deep_page_depth: b.options.deepPageDepth,
    },
    progress: {
      discovered: b.progress.discovered,
      audited: b.progress.audited,
      failed: b.progress.failed + b.progress.skipped,
      remaining: b.progress.remaining,
    },
    reports: { created: b.reports.created, updated: b.reports.updated },
    error: b.error,
    created_at: b.createdAt,
    started_at: b.startedAt,
    finished_at: b.finishedAt,
    summary: b.summary ? presentSummary(b.summary) : null,
    links: {
      self,
      reports: `${publicUrl}/api/v1/reports?batch=${b.id}`,
      failures: `${self}/failures`,
      events: `${self}/events`,
      export_csv: `${self}/export?format=csv`,
      export_json: `${self}/export?format=json`,
    },
  };
}

export function presentFailure(f: BatchFailure): Static<typeof Failure> {
  return { url: f.url, state: f.state, status_code: f.statusCode, reason: f.reason };
}
