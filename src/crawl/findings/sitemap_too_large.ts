import type { FindingRule } from './types.js';

/** the sitemap protocol's limits for one file (sitemaps.org): entries, and bytes uncompressed */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * Sitemap files over the protocol's limits: more than 50,000 entries or 50 MB uncompressed
 * (search engines read no further, or refuse the file). A file over the fetcher's cap (5 MB) was
 * read up to the cap only (its `bytes` are the cap): that is itself the finding (Pagegrade could not read it whole). Each
 * file the batch's discovery read (kept on the batch: src/crawl/sitemap.ts SitemapFile) is listed
 * by its URL, the detail with its entries and size; a batch made before they were kept finds none.
 */
const rule: FindingRule = {
  id: 'sitemap_too_large',
  priority: 'medium',
  title: 'Sitemap files over 50,000 URLs or 50 MB',
  find(ctx) {
    return (ctx.sitemapFiles ?? [])
      .filter((f) => f.urls > SITEMAP_MAX_URLS || f.bytes > SITEMAP_MAX_BYTES || f.truncated === true)
      .map((f) => ({
        url: f.url,
        detail: f.truncated
          ? `over ${mb(f.bytes)} uncompressed, the most Pagegrade reads of a sitemap: read up to there only (${f.urls.toLocaleString('en-US')} URLs in it)`
          : `${f.urls.toLocaleString('en-US')} URLs, ${mb(f.bytes)} uncompressed (the limits: 50,000 URLs, 50 MB)`,
      }));
  },
};

export default rule;
