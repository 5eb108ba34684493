// The batches feature's types (docs/sites.md): a batch, its options and pages, the service.
import type { fetchSiteFile } from '../../analyzer/fetch/index.js';
import type { Page } from '../../contract/lists.js';
import type { BatchSummary, Finding } from '../../crawl/findings/index.js';
import type { PageFacts } from '../../crawl/facts.js';
import type { Privacy, ReportSummary } from '../reports/types.js';
import type { BatchPageRow } from '../../store/batches.repository.js';

export type { BatchSummary, Finding } from '../../crawl/findings/index.js';
export type { PageFacts } from '../../crawl/facts.js';
export type BatchMode = 'sitemap' | 'crawl' | 'list';
export type BatchStatus = 'queued' | 'running' | 'done' | 'cancelled' | 'failed';

export interface BatchOptions {
  maxPages: number;
  maxDepth: number;
  include: string[];
  exclude: string[];
  privacy: Privacy;
  /** every page is a rendered audit (docs/rendering.md); kept in the batch's `render` column */
  render: boolean;
  /** mode list: the URLs (normal form) */
  urls?: string[];
}

export interface Batch {
  id: number;
  userId: number;
  mode: BatchMode;
  url: string;
  status: BatchStatus;
  options: BatchOptions;
  progress: { discovered: number; audited: number; failed: number; skipped: number; remaining: number };
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** when done (or cancelled after some pages): the summary */
  summary: BatchSummary | null;
}

export interface CreateBatchInput {
  url: string;
  mode: BatchMode;
  urls?: string[];
  maxPages?: number;
  maxDepth?: number;
  include?: string[];
  exclude?: string[];
  privacy?: Privacy;
  /** every page is a rendered audit; 422 under `render` when this process cannot render */
  render?: boolean;
}

export interface BatchFailure {
  url: string;
  state: 'failed' | 'skipped';
  statusCode: number | null;
  reason: string;
}

/** One page of a batch as exported (CSV, JSON) and shown (the batch page's table). */
export interface BatchPageResult {
  url: string;
  state: BatchPageRow['state'];
  depth: number;
  inSitemap: boolean;
  reportId: number | null;
  statusCode: number | null;
  finalUrl: string | null;
  error: string | null;
  facts: PageFacts | null;
}

export const DEFAULT_MAX_PAGES = 100;
export const DEFAULT_MAX_DEPTH = 10;
/** a URL list is at most this long (the API's schema says so too) */
export const MAX_LIST_URLS = 1000;

export interface BatchServices {
  create(userId: number, input: CreateBatchInput): Promise<Batch>;
  list(userId: number, page: { page: number; perPage: number }): Promise<Page<Batch>>;
  /** 404 when missing or another user's */
  get(userId: number, id: number): Promise<Batch>;
  /** a queued or running batch stops (pages in flight finish); a finished one is left as it is */
  cancel(userId: number, id: number): Promise<Batch>;
  /** cancels and removes the batch; its reports stay unless `reports` */
  delete(userId: number, id: number, options: { reports: boolean }): Promise<{ reportsDeleted: number }>;
  failures(userId: number, id: number, page: { page: number; perPage: number }): Promise<Page<BatchFailure>>;
  /** the batch's reports (GET /reports?batch=ID), in the order stored */
  reports(userId: number, id: number, page: { page: number; perPage: number }): Promise<Page<ReportSummary>>;
  /** every page with its facts, and the findings (exports, the batch page) */
  results(
    userId: number,
    id: number,
  ): Promise<{ batch: Batch; pages: BatchPageResult[]; findings: Finding[] }>;
  /** job batch.discover */
  discover(batchId: number, signal?: AbortSignal): Promise<void>;
  /** job batch.page */
  processPage(batchId: number, pageId: number, signal?: AbortSignal): Promise<void>;
  /**
   * job batch.page, its last attempt failed (not the page's fault: the database, a bug): the
   * page ends failed with the reason, so that the batch goes on and finishes
   */
  pageGaveUp(batchId: number, pageId: number, reason: string): Promise<void>;
}

/** What fetches a site file (robots.txt, sitemaps); tests give the test DNS. */
export type FetchFileFn = typeof fetchSiteFile;
