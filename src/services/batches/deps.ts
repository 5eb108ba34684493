// What the batches' parts share: the services' context, the settings read from the
// configuration once, and the small rules every part applies (a batch's options, not-found).
import { fetchSiteFile, type SiteHeaders } from '../../analyzer/fetch/index.js';
import type { ExtraResource } from '../../analyzer/types.js';
import { notFound } from '../../errors.js';
import type { BatchRow } from '../../store/batches.repository.js';
import { DEFAULT_TRACKING_PARAMS } from '../../crawl/url.js';
import {
  DEFAULT_FINDING_SETTINGS,
  DEFAULT_MAX_EXTERNAL_CHECKS,
  DEFAULT_MAX_SITE_CHECKS,
  type FindingSettings,
} from '../../crawl/defaults.js';
import type { ServiceContext } from '../shared/context.js';
import type { Services } from '../types.js';
import type { BatchOptions, FetchFileFn } from './types.js';

export interface BatchDeps {
  ctx: ServiceContext & { fetchFile?: FetchFileFn };
  webhooks: Pick<Services['webhooks'], 'emit'>;
  /** now, as stored */
  iso(): string;
  /** robots.txt, sitemaps and the other site files: the guarded fetcher (or the test seam) */
  fetchFile: FetchFileFn;
  /** the fetcher's options from the configuration (guard, timeout, user agent) */
  fetchOptions(): { allowPrivateHosts: boolean; timeoutMs: number; userAgent?: string };
  /** PAGEGRADE_BATCH_MAX_PAGES: the most a batch may ask for */
  maxPagesLimit: number;
  /** query parameters dropped from URLs (utm_*, …) */
  tracking: readonly string[];
  /** pages of one batch in flight at once (PAGEGRADE_CRAWL_CONCURRENCY) */
  perSite: number;
  /** the least delay between two requests to the site (PAGEGRADE_CRAWL_DELAY_MS) */
  minDelay: number;
  /** a batch's time budget (PAGEGRADE_BATCH_TIME_BUDGET_MS) */
  budgetMs: number;
}

export function batchDeps(
  ctx: ServiceContext & { fetchFile?: FetchFileFn },
  webhooks: Pick<Services['webhooks'], 'emit'>,
): BatchDeps {
  const { config } = ctx;
  return {
    ctx,
    webhooks,
    iso: () => ctx.now().toISOString(),
    fetchFile: ctx.fetchFile ?? fetchSiteFile,
    fetchOptions: () => ({
      allowPrivateHosts: config.allowPrivateHosts,
      timeoutMs: config.fetchTimeoutMs,
      ...(config.userAgent !== null ? { userAgent: config.userAgent } : {}),
    }),
    maxPagesLimit: config.batchMaxPages ?? 10_000,
    tracking: config.crawlTrackingParams ?? DEFAULT_TRACKING_PARAMS,
    perSite: config.crawlConcurrency ?? 2,
    minDelay: config.crawlDelayMs ?? 250,
    budgetMs: config.batchTimeBudgetMs ?? 3_600_000,
  };
}

/** One site file through the batch's fetcher (never throws: a failure is recorded in it). */
export function fetchText(
  d: BatchDeps,
  url: string,
  signal?: AbortSignal,
  siteHeaders?: SiteHeaders,
): Promise<ExtraResource> {
  return d.fetchFile(url, {
    ...d.fetchOptions(),
    ...(siteHeaders ? { siteHeaders } : {}),
    ...(signal ? { signal } : {}),
  });
}

export const batchNotFound = () => notFound('No such batch.');

/** A batch's options: its JSON text (the checks' defaults for a batch made before them), and `render` from its own column. */
export const optionsOf = (b: BatchRow): BatchOptions => {
  const stored = JSON.parse(b.options) as Omit<
    BatchOptions,
    'render' | 'checkExternal' | 'maxExternalChecks' | 'maxSiteChecks' | keyof FindingSettings
  > &
    Partial<
      Pick<BatchOptions, 'checkExternal' | 'maxExternalChecks' | 'maxSiteChecks' | keyof FindingSettings>
    >;
  return {
    ...stored,
    checkExternal: stored.checkExternal ?? false,
    maxExternalChecks: stored.maxExternalChecks ?? DEFAULT_MAX_EXTERNAL_CHECKS,
    // a batch made before the site's cap: the default (its checks had none)
    maxSiteChecks: stored.maxSiteChecks ?? DEFAULT_MAX_SITE_CHECKS,
    // a batch made before the thresholds were settings: the defaults it was judged by
    thinContentWords: stored.thinContentWords ?? DEFAULT_FINDING_SETTINGS.thinContentWords,
    nearDuplicateThreshold: stored.nearDuplicateThreshold ?? DEFAULT_FINDING_SETTINGS.nearDuplicateThreshold,
    deepPageDepth: stored.deepPageDepth ?? DEFAULT_FINDING_SETTINGS.deepPageDepth,
    render: b.render,
  };
};
