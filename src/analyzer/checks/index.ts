// The registry: one import line per check, and one entry per check in the list below, in the
// order reports list them.
// Adding a check = its file in checks/<category>/<id>.ts, its test beside it, and its line in
// both places here; registry.test.ts keeps ids, folders, files and tests in step.
import type { CheckDefinition } from './types.js';

import title from './seo/title.js';
import metaDescription from './seo/meta_description.js';
import headings from './seo/headings.js';
import contentKeywords from './seo/content_keywords.js';
import imageKeywords from './seo/image_keywords.js';
import seoFriendlyUrl from './seo/seo_friendly_url.js';
import notFoundPage from './seo/not_found_page.js';
import robots from './seo/robots.js';
import noindex from './seo/noindex.js';
import inPageLinks from './seo/in_page_links.js';
import language from './seo/language.js';
import favicon from './seo/favicon.js';
import httpStatus from './seo/http_status.js';
import redirects from './seo/redirects.js';
import canonical from './seo/canonical.js';
import hreflang from './seo/hreflang.js';
import crawlableAnchors from './seo/crawlable_anchors.js';
import linkText from './seo/link_text.js';
import robotsTxtValid from './seo/robots_txt_valid.js';
import textCompression from './performance/text_compression.js';
import loadTime from './performance/load_time.js';
import pageSize from './performance/page_size.js';
import httpRequests from './performance/http_requests.js';
import imageFormat from './performance/image_format.js';
import deferJavascript from './performance/defer_javascript.js';
import domSize from './performance/dom_size.js';
import imageDimensions from './performance/image_dimensions.js';
import lazyImages from './performance/lazy_images.js';
import renderBlocking from './performance/render_blocking.js';
import cacheHeaders from './performance/cache_headers.js';
import httpsEncryption from './security/https_encryption.js';
import mixedContent from './security/mixed_content.js';
import serverSignature from './security/server_signature.js';
import unsafeCrossOriginLinks from './security/unsafe_cross_origin_links.js';
import plaintextEmail from './security/plaintext_email.js';
import hsts from './security/hsts.js';
import contentSecurityPolicy from './security/content_security_policy.js';
import xContentTypeOptions from './security/x_content_type_options.js';
import structuredData from './miscellaneous/structured_data.js';
import metaViewport from './miscellaneous/meta_viewport.js';
import charset from './miscellaneous/charset.js';
import sitemap from './miscellaneous/sitemap.js';
import social from './miscellaneous/social.js';
import contentLength from './miscellaneous/content_length.js';
import textHtmlRatio from './miscellaneous/text_html_ratio.js';
import inlineCss from './miscellaneous/inline_css.js';
import deprecatedHtml from './miscellaneous/deprecated_html.js';
import doctype from './miscellaneous/doctype.js';
import jsonLdValid from './miscellaneous/json_ld_valid.js';
import openGraph from './miscellaneous/open_graph.js';
import sitemapValid from './miscellaneous/sitemap_valid.js';
import llmsTxt from './ai/llms_txt.js';
import aiCrawlers from './ai/ai_crawlers.js';
import aiDirectives from './ai/ai_directives.js';

export const checks: readonly CheckDefinition[] = [
  title,
  metaDescription,
  headings,
  contentKeywords,
  imageKeywords,
  seoFriendlyUrl,
  notFoundPage,
  robots,
  noindex,
  inPageLinks,
  language,
  favicon,
  httpStatus,
  redirects,
  canonical,
  hreflang,
  crawlableAnchors,
  linkText,
  robotsTxtValid,
  textCompression,
  loadTime,
  pageSize,
  httpRequests,
  imageFormat,
  deferJavascript,
  domSize,
  imageDimensions,
  lazyImages,
  renderBlocking,
  cacheHeaders,
  httpsEncryption,
  mixedContent,
  serverSignature,
  unsafeCrossOriginLinks,
  plaintextEmail,
  hsts,
  contentSecurityPolicy,
  xContentTypeOptions,
  structuredData,
  metaViewport,
  charset,
  sitemap,
  social,
  contentLength,
  textHtmlRatio,
  inlineCss,
  deprecatedHtml,
  doctype,
  jsonLdValid,
  openGraph,
  sitemapValid,
  llmsTxt,
  aiCrawlers,
  aiDirectives,
];
