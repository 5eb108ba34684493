// Site-level findings and the batch summary (docs/sites.md), computed from the per-page facts
// (batch_pages): nothing is fetched again. One rule a file (<id>.ts); FINDINGS is their order
// in the results. A new finding: its file, its line here, its test.
import accessibility_common from './accessibility_common.js';
import ai_crawlers_blocked from './ai_crawlers_blocked.js';
import blocked_linked from './blocked_linked.js';
import broken_links from './broken_links.js';
import broken_resources from './broken_resources.js';
import broken_external_links from './broken_external_links.js';
import redirected_external_links from './redirected_external_links.js';
import blocked_external_links from './blocked_external_links.js';
import unchecked_links from './unchecked_links.js';
import canonical_chain from './canonical_chain.js';
import canonical_not_200 from './canonical_not_200.js';
import canonical_outside_sitemap from './canonical_outside_sitemap.js';
import canonical_template from './canonical_template.js';
import canonical_to_noindex from './canonical_to_noindex.js';
import canonical_to_redirect from './canonical_to_redirect.js';
import canonicalised from './canonicalised.js';
import { findingContext } from './context.js';
import duplicate_content from './duplicate_content.js';
import duplicate_descriptions from './duplicate_descriptions.js';
import duplicate_h1 from './duplicate_h1.js';
import duplicate_titles from './duplicate_titles.js';
import hreflang_invalid_code from './hreflang_invalid_code.js';
import hreflang_missing_self from './hreflang_missing_self.js';
import hreflang_missing_x_default from './hreflang_missing_x_default.js';
import hreflang_no_return from './hreflang_no_return.js';
import hreflang_to_noindex from './hreflang_to_noindex.js';
import hreflang_to_non_200 from './hreflang_to_non_200.js';
import hreflang_to_redirect from './hreflang_to_redirect.js';
import llms_txt_invalid from './llms_txt_invalid.js';
import missing_h1 from './missing_h1.js';
import multiple_h1 from './multiple_h1.js';
import near_duplicates from './near_duplicates.js';
import noindex_linked from './noindex_linked.js';
import not_in_sitemap from './not_in_sitemap.js';
import orphans from './orphans.js';
import redirected_links from './redirected_links.js';
import sitemap_blocked from './sitemap_blocked.js';
import sitemap_noindex from './sitemap_noindex.js';
import sitemap_non_200 from './sitemap_non_200.js';
import sitemap_non_canonical from './sitemap_non_canonical.js';
import sitemap_redirected from './sitemap_redirected.js';
import sitemap_too_large from './sitemap_too_large.js';
import thin_content from './thin_content.js';
// the link graph (issue 21 §1)
import dead_ends from './dead_ends.js';
import deep_pages from './deep_pages.js';
import http_links_on_https from './http_links_on_https.js';
import internal_nofollow from './internal_nofollow.js';
import redirect_chains from './redirect_chains.js';
import redirect_loops from './redirect_loops.js';
import single_inlink from './single_inlink.js';
import title_same_as_h1 from './title_same_as_h1.js';
import type { SitemapFile } from '../sitemap.js';
import type { FindingSettings } from '../defaults.js';
import type { Finding, FindingRule, LinkGraphFacts, PageForFindings } from './types.js';

export type { Finding, LinkGraphFacts, PageForFindings } from './types.js';
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
  // content (issue 21 §2)
  duplicate_content,
  near_duplicates,
  thin_content,
  missing_h1,
  multiple_h1,
  title_same_as_h1,
  duplicate_h1,
  // indexability (issue 21 §3)
  canonicalised,
  canonical_to_noindex,
  canonical_to_redirect,
  canonical_chain,
  canonical_outside_sitemap,
  hreflang_to_non_200,
  hreflang_to_noindex,
  hreflang_to_redirect,
  hreflang_missing_self,
  hreflang_missing_x_default,
  hreflang_invalid_code,
  sitemap_blocked,
  sitemap_non_canonical,
  sitemap_too_large,
  noindex_linked,
  blocked_linked,
  // AI readiness and accessibility (issue 21 §4–§5)
  accessibility_common,
  llms_txt_invalid,
  ai_crawlers_blocked,
  // the link graph (issue 21 §1: redirect chains and loops, link structure)
  redirect_chains,
  redirect_loops,
  http_links_on_https,
  internal_nofollow,
  dead_ends,
  deep_pages,
  single_inlink,
  // links and resources checked (issue 21 §1: the check step, services/batches/checks.ts)
  broken_resources,
  broken_external_links,
  redirected_external_links,
  blocked_external_links,
  unchecked_links,
];

export function computeFindings(
  pages: PageForFindings[],
  startUrl: string,
  graph?: LinkGraphFacts,
  sitemapFiles?: readonly SitemapFile[],
  settings?: FindingSettings,
): Finding[] {
  const ctx = {
    ...findingContext(pages, startUrl, settings),
    ...(graph ? { graph } : {}),
    ...(sitemapFiles ? { sitemapFiles } : {}),
  };
  return FINDINGS.map((rule) => {
    const found = rule.find(ctx);
    return {
      id: rule.id,
      priority: rule.priority,
      title: typeof rule.title === 'function' ? rule.title(ctx.settings) : rule.title,
      count: new Set(found.map((f) => f.url)).size,
      pages: found,
    };
  });
}
