// The registry: one import line per check, and one entry per check in the list below, in the
// order reports list them (by category, high priority first within it is not required).
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
import textCompression from './performance/text_compression.js';
import loadTime from './performance/load_time.js';
import pageSize from './performance/page_size.js';
import httpRequests from './performance/http_requests.js';
import imageFormat from './performance/image_format.js';
import deferJavascript from './performance/defer_javascript.js';
import domSize from './performance/dom_size.js';
import httpsEncryption from './security/https_encryption.js';
import mixedContent from './security/mixed_content.js';
import serverSignature from './security/server_signature.js';
import unsafeCrossOriginLinks from './security/unsafe_cross_origin_links.js';
import plaintextEmail from './security/plaintext_email.js';
import structuredData from './miscellaneous/structured_data.js';
import metaViewport from './miscellaneous/meta_viewport.js';
import charset from './miscellaneous/charset.js';
import sitemap from './miscellaneous/sitemap.js';
import social from './miscellaneous/social.js';
import contentLength from './miscellaneous/content_length.js';
import textHtmlRatio from './miscellaneous/text_html_ratio.js';
import inlineCss from './miscellaneous/inline_css.js';
import deprecatedHtml from './miscellaneous/deprecated_html.js';

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
  textCompression,
  loadTime,
  pageSize,
  httpRequests,
  imageFormat,
  deferJavascript,
  domSize,
  httpsEncryption,
  mixedContent,
  serverSignature,
  unsafeCrossOriginLinks,
  plaintextEmail,
  structuredData,
  metaViewport,
  charset,
  sitemap,
  social,
  contentLength,
  textHtmlRatio,
  inlineCss,
  deprecatedHtml,
];
