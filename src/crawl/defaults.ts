// The crawler's defaults that the configuration reads (kept free of imports, so loading the
// configuration never loads the crawler or the analyzer: the CLI starts light).

/** Query parameters dropped from crawled URLs unless PAGEGRADE_CRAWL_TRACKING_PARAMS says otherwise. */
export const DEFAULT_TRACKING_PARAMS = ['utm_*', 'gclid', 'fbclid', 'msclkid', 'mc_cid', 'mc_eid', '_ga'];

/** check_external: URLs of other hosts checked per batch, by default and at most (docs/sites.md "Links and resources checked") */
export const DEFAULT_MAX_EXTERNAL_CHECKS = 500;
export const MAX_EXTERNAL_CHECKS = 10_000;
