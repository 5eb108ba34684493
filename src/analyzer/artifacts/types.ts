// The artifacts: everything the checks judge, gathered once per audit. The HTML facts come from
// ONE streaming pass of htmlparser2's Parser (no DOM); the rest comes straight from the
// PageSnapshot (headers, status, timings, robots.txt, sitemap, probes). Checks only read this.
import type { ExtraResource, PageSnapshot } from '../snapshot.js';

/** A <meta> tag. Names are lower-cased; values are as written (entities decoded). */
export interface MetaTag {
  /** `name` attribute, lower-cased (null when absent) */
  name: string | null;
  /** `property` attribute, lower-cased (Open Graph) */
  property: string | null;
  /** `http-equiv` attribute, lower-cased */
  httpEquiv: string | null;
  /** `itemprop` attribute */
  itemprop: string | null;
  content: string | null;
  /** `charset` attribute as written */
  charset: string | null;
  inHead: boolean;
}

/** A <link> element. */
export interface LinkTag {
  /** rel tokens, lower-cased */
  rel: string[];
  /** href as written (null when absent) */
  href: string | null;
  /** href resolved against the base URL (null when absent or not a valid URL) */
  url: string | null;
  hreflang: string | null;
  type: string | null;
  sizes: string | null;
  /** `as` attribute, lower-cased (preload) */
  as: string | null;
  media: string | null;
  inHead: boolean;
}

export interface Heading {
  level: 1 | 2 | 3 | 4 | 5 | 6;
  /** text content, whitespace collapsed and trimmed (img alt included) */
  text: string;
}

/** An <a> element (and <area>: tag tells). */
export interface Anchor {
  tag: 'a' | 'area';
  /** href as written; null when the attribute is absent */
  href: string | null;
  /** resolved URL (null when absent, empty-invalid or unparsable); javascript:/mailto: stay as resolved */
  url: string | null;
  /** text content with img alt, whitespace collapsed and trimmed */
  text: string;
  /** rel tokens, lower-cased */
  rel: string[];
  target: string | null;
  title: string | null;
  ariaLabel: string | null;
  /** `role` attribute, lower-cased */
  role: string | null;
  /** `onclick` present */
  hasOnclick: boolean;
  /** the element's own `lang` attribute (null when absent; ancestors are not consulted) */
  lang: string | null;
  /** has an `id` or `name` attribute (a fragment target, e.g. `<a name="top">`) */
  named: boolean;
  /** http(s) link to the page's own host (www. ignored): true; other http(s) host: false; other schemes: null */
  internal: boolean | null;
  /** protocol of the resolved URL (`https:`, `mailto:`, `javascript:`…) or null */
  protocol: string | null;
  /** its text is code: the link is inside a `<code>` element, or all its text is (`<a><code>details</code></a>`) */
  codeText: boolean;
  /** `aria-current` is set (and not "false"): the link marks the current page or step */
  current: boolean;
}

export interface ImageTag {
  /** src as written (null when absent) */
  src: string | null;
  /** resolved src (null when absent or unparsable); data: URLs are kept as written */
  url: string | null;
  /** alt attribute; null when absent ('' when present and empty) */
  alt: string | null;
  width: string | null;
  height: string | null;
  /** loading attribute, lower-cased */
  loading: string | null;
  srcset: string | null;
  sizes: string | null;
  decoding: string | null;
  fetchpriority: string | null;
  /** inside a <picture> */
  inPicture: boolean;
  /** the type attributes of the <source> siblings before it in its <picture> (lower-cased) */
  pictureSourceTypes: string[];
  /** the srcset attributes of the <source> siblings before it in its <picture>, as written (a batch checks their URLs) */
  pictureSrcsets: string[];
  /** ordinal of this <img> among the page's images (0-based) */
  imageIndex: number;
  /** ordinal of its start tag among all elements (0-based), a rough position in the page */
  elementIndex: number;
  /** rough above-the-fold estimate: one of the first `ABOVE_FOLD_IMAGES` images and within the first `ABOVE_FOLD_ELEMENTS` body elements */
  likelyAboveFold: boolean;
  /**
   * a visitor never sees it: inside <noscript> (text, not an element, when scripts run), or it
   * or an ancestor has the `hidden` attribute or an inline `display:none`
   */
  hidden: boolean;
  /** inside <noscript> */
  inNoscript: boolean;
  /** `role` attribute, lower-cased (null when absent); "presentation"/"none" mark it decorative */
  role: string | null;
}

export interface ScriptTag {
  /** src as written (null for inline) */
  src: string | null;
  url: string | null;
  async: boolean;
  defer: boolean;
  /** type attribute, lower-cased, null when absent */
  type: string | null;
  /** type=module */
  module: boolean;
  /** a type that is not JavaScript (JSON-LD, templates, importmap…): not executed */
  nonExecutable: boolean;
  nomodule: boolean;
  inHead: boolean;
  /** length of the inline content in characters (0 for external) */
  inlineLength: number;
}

export interface FrameTag {
  tag: 'iframe' | 'frame' | 'embed' | 'object' | 'video' | 'audio' | 'source' | 'track';
  /** src (or data for <object>) as written */
  src: string | null;
  url: string | null;
  loading: string | null;
  title: string | null;
}

export interface StyleBlock {
  inHead: boolean;
  length: number;
  media: string | null;
}

export interface FormTag {
  action: string | null;
  url: string | null;
  method: string | null;
}

/** A resolved URL reference to a subresource, for mixed content and counts. */
export interface SubresourceRef {
  kind: 'script' | 'stylesheet' | 'image' | 'iframe' | 'media' | 'font' | 'other';
  url: string;
  /** the element and attribute it came from, e.g. "img src" */
  from: string;
}

/** The parsed rules of robots.txt (robots-parser's Robot). */
export interface RobotsRules {
  isAllowed(url: string, ua?: string): boolean | undefined;
  isDisallowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
  getPreferredHost(): string | null;
}

/** A site file fetched beside the page (robots.txt, sitemap, probes), as checks read it. */
export interface ExtraInfo extends Pick<ExtraResource, 'url' | 'finalUrl' | 'status' | 'headers' | 'body'> {
  /** media type of content-type, lower-cased ('' when absent) */
  contentType: string;
  /** the fetch error's message, null when it answered */
  error: string | null;
}

export interface RobotsInfo extends ExtraInfo {
  /** parsed rules (robots-parser) when the file answered 2xx; null otherwise */
  parsed: RobotsRules | null;
  /** the body looks like an HTML page rather than a robots file */
  looksLikeHtml: boolean;
}

export interface SitemapInfo extends ExtraInfo {
  /** the body is XML that validates (fast-xml-parser XMLValidator) */
  isXml: boolean;
  /** validation error message, null when it parsed */
  parseError: string | null;
  /** a <sitemapindex> rather than a <urlset> */
  isIndex: boolean;
  /** <loc> values (page URLs of a urlset, or child sitemaps of an index), capped at 50,000 */
  urls: string[];
}

/** An entry of the HTTP Link header. */
export interface LinkHeaderEntry {
  /** the URI reference as written between < and >, trimmed */
  href: string;
  /** rel tokens, lower-cased */
  rel: string[];
  hreflang: string | null;
}

export interface Doctype {
  /** the declaration as written, without `<!` and `>`, e.g. `DOCTYPE html` */
  raw: string;
  /** the root name, lower-cased ("html") */
  name: string;
  /** PUBLIC identifier when given (quirks-mode detection), else null */
  publicId: string | null;
  systemId: string | null;
  /** whether it came before any element */
  first: boolean;
}

/** The fetch facts that the snapshot gives as they are. */
export type SnapshotFacts = Pick<
  PageSnapshot,
  | 'url'
  | 'finalUrl'
  | 'status'
  | 'httpVersion'
  | 'headers'
  | 'redirects'
  | 'timings'
  | 'transferBytes'
  | 'contentType'
>;

/** The facts from the fetch: the snapshot's, plus what is derived from them for the checks. */
export interface FetchFacts extends SnapshotFacts {
  /** parsed final URL */
  finalUrlParsed: URL;
  /** decoded HTML bytes */
  htmlBytes: number;
  /** characters of decoded HTML */
  htmlLength: number;
  /** the decoded HTML itself (a batch's custom extraction reads it: src/crawl/extract.ts) */
  source: string;
  /** what the fetcher decoded with, and what the header and the markup declared */
  charset: PageSnapshot['charset'] & {
    /** charset= parameter of the content-type header, lower-cased, null when absent */
    header: string | null;
    /** <meta charset> or http-equiv content-type charset, lower-cased, null when absent */
    meta: string | null;
  };
  /** the entries of the HTTP Link header (canonical, hreflang alternates…) */
  linkHeader: LinkHeaderEntry[];
  robots: RobotsInfo | null;
  sitemap: SitemapInfo | null;
  /** the random-path probe: status, null when not probed or it failed */
  notFoundProbe: ExtraInfo | null;
  /** the /favicon.ico probe; null when not probed, or when the page declares an icon (`declaresIcon`) */
  favicon: ExtraInfo | null;
  /** /llms.txt as fetched (its shape: artifacts/llms.ts llmsShape); null when not fetched */
  llms: (ExtraInfo & { resource: ExtraResource }) | null;
  /** the product token used for robots.txt rules ("Pagegrade") */
  userAgentToken: string;
}

/** The facts from the one HTML pass (artifacts/html.ts). */
export interface HtmlFacts {
  doctype: Doctype | null;
  /** <html lang> as written (null when absent) */
  htmlLang: string | null;
  /** <html xml:lang> */
  htmlXmlLang: string | null;
  /** <html dir> */
  htmlDir: string | null;
  /** every <title> outside <svg>, text trimmed (entities decoded) */
  titles: string[];
  metas: MetaTag[];
  links: LinkTag[];
  /** a <link rel~=icon> with an href in the head (browsers then skip /favicon.ico, and so does the favicon check) */
  declaresIcon: boolean;
  /** the first <base href> resolved against the final URL, null when none */
  baseHref: string | null;
  /** the URL relative references are resolved against (base href or the final URL) */
  baseUrl: string;
  headings: Heading[];
  anchors: Anchor[];
  images: ImageTag[];
  scripts: ScriptTag[];
  /** contents of <script type="application/ld+json"> blocks, raw */
  jsonLd: string[];
  styles: StyleBlock[];
  frames: FrameTag[];
  forms: FormTag[];
  /** every http(s)/protocol-relative subresource URL the page loads (resolved) */
  subresources: SubresourceRef[];
  /** elements with a non-empty style attribute */
  styleAttrCount: number;
  /** the first few (tag names) of those elements, for details */
  styleAttrSamples: string[];
  /** deprecated/obsolete tags found → count */
  deprecatedTags: Record<string, number>;
  /** number of elements (start tags) */
  elementCount: number;
  /** deepest element nesting */
  maxDepth: number;
  /** elements inside <body> (or after </head>) — for position estimates */
  bodyElementCount: number;
  /** visible text of the body (script/style/template/noscript/svg excluded), element boundaries as spaces; whitespace runs are NOT collapsed */
  text: string;
  /**
   * the main text: `text` without the site's template regions (nav, aside, a header or footer
   * outside any article/section/main, the banner/navigation/contentinfo/complementary/search
   * roles) — or only the text of the <main> (role=main) when the page has one. The batch's
   * content findings (duplicates, thin content) read it.
   */
  mainText: string;
  /** characters of `text` with whitespace runs collapsed to one space, trimmed */
  textLength: number;
  /** words in `text` (runs of letters/digits; CJK counted per character) */
  wordCount: number;
  /** distinct e-mail addresses found in text and attributes (mailto: included), capped at 50 */
  emails: string[];
  /** itemtype values (microdata) */
  microdataTypes: string[];
  /** any itemscope seen */
  hasMicrodata: boolean;
  /** RDFa typeof/vocab seen */
  hasRdfa: boolean;
  /** the <head> was explicitly closed or body started (false for fragments) */
  hasBody: boolean;
}

/**
 * The page's robots directives (artifacts/indexing.ts), from its meta tags and X-Robots-Tag:
 * the noindex check, the rendered audit and the batch crawler read them.
 */
export interface IndexingFacts {
  /**
   * the robots meta tags addressed to a crawler we answer for (robots, googlebot, bingbot,
   * pagegrade) whose content forbids indexing (`noindex` or `none`), in page order
   */
  noindexMetas: MetaTag[];
  /** the X-Robots-Tag header forbids indexing (unscoped, or scoped to one of those crawlers) */
  noindexHeader: boolean;
  /** a `<meta name="robots">` says `nofollow`: none of the page's links is to be followed */
  nofollow: boolean;
  /**
   * the `noai` / `noimageai` directives of the page's robots meta tags and X-Robots-Tag header
   * (any scope), each as "noai (meta robots)" or "noimageai (X-Robots-Tag)", in that order
   */
  aiDirectives: string[];
}

/** Everything the checks judge: the fetch facts, the HTML facts, and what needs both. */
export interface Artifacts extends FetchFacts, HtmlFacts {
  /** robots directives: noindex (meta tags, X-Robots-Tag) and nofollow */
  indexing: IndexingFacts;
  /** the page seems not to be the real content: an auth/rate-limit/unavailable status or a bot challenge */
  blocked: { reason: string } | null;
  /** subresource counts by kind: scripts, stylesheets, images, iframes, media, fonts, total */
  requestCounts: Record<string, number>;
}
