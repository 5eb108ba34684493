// Site-level findings and the batch summary (docs/sites.md), computed from the per-page facts
// (batch_pages): nothing is fetched again. One rule a file (<id>.ts); FINDINGS is their order
// in the results. A new finding: its file, its line here, its test.
import broken_links from './broken_links.js';
import canonical_not_200 from './canonical_not_200.js';
import canonical_template from './canonical_template.js';
import { findingContext } from './context.js';
import duplicate_descriptions from './duplicate_descriptions.js';
import duplicate_titles from './duplicate_titles.js';
import hreflang_no_return from './hreflang_no_return.js';
import not_in_sitemap from './not_in_sitemap.js';
import orphans from './orphans.js';
import redirected_links from './redirected_links.js';
import sitemap_noindex from './sitemap_noindex.js';
import sitemap_non_200 from './sitemap_non_200.js';
import sitemap_redirected from './sitemap_redirected.js';
import type { Finding, FindingRule, PageForFindings } from './types.js';

export type { Finding, PageForFindings } from './types.js';
export { computeSummary, type BatchSummary } from './summary.js';

/** The site-level findings, in the order the results list them. */
export const FINDINGS: readonly FindingRule[] = [
  duplicate_titles,
  duplicate_descriptions,
  broken_links,
  redirected_links,
  orphans,
  not_in_sitemap,
  sitemap_noindex,
  sitemap_non_200,
  sitemap_redirected,
  canonical_template,
  canonical_not_200,
  hreflang_no_return,
];

export function computeFindings(pages: PageForFindings[], startUrl: string): Finding[] {
  const ctx = findingContext(pages, startUrl);
  return FINDINGS.map((rule) => {
    const found = rule.find(ctx);
    return {
      id: rule.id,
      priority: rule.priority,
      title: rule.title,
      count: new Set(found.map((f) => f.url)).size,
      pages: found,
    };
  });
}
