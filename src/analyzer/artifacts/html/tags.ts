// The HTML pass's tables: which elements it handles (and where: head.ts or body.ts), which are
// deprecated, which start the body or keep words together, which attributes it keeps, and the
// attribute helpers the handlers share.

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

/** an element of the head and the document's frame (head.ts handles it) */
export const HEAD = 1;
export const DEPRECATED = 2;
/** an element of the body (body.ts handles it) */
export const BODY = 4;
const HEAD_HANDLED = ['html', 'head', 'body', 'title', 'meta', 'base', 'link', 'script', 'style'];
/** tag name → what the start tag's flush does with it (one lookup per element) */
export const TAG_FLAGS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  for (const t of HEAD_HANDLED) m.set(t, HEAD);
  for (const t of [
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
    m.set(t, BODY);
  for (const t of DEPRECATED_TAGS) m.set(t, (m.get(t) ?? 0) | DEPRECATED);
  return m;
})();

/** elements that may appear before <body> without starting it */
export const HEAD_TAGS: ReadonlySet<string> = new Set([
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
export const INLINE_TAGS: ReadonlySet<string> = new Set([
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
export function isJsType(type: string | null): boolean {
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
export const DISPLAY_NONE = /display\s*:\s*none/i;

export function relTokens(v: string | undefined): string[] {
  if (!v) return [];
  const s = v.trim().toLowerCase();
  if (s === '') return [];
  return s.indexOf(' ') === -1 && s.indexOf('\t') === -1 && s.indexOf('\n') === -1 ? [s] : s.split(/\s+/);
}

export function attr(a: Record<string, string>, name: string): string | null {
  const v = a[name];
  return v === undefined ? null : v;
}

export function lower(a: Record<string, string>, name: string): string | null {
  const v = a[name];
  return v === undefined ? null : v.trim().toLowerCase();
}

/** the attributes flush() reads (kept for TAG_FLAGS elements; the rest are not stored) */
export const READ_ATTRS: ReadonlyMap<string, string> = new Map(
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
