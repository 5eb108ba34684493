// The batches feature's types (docs/sites.md): a batch, its options and pages, the service.
import type { fetchSiteFile } from '../../analyzer/fetch/index.js';
import type { Page } from '../../contract/lists.js';
import type { Finding } from '../../crawl/findings/index.js';
import type { CrawlDiff } from '../../crawl/diff.js';
import type { Privacy, ReportSummary } from '../reports/types.js';
import type { Extractor } from '../../crawl/extract.js';
import type { Db } from '../../store/database.js';

export type { BatchSummary, Finding } from '../../crawl/findings/index.js';
// the stored values, declared with the batches' table; a failure and a page as the contract has them
export type { BatchMode } from '../../store/batches.repository.js';
import type { BatchMode } from '../../store/batches.repository.js';
export type { BatchFailure } from '../../contract/batches/present.js';
export type { BatchPageResult } from '../../contract/batches/export.js';
import type { BatchFailure } from '../../contract/batches/present.js';
import type { BatchPageResult } from '../../contract/batches/export.js';
import type { Batch as PresentedBatch } from '../../contract/batches/present.js';
import type { BatchLink, LinksQuery, PageLinkSummary } from './links.js';
export type { BatchLink, LinksQuery, PageLinkSummary } from './links.js';

/** A batch's options: those the API shows, and a list's URLs (normal form) in mode list. */
export type BatchOptions = PresentedBatch['options'] & {
  urls?: string[];
};

/** A batch as the service gives it: the presenter's input, with every option (a list's URLs too). */
export interface Batch extends PresentedBatch {
  options: BatchOptions;
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
  /** custom extraction (src/crawl/extract.ts): 422 under `extractors.N.…` when one is invalid */
  extractors?: Extractor[];
  /** links to other sites checked (docs/sites.md "Links and resources checked") */
  checkExternal?: boolean;
  maxExternalChecks?: number;
  /** the site's own URLs checked (link targets outside the crawl, resources): at most this many */
  maxSiteChecks?: number;
  /** the findings' thresholds (docs/sites.md "Every finding"): 422 naming the field out of its bounds */
  thinContentWords?: number;
  nearDuplicateThreshold?: number;
  deepPageDepth?: number;
}

/** The batch page's table of pages: its filters, order and page (the database does them). */
export interface BatchPagesQuery {
  search?: string;
  state?: BatchPageResult['state'];
  result?: 'good' | 'decent' | 'bad';
  sortBy?: 'found' | 'url' | 'score' | 'result' | 'status';
  sort?: 'asc' | 'desc';
  perPage?: number;
  page?: number;
}

/** The batch page: the batch, its findings, one page of its pages table. */
export interface BatchView {
  batch: Batch;
  /** an ended batch's stored findings; none while it runs (the page shows them once it ends) */
  findings: Finding[];
  table: Page<BatchPageResult>;
  /** the batch's pages that have a report (to offer deleting them with it) */
  reportsCount: number;
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
  /**
   * the batch page: one page of the pages table read by the database (a view of a
   * 100,000-page batch reads 25 rows, not 100,000), and an ended batch's stored findings
   */
  view(userId: number, id: number, query: BatchPagesQuery): Promise<BatchView>;
  /**
   * The batch compared with the project's previous finished crawl (as stored when it ended), or
   * with `from` (an ended batch of the same project; 422 under `from` otherwise); a batch still
   * running: 422 under `id` (docs/sites.md, "Comparing crawls")
   */
  diff(userId: number, id: number, from?: number): Promise<CrawlDiff>;
  /** the project's latest finished crawl compared with the one before it; null: none finished */
  latestDiff(userId: number, project: string): Promise<CrawlDiff | null>;
  /** job batch.discover */
  discover(batchId: number, signal?: AbortSignal): Promise<void>;
  /**
   * job batch.page. `fence`, from the job engine, is called in the transaction that records the
   * page's outcome: it throws when this run no longer holds the job (a worker cut off past its
   * lease), and nothing of this run is stored — the run that holds it records the page
   */
  processPage(
    batchId: number,
    pageId: number,
    signal?: AbortSignal,
    fence?: (trx: Db) => Promise<void>,
  ): Promise<void>;
  /**
   * job batch.page, its last attempt failed (not the page's fault: the database, a bug): the
   * page ends failed with the reason, so that the batch goes on and finishes
   */
  pageGaveUp(batchId: number, pageId: number, reason: string): Promise<void>;
  /**
   * job batch.end: the end of a batch whose pages are all done (findings, summary, issue
   * states, diff, batch.completed); nothing for a batch no longer running (idempotent)
   */
  end(batchId: number, signal?: AbortSignal): Promise<void>;
  /** job batch.end, its last attempt failed: a batch still running ends failed with the reason */
  endGaveUp(batchId: number, reason: string): Promise<void>;
  /**
   * job batch.discover, its last attempt failed (not the site's fault): a batch still queued
   * ends failed with the reason (batch.failed), so that it never stays queued
   */
  discoverGaveUp(batchId: number, reason: string): Promise<void>;
  /**
   * Calls `onChange` whenever the batch may have moved (a page done, discovery, cancel), in this
   * process or in a worker elsewhere (Redis or PostgreSQL LISTEN/NOTIFY): a hint to read it again. Returns the
   * unsubscribe function. Access is the caller's (it has read the batch first).
   */
  watch(batchId: number, onChange: () => void): () => void;
  /** the link graph (links.ts): one page of its links, filtered; 404 like `get` */
  links(
    userId: number,
    id: number,
    query: LinksQuery,
    page: { page: number; perPage: number },
  ): Promise<Page<BatchLink>>;
  /** every link that matches, in chunks (the CSV); the batch is checked before it resolves */
  linkChunks(userId: number, id: number, query: LinksQuery): Promise<AsyncIterable<BatchLink[]>>;
  /** one URL's inlinks, outlinks, depth and top anchors; 404 when the batch has no such URL */
  pageLinks(userId: number, id: number, url: string): Promise<PageLinkSummary>;
}

/** What fetches a site file (robots.txt, sitemaps); tests give the test DNS. */
export type FetchFileFn = typeof fetchSiteFile;
