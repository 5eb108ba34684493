// The crawler's defaults that the configuration reads (kept free of imports, so loading the
// configuration never loads the crawler or the analyzer: the CLI starts light).

/** Query parameters dropped from crawled URLs unless PAGEGRADE_CRAWL_TRACKING_PARAMS says otherwise. */
export const DEFAULT_TRACKING_PARAMS = ['utm_*', 'gclid', 'fbclid', 'msclkid', 'mc_cid', 'mc_eid', '_ga'];

/** check_external: URLs of other hosts checked per batch, by default and at most (docs/sites.md "Links and resources checked") */
export const DEFAULT_MAX_EXTERNAL_CHECKS = 500;
export const MAX_EXTERNAL_CHECKS = 10_000;

/** The site's own URLs checked per batch (link targets outside the crawl, resources, fonts), by default and at most */
export const DEFAULT_MAX_SITE_CHECKS = 5_000;
export const MAX_SITE_CHECKS = 100_000;

/** a custom extractor's time on one page unless PAGEGRADE_EXTRACT_TIMEOUT_MS says otherwise (docs/sites.md "Custom extraction") */
export const DEFAULT_EXTRACT_TIMEOUT_MS = 5000;

/**
 * The content and link findings' thresholds, settings of a batch and a project (docs/sites.md
 * "Every finding"): their defaults and bounds. thin_content: main text under this many words;
 * near_duplicates: pages at least this similar, in percent; deep_pages: crawl depth over this.
 */
export const FINDING_SETTINGS = {
  thin_content_words: { default: 200, min: 1, max: 10_000 },
  near_duplicate_threshold: { default: 90, min: 50, max: 99 },
  deep_page_depth: { default: 4, min: 1, max: 100 },
} as const;

export type FindingSettingName = keyof typeof FINDING_SETTINGS;

/** The thresholds a batch's findings apply (the rules read them from their context). */
export interface FindingSettings {
  thinContentWords: number;
  nearDuplicateThreshold: number;
  deepPageDepth: number;
}

export const DEFAULT_FINDING_SETTINGS: FindingSettings = {
  thinContentWords: FINDING_SETTINGS.thin_content_words.default,
  nearDuplicateThreshold: FINDING_SETTINGS.near_duplicate_threshold.default,
  deepPageDepth: FINDING_SETTINGS.deep_page_depth.default,
};
