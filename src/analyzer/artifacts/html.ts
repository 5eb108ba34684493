// The one streaming pass over the HTML: htmlparser2's Parser with callbacks, no DOM.
// Everything the checks need from the markup is gathered here, once.
import { Parser } from 'htmlparser2';
import type { Anchor, Heading, HtmlFacts, MetaTag, ScriptTag, StyleBlock, SubresourceRef } from './types.js';
import { makeResolver, type Resolved } from './resolve.js';
import { stripWww } from '../url.js';

/** images among the first this many count as possibly above the fold */
export const ABOVE_FOLD_IMAGES = 3;
/** … and only when within the first this many body elements */
export const ABOVE_FOLD_ELEMENTS = 250;

export const DEPRECATED_TAGS: ReadonlySet<string> = new Set([
  'acronym',
  'applet',
  'basefont',
  'bgsound',
  'big',
  'blink',
  'center',
  'dir',
  'font',
  'frame',
  'frameset',
  'isindex',
  'keygen',
  'listing',
  'marquee',
  'multicol',
  'nextid',
  'nobr',
  'noembed',
  'noframes',
  'plaintext',
  'spacer',
  'strike',
  'tt',
  'xmp',
]);

const HANDLED = 1;
const DEPRECATED = 2;
/** tag name → what onopentag does with it (one lookup per element) */
const TAG_FLAGS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  for (const t of [
    'html',
    'head',
    'body',
    'title',
    'meta',
    'base',
    'link',
    'script',
    'style',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'a',
    'area',
    'img',
    'picture',
    'source',
    'iframe',
    'frame',
    'embed',
    'object',
    'video',
    'audio',
    'track',
    'input',
    'form',
    'svg',
    'noscript',
    'template',
    'select',
  ])
    m.set(t, HANDLED);
  for (const t of DEPRECATED_TAGS) m.set(t, (m.get(t) ?? 0) | DEPRECATED);
  return m;
})();

/** elements that may appear before <body> without starting it */
const HEAD_TAGS: ReadonlySet<string> = new Set([
  'html',
  'head',
  'title',
  'meta',
  'link',
  'script',
  'style',
  'base',
  'noscript',
  'template',
]);

/** closing these does not separate words ("<b>word</b>s") */
const INLINE_TAGS: ReadonlySet<string> = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'font',
  'big',
  'tt',
  'strike',
  'label',
  'wbr',
]);

/** script types that the browser executes */
function isJsType(type: string | null): boolean {
  if (type === null || type === '') return true;
  switch (type) {
    case 'text/javascript':
    case 'application/javascript':
    case 'module':
    case 'text/ecmascript':
    case 'application/ecmascript':
    case 'application/x-javascript':
    case 'text/jscript':
    case 'text/x-javascript':
      return true;
    default:
      return false;
  }
}

/** an inline style that hides the element */
const DISPLAY_NONE = /display\s*:\s*none/i;

const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b/g;
/** file-name-looking matches like "icon@2x.png" are not e-mail addresses */
const NOT_EMAIL_TLD = /\.(?:png|jpe?g|gif|webp|avif|svg|css|js|mjs|ico|woff2?|ttf)$/i;

function relTokens(v: string | undefined): string[] {
  if (!v) return [];
  const s = v.trim().toLowerCase();
  if (s === '') return [];
  return s.indexOf(' ') === -1 && s.indexOf('\t') === -1 && s.indexOf('\n') === -1 ? [s] : s.split(/\s+/);
}

function attr(a: Record<string, string>, name: string): string | null {
  const v = a[name];
  return v === undefined ? null : v;
}

function lower(a: Record<string, string>, name: string): string | null {
  const v = a[name];
  return v === undefined ? null : v.trim().toLowerCase();
}

/** the attributes flush() reads (kept for TAG_FLAGS elements; the rest are not stored) */
const READ_ATTRS: ReadonlyMap<string, string> = new Map(
  [
    'action',
    'alt',
    'aria-current',
    'aria-label',
    'as',
    'async',
    'charset',
    'content',
    'data',
    'decoding',
    'defer',
    'dir',
    'fetchpriority',
    'height',
    'hidden',
    'href',
    'hreflang',
    'http-equiv',
    'id',
    'itemprop',
    'lang',
    'loading',
    'media',
    'method',
    'name',
    'nomodule',
    'onclick',
    'poster',
    'property',
    'rel',
    'role',
    'sizes',
    'src',
    'srcset',
    'style',
    'target',
    'title',
    'type',
    'vocab',
    'width',
    'xlink:href',
    'xml:lang',
  ].map((n) => [n, n]),
);

/** A capture collects text for an element still open (title, heading, anchor). */
interface Capture {
  depth: number;
  parts: string[];
  /** where the text goes: a heading or an anchor (filled in place), or null for a title */
  target: { text: string } | null;
  /** an anchor's: some of its text came from outside any <code> element */
  plain?: boolean;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
}

/** whitespace-only text (indentation between tags) */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

function collapse(parts: string[]): string {
  if (parts.length === 0) return '';
  const s = parts.length === 1 ? parts[0]! : parts.join('');
  return /\s\s|[\t\n\r\f]/.test(s) ? s.replace(/\s+/g, ' ').trim() : s.trim();
}

function isCjk(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

function isWordChar(c: number): boolean {
  if (c < 128) {
    return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  }
  if (c === 0xa0) return false;
  if (c >= 0x2000 && c <= 0x206f) return false; // general punctuation and spaces
  if (c >= 0x3000 && c <= 0x303f) return false; // CJK punctuation
  if (c >= 0xff00 && c <= 0xff0f) return false; // fullwidth punctuation
  return true;
}

const C_OTHER = 0;
const C_SPACE = 1;
const C_WORD = 2;
const C_AT = 3;
const C_JOIN = 4;
const C_CJK = 5;
/** character classes of ASCII for the text loop */
const ASCII_CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) t[c] = isWordChar(c) ? C_WORD : C_OTHER;
  for (const c of [32, 10, 9, 13, 12]) t[c] = C_SPACE;
  t[64] = C_AT;
  t[39] = C_JOIN;
  t[45] = C_JOIN;
  return t;
})();

/** Counts words: runs of letters/digits; each CJK ideograph or kana counts as one word. */
export function countWords(text: string): number {
  return textStats(text, null).words;
}

/**
 * One loop over the visible text: words (runs of letters/digits, apostrophes and hyphens
 * inside; each CJK ideograph or kana is a word), the length with whitespace runs collapsed
 * and ends trimmed, and (into `at`, when given) the positions of "@" for the e-mail search.
 */
export function textStats(text: string, at: number[] | null): { words: number; length: number } {
  let words = 0;
  let len = 0;
  let pending = false;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const k = c < 128 ? ASCII_CLASS[c]! : c > 0x3000 && isCjk(c) ? C_CJK : isWordChar(c) ? C_WORD : C_OTHER;
    if (k === C_SPACE) {
      if (len > 0) pending = true;
      inWord = false;
      continue;
    }
    if (pending) len++;
    pending = false;
    len++;
    if (k === C_WORD) {
      if (!inWord) {
        words++;
        inWord = true;
      }
    } else if (k === C_CJK) {
      words++;
      inWord = false;
    } else if (k === C_AT) {
      if (at !== null && at.length < 200) at.push(i);
      inWord = false;
    } else if (k === C_OTHER && c !== 0x2019) {
      inWord = false;
    }
    // C_JOIN (apostrophe, hyphen) and U+2019 keep a word together
  }
  return { words, length: len };
}

/** Parses the HTML once and returns every fact the checks read. `pageUrl` is the final URL. */
export function collectHtml(html: string, pageUrl: URL): HtmlFacts {
  const pageHost = stripWww(pageUrl.hostname);
  let base: URL = pageUrl;
  let baseHref: string | null = null;

  let resolve = makeResolver(base);

  const f: HtmlFacts = {
    doctype: null,
    htmlLang: null,
    htmlXmlLang: null,
    htmlDir: null,
    titles: [],
    metas: [],
    links: [],
    declaresIcon: false,
    baseHref: null,
    baseUrl: pageUrl.href,
    headings: [],
    anchors: [],
    images: [],
    scripts: [],
    jsonLd: [],
    styles: [],
    frames: [],
    forms: [],
    subresources: [],
    styleAttrCount: 0,
    styleAttrSamples: [],
    deprecatedTags: {},
    elementCount: 0,
    maxDepth: 0,
    bodyElementCount: 0,
    text: '',
    textLength: 0,
    wordCount: 0,
    emails: [],
    microdataTypes: [],
    hasMicrodata: false,
    hasRdfa: false,
    hasBody: false,
  };

  const emails = new Set<string>();
  const microdata = new Set<string>();
  const textParts: string[] = [];
  let depth = 0;
  let bodyStarted = false;
  let seenElement = false;
  /** inside script/style/template/noscript/svg/head-only content: text is not visible */
  let hidden = 0;
  let svgDepth = 0;
  let noscriptDepth = 0;
  /** the open element whose text we collect raw: script, style */
  let rawKind: 'script' | 'jsonld' | 'style' | null = null;
  let rawScript: ScriptTag | null = null;
  let rawStyle: StyleBlock | null = null;
  const rawParts: string[] = [];
  let pictureDepth = -1;
  let pictureSources: string[] = [];
  const captures: Capture[] = [];
  /** the tag names that increased `hidden`, by depth, to undo on close */
  const hiddenAt: number[] = [];

  /** depths of the open <code> elements */
  const codeAt: number[] = [];
  /** depths of the open elements hidden by a `hidden` attribute or an inline display:none */
  const concealedAt: number[] = [];
  /** anchors whose text is being captured (a subset of captures) */
  let anchorCaptures = 0;

  const finish = (c: Capture): void => {
    const text = collapse(c.parts);
    if (c.target === null) f.titles.push(text);
    else c.target.text = text;
    if (c.plain !== undefined) {
      anchorCaptures--;
      // text captured only inside <code>: the link's text is code
      if (!c.plain && text !== '') (c.target as Anchor).codeText = true;
    }
  };

  /** text outside <code> reached the open anchors' captures */
  const markPlain = (): void => {
    for (const c of captures) if (c.plain === false) c.plain = true;
  };

  /** a word boundary is due before the next text (an element other than an inline one ended) */
  let needSpace = false;

  const addEmailsFrom = (s: string): void => {
    if (emails.size >= 50 || s.indexOf('@') === -1) return;
    for (const m of s.matchAll(EMAIL_RE)) {
      const e = m[0].toLowerCase();
      if (!NOT_EMAIL_TLD.test(e) && emails.size < 50) emails.add(e);
    }
  };

  const addSub = (kind: SubresourceRef['kind'], u: Resolved | null, from: string): void => {
    if (u === null) return;
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return;
    f.subresources.push({ kind, url: u.href, from });
  };

  const startBody = (): void => {
    if (!bodyStarted) {
      bodyStarted = true;
      f.hasBody = true;
    }
  };

  const doctype = (name: string, data: string): void => {
    if (name === '!doctype' && f.doctype === null) {
      const raw = data.slice(1);
      const m =
        /^doctype\s+([^\s>]+)(?:\s+public\s+(?:"([^"]*)"|'([^']*)'))?(?:\s*(?:system\s+)?(?:"([^"]*)"|'([^']*)'))?/i.exec(
          raw,
        );
      f.doctype = {
        raw,
        name: (m?.[1] ?? '').toLowerCase(),
        publicId: m?.[2] ?? m?.[3] ?? null,
        systemId: m?.[4] ?? m?.[5] ?? null,
        first: !seenElement,
      };
    }
  };

  /** The start tag whose attributes the parser is still reporting; handled at the next event. */
  let pendingName: string | null = null;
  let pendingFlags = 0;
  /** all attributes, kept only for the elements flush() looks at (TAG_FLAGS) */
  let pendingAttrs: Record<string, string> | null = null;
  let pStyle = false;
  /** the pending start tag hides itself: `hidden` (not until-found) or an inline display:none */
  let pConcealed = false;
  let pItemscope = false;
  let pItemtype: string | null = null;

  /**
   * A start tag with all its attributes. The parser reports attributes one by one
   * (onattribute) and we act at the next event, so that no attribs object is built for the
   * elements we only count.
   */
  const flush = (): void => {
    const name = pendingName!;
    pendingName = null;
    seenElement = true;
    depth++;
    if (depth > f.maxDepth) f.maxDepth = depth;
    f.elementCount++;
    const elementIndex = f.elementCount - 1;
    if (!bodyStarted && svgDepth === 0 && !HEAD_TAGS.has(name)) startBody();
    if (bodyStarted) f.bodyElementCount++;
    if (pStyle) {
      f.styleAttrCount++;
      if (f.styleAttrSamples.length < 50) f.styleAttrSamples.push(name);
    }
    if (pConcealed) concealedAt.push(depth);
    if (name === 'code') codeAt.push(depth);
    // itemtype only means something with itemscope
    if (pItemscope) {
      f.hasMicrodata = true;
      if (pItemtype !== null) for (const t of pItemtype.trim().split(/\s+/)) if (t) microdata.add(t);
    }
    const a = pendingAttrs;
    if (a === null) return; // most elements (div, span, li, p, td…) need nothing more
    const flags = pendingFlags;
    if ((flags & DEPRECATED) !== 0 && svgDepth === 0) {
      f.deprecatedTags[name] = (f.deprecatedTags[name] ?? 0) + 1;
    }
    if (name === 'html' && a.vocab !== undefined) f.hasRdfa = true;

    switch (name) {
      case 'html':
        if (f.htmlLang === null && a.lang !== undefined) f.htmlLang = a.lang;
        if (f.htmlXmlLang === null && a['xml:lang'] !== undefined) f.htmlXmlLang = a['xml:lang'];
        if (f.htmlDir === null && a.dir !== undefined) f.htmlDir = a.dir;
        break;
      case 'head':
        break;
      case 'body':
        startBody();
        break;
      case 'title':
        if (svgDepth === 0) {
          captures.push({ depth, parts: [], target: null });
        }
        break;
      case 'meta': {
        const m: MetaTag = {
          name: lower(a, 'name'),
          property: lower(a, 'property'),
          httpEquiv: lower(a, 'http-equiv'),
          itemprop: attr(a, 'itemprop'),
          content: attr(a, 'content'),
          charset: attr(a, 'charset'),
          inHead: !bodyStarted,
        };
        f.metas.push(m);
        break;
      }
      case 'base':
        if (baseHref === null && a.href !== undefined) {
          try {
            base = new URL(a.href.trim(), pageUrl);
            baseHref = base.href;
            resolve = makeResolver(base);
          } catch {
            /* an invalid base is ignored */
          }
        }
        break;
      case 'link': {
        const rel = relTokens(a.rel);
        const href = attr(a, 'href');
        const u = resolve(href);
        const as = lower(a, 'as');
        f.links.push({
          rel,
          href,
          url: u?.href ?? null,
          hreflang: attr(a, 'hreflang'),
          type: attr(a, 'type'),
          sizes: attr(a, 'sizes'),
          as,
          media: attr(a, 'media'),
          inHead: !bodyStarted,
        });
        if (!bodyStarted && !f.declaresIcon && href !== null && !isBlank(href) && rel.includes('icon'))
          f.declaresIcon = true;
        if (rel.includes('stylesheet')) addSub('stylesheet', u, 'link stylesheet');
        else if (rel.includes('preload') || rel.includes('modulepreload')) {
          if (as === 'font') addSub('font', u, 'link preload');
          else if (as === 'script' || rel.includes('modulepreload')) addSub('script', u, 'link preload');
          else if (as === 'style') addSub('stylesheet', u, 'link preload');
          else if (as === 'image') addSub('image', u, 'link preload');
          else addSub('other', u, 'link preload');
        } else if (rel.includes('icon') || rel.includes('apple-touch-icon')) addSub('other', u, 'link icon');
        break;
      }
      case 'script': {
        const type = lower(a, 'type');
        const src = attr(a, 'src');
        const u = resolve(src);
        const module = type === 'module';
        const s: ScriptTag = {
          src,
          url: u?.href ?? null,
          async: a.async !== undefined,
          defer: a.defer !== undefined,
          type,
          module,
          nonExecutable: !isJsType(type),
          nomodule: a.nomodule !== undefined,
          inHead: !bodyStarted,
          inlineLength: 0,
        };
        f.scripts.push(s);
        if (src !== null && !s.nonExecutable) addSub('script', u, 'script src');
        rawKind = type === 'application/ld+json' ? 'jsonld' : 'script';
        rawScript = s;
        rawParts.length = 0;
        break;
      }
      case 'style':
        rawStyle = { inHead: !bodyStarted, length: 0, media: attr(a, 'media') };
        f.styles.push(rawStyle);
        rawKind = 'style';
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        if (svgDepth > 0) break;
        const heading: Heading = { level: (name.charCodeAt(1) - 48) as Heading['level'], text: '' };
        f.headings.push(heading);
        captures.push({ depth, parts: [], target: heading });
        break;
      }
      case 'a':
      case 'area': {
        if (svgDepth > 0 && name === 'a' && a.href === undefined && a['xlink:href'] === undefined) break;
        const href = attr(a, 'href') ?? (svgDepth > 0 ? attr(a, 'xlink:href') : null);
        const u = resolve(href);
        const proto = u?.protocol ?? null;
        let internal: boolean | null = null;
        if (u !== null && (proto === 'http:' || proto === 'https:'))
          internal = stripWww(u.hostname) === pageHost;
        if (
          href !== null &&
          href.length > 7 &&
          (href.charCodeAt(0) | 0x20) === 109 && // m or M before slicing
          href.slice(0, 7).toLowerCase() === 'mailto:'
        ) {
          addEmailsFrom(decodeURIComponentSafe(href.slice(7).split('?')[0] ?? ''));
        }
        const anchor: Anchor = {
          tag: name,
          href,
          url: u?.href ?? null,
          text: '',
          rel: relTokens(a.rel),
          target: attr(a, 'target'),
          title: attr(a, 'title'),
          ariaLabel: attr(a, 'aria-label'),
          role: lower(a, 'role'),
          hasOnclick: a.onclick !== undefined,
          lang: attr(a, 'lang'),
          named: a.id !== undefined || a.name !== undefined,
          internal,
          protocol: proto,
          codeText: codeAt.length > 0,
          current: a['aria-current'] !== undefined && a['aria-current'].trim().toLowerCase() !== 'false',
        };
        f.anchors.push(anchor);
        if (name === 'a') {
          captures.push({ depth, parts: [], target: anchor, plain: false });
          anchorCaptures++;
        } else {
          anchor.text = (a.alt ?? '').trim();
        }
        break;
      }
      case 'img': {
        const src = attr(a, 'src');
        const u = src !== null && src.startsWith('data:') ? null : resolve(src);
        const alt = attr(a, 'alt');
        const imageIndex = f.images.length;
        f.images.push({
          src,
          url: src !== null && src.startsWith('data:') ? src : (u?.href ?? null),
          alt,
          width: attr(a, 'width'),
          height: attr(a, 'height'),
          loading: lower(a, 'loading'),
          srcset: attr(a, 'srcset'),
          sizes: attr(a, 'sizes'),
          decoding: lower(a, 'decoding'),
          fetchpriority: lower(a, 'fetchpriority'),
          inPicture: pictureDepth >= 0,
          pictureSourceTypes: pictureDepth >= 0 ? pictureSources.slice() : [],
          imageIndex,
          elementIndex,
          likelyAboveFold: imageIndex < ABOVE_FOLD_IMAGES && f.bodyElementCount <= ABOVE_FOLD_ELEMENTS,
          hidden: noscriptDepth > 0 || concealedAt.length > 0,
          inNoscript: noscriptDepth > 0,
          role: lower(a, 'role'),
        });
        if (noscriptDepth === 0) addSub('image', u, 'img src');
        if (alt !== null && captures.length > 0) {
          for (const c of captures) c.parts.push(' ', alt, ' ');
          if (anchorCaptures > 0 && codeAt.length === 0 && !isBlank(alt)) markPlain();
        }
        break;
      }
      case 'picture':
        if (pictureDepth < 0) {
          pictureDepth = depth;
          pictureSources = [];
        }
        break;
      case 'source':
        if (pictureDepth >= 0) {
          const t = lower(a, 'type');
          if (t !== null) pictureSources.push(t);
        } else {
          const u = resolve(attr(a, 'src'));
          f.frames.push({
            tag: 'source',
            src: attr(a, 'src'),
            url: u?.href ?? null,
            loading: null,
            title: null,
          });
          addSub('media', u, 'source src');
        }
        break;
      case 'iframe':
      case 'frame': {
        const src = attr(a, 'src');
        const u = resolve(src);
        f.frames.push({
          tag: name,
          src,
          url: u?.href ?? null,
          loading: lower(a, 'loading'),
          title: attr(a, 'title'),
        });
        if (noscriptDepth === 0) addSub('iframe', u, `${name} src`);
        break;
      }
      case 'embed':
      case 'object':
      case 'video':
      case 'audio':
      case 'track': {
        const src = name === 'object' ? attr(a, 'data') : attr(a, 'src');
        const u = resolve(src);
        f.frames.push({ tag: name, src, url: u?.href ?? null, loading: null, title: attr(a, 'title') });
        addSub('media', u, `${name} ${name === 'object' ? 'data' : 'src'}`);
        if (name === 'video' && a.poster !== undefined) addSub('image', resolve(a.poster), 'video poster');
        break;
      }
      case 'input':
        if (a.type !== undefined && a.type.toLowerCase() === 'image')
          addSub('image', resolve(attr(a, 'src')), 'input src');
        break;
      case 'form': {
        const action = attr(a, 'action');
        f.forms.push({ action, url: resolve(action)?.href ?? null, method: lower(a, 'method') });
        break;
      }
      case 'svg':
        svgDepth++;
        hidden++;
        hiddenAt.push(depth);
        break;
      case 'noscript':
        noscriptDepth++;
        hidden++;
        hiddenAt.push(depth);
        break;
      case 'template':
      case 'select':
        hidden++;
        hiddenAt.push(depth);
        break;
      default:
        break;
    }
  };

  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (pendingName !== null) flush();
        doctype(name, data);
      },

      onopentagname(name) {
        if (pendingName !== null) flush();
        pendingName = name;
        const flags = TAG_FLAGS.get(name);
        pendingFlags = flags ?? 0;
        pendingAttrs = flags === undefined ? null : {};
        pStyle = false;
        pConcealed = false;
        pItemscope = false;
        pItemtype = null;
      },

      onattribute(name, value) {
        if (pendingAttrs !== null) {
          // the interned name from the table: a keyed store with an attribute-name slice would look
          // it up in the string table first
          const key = READ_ATTRS.get(name);
          if (key !== undefined && pendingAttrs[key] === undefined) pendingAttrs[key] = value;
        }
        switch (name.length) {
          case 5:
            if (name === 'style' && !isBlank(value)) {
              pStyle = true;
              if (DISPLAY_NONE.test(value)) pConcealed = true;
            }
            break;
          case 6:
            if (name === 'typeof') f.hasRdfa = true;
            else if (name === 'hidden' && value.trim().toLowerCase() !== 'until-found') pConcealed = true;
            break;
          case 8:
            if (name === 'itemtype') pItemtype = value;
            break;
          case 9:
            if (name === 'itemscope') pItemscope = true;
            break;
          default:
            break;
        }
      },

      ontext(data) {
        if (pendingName !== null) flush();
        if (rawKind !== null) {
          if (rawKind === 'style') {
            if (rawStyle) rawStyle.length += data.length;
          } else {
            if (rawScript) rawScript.inlineLength += data.length;
            if (rawKind === 'jsonld') rawParts.push(data);
          }
          return;
        }
        if (captures.length > 0) {
          for (const c of captures) c.parts.push(data);
          if (anchorCaptures > 0 && codeAt.length === 0 && !isBlank(data)) markPlain();
        }
        if (hidden === 0 && bodyStarted) {
          // a blank chunk only separates words; the counts come from one loop over the joined
          // text at the end (a flat string: much cheaper to read than the sliced chunks)
          if (isBlank(data)) {
            needSpace = true;
            return;
          }
          if (needSpace) {
            textParts.push(' ');
            needSpace = false;
          }
          textParts.push(data);
        }
      },

      onclosetag(name) {
        if (pendingName !== null) flush();
        if (rawKind !== null && (name === 'script' || name === 'style')) {
          if (rawKind === 'jsonld') f.jsonLd.push(rawParts.join(''));
          rawKind = null;
          rawScript = null;
          rawStyle = null;
        }
        if (name === 'head') startBody();
        while (captures.length > 0 && captures[captures.length - 1]!.depth >= depth) {
          finish(captures.pop()!);
        }
        while (hiddenAt.length > 0 && hiddenAt[hiddenAt.length - 1]! >= depth) {
          hiddenAt.pop();
          hidden--;
          if (name === 'svg') svgDepth--;
          else if (name === 'noscript') noscriptDepth--;
        }
        while (concealedAt.length > 0 && concealedAt[concealedAt.length - 1]! >= depth) concealedAt.pop();
        while (codeAt.length > 0 && codeAt[codeAt.length - 1]! >= depth) codeAt.pop();
        if (pictureDepth === depth) pictureDepth = -1;
        // element boundaries (but not inline ones) separate words in the text
        if (!needSpace && bodyStarted && hidden === 0 && !INLINE_TAGS.has(name)) needSpace = true;
        depth--;
      },
    },
    { decodeEntities: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  parser.end();
  if (pendingName !== null) flush();
  // unterminated captures (missing </title> etc.)
  while (captures.length > 0) finish(captures.pop()!);
  if (rawKind === 'jsonld') f.jsonLd.push(rawParts.join(''));

  // svg/noscript counters may be left unbalanced by broken markup; that is fine here.
  f.baseHref = baseHref;
  f.baseUrl = base.href;
  f.text = textParts.join('');
  const at: number[] = [];
  const stats = textStats(f.text, at);
  f.textLength = stats.length;
  f.wordCount = stats.words;
  // e-mail addresses in the visible text: only around the "@" signs the loop saw
  let searchedTo = 0;
  for (const i of at) {
    if (i < searchedTo) continue;
    // back to the start of the local part (at most 64 characters), then forward
    let from = i;
    while (from > 0 && i - from < 64 && LOCAL_CHAR.test(f.text[from - 1]!)) from--;
    searchedTo = Math.min(f.text.length, i + 256);
    addEmailsFrom(f.text.slice(from, searchedTo));
  }
  f.emails = [...emails];
  f.microdataTypes = [...microdata];
  // titles were pushed when they closed; keep document order for the rare nested case
  return f;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
