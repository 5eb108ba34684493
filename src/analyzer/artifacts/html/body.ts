// The body's elements in the HTML pass: headings, links (a, area), images and <picture>,
// frames and media, image inputs, forms, and the containers whose text is not visible (svg,
// noscript, template, select).
import type { Anchor, Heading } from '../types.js';
import type { HtmlWalk } from './state.js';
import { ABOVE_FOLD_ELEMENTS, ABOVE_FOLD_IMAGES, attr, lower, relTokens } from './tags.js';
import { decodeURIComponentSafe } from './text.js';
import { stripWww } from '../../url.js';

/** A start tag of the body (tags.ts: BODY), with its attributes. */
export function openBodyElement(w: HtmlWalk, name: string, a: Record<string, string>): void {
  const f = w.f;
  const depth = w.depth;
  switch (name) {
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      if (w.svgDepth > 0) break;
      const heading: Heading = { level: (name.charCodeAt(1) - 48) as Heading['level'], text: '' };
      f.headings.push(heading);
      w.captures.push({ depth, parts: [], target: heading });
      break;
    }
    case 'a':
    case 'area':
      anchor(w, name, a);
      break;
    case 'img':
      image(w, a);
      break;
    case 'picture':
      if (w.pictureDepth < 0) {
        w.pictureDepth = depth;
        w.pictureSources = [];
        w.pictureSrcsets = [];
      }
      break;
    case 'source':
      if (w.pictureDepth >= 0) {
        const t = lower(a, 'type');
        if (t !== null) w.pictureSources.push(t);
        const srcset = attr(a, 'srcset');
        if (srcset !== null) w.pictureSrcsets.push(srcset);
      } else {
        const u = w.resolve(attr(a, 'src'));
        f.frames.push({
          tag: 'source',
          src: attr(a, 'src'),
          url: u?.href ?? null,
          loading: null,
          title: null,
        });
        w.addSub('media', u, 'source src');
      }
      break;
    case 'iframe':
    case 'frame': {
      const src = attr(a, 'src');
      const u = w.resolve(src);
      f.frames.push({
        tag: name,
        src,
        url: u?.href ?? null,
        loading: lower(a, 'loading'),
        title: attr(a, 'title'),
      });
      if (w.noscriptDepth === 0) w.addSub('iframe', u, `${name} src`);
      break;
    }
    case 'embed':
    case 'object':
    case 'video':
    case 'audio':
    case 'track': {
      const src = name === 'object' ? attr(a, 'data') : attr(a, 'src');
      const u = w.resolve(src);
      f.frames.push({ tag: name, src, url: u?.href ?? null, loading: null, title: attr(a, 'title') });
      w.addSub('media', u, `${name} ${name === 'object' ? 'data' : 'src'}`);
      if (name === 'video' && a.poster !== undefined) w.addSub('image', w.resolve(a.poster), 'video poster');
      break;
    }
    case 'input':
      if (a.type !== undefined && a.type.toLowerCase() === 'image')
        w.addSub('image', w.resolve(attr(a, 'src')), 'input src');
      break;
    case 'form': {
      const action = attr(a, 'action');
      f.forms.push({ action, url: w.resolve(action)?.href ?? null, method: lower(a, 'method') });
      break;
    }
    case 'svg':
      w.svgDepth++;
      w.hidden++;
      w.hiddenAt.push(depth);
      break;
    case 'noscript':
      w.noscriptDepth++;
      w.hidden++;
      w.hiddenAt.push(depth);
      break;
    case 'template':
    case 'select':
      w.hidden++;
      w.hiddenAt.push(depth);
      break;
    default:
      break;
  }
}

function anchor(w: HtmlWalk, name: 'a' | 'area', a: Record<string, string>): void {
  const svg = w.svgDepth > 0;
  if (svg && name === 'a' && a.href === undefined && a['xlink:href'] === undefined) return;
  const href = attr(a, 'href') ?? (svg ? attr(a, 'xlink:href') : null);
  const u = w.resolve(href);
  const proto = u?.protocol ?? null;
  let internal: boolean | null = null;
  if (u !== null && (proto === 'http:' || proto === 'https:')) internal = stripWww(u.hostname) === w.pageHost;
  if (
    href !== null &&
    href.length > 7 &&
    (href.charCodeAt(0) | 0x20) === 109 && // m or M before slicing
    href.slice(0, 7).toLowerCase() === 'mailto:'
  ) {
    w.addEmailsFrom(decodeURIComponentSafe(href.slice(7).split('?')[0] ?? ''));
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
    codeText: w.codeAt.length > 0,
    current: a['aria-current'] !== undefined && a['aria-current'].trim().toLowerCase() !== 'false',
  };
  w.f.anchors.push(anchor);
  if (name === 'a') {
    w.captures.push({ depth: w.depth, parts: [], target: anchor, plain: false });
    w.anchorCaptures++;
  } else {
    anchor.text = (a.alt ?? '').trim();
  }
}

function image(w: HtmlWalk, a: Record<string, string>): void {
  const f = w.f;
  const src = attr(a, 'src');
  const u = src !== null && src.startsWith('data:') ? null : w.resolve(src);
  const alt = attr(a, 'alt');
  const imageIndex = f.images.length;
  const inPicture = w.pictureDepth >= 0;
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
    inPicture,
    pictureSourceTypes: inPicture ? w.pictureSources.slice() : [],
    pictureSrcsets: inPicture ? w.pictureSrcsets.slice() : [],
    imageIndex,
    // the element's index (flush counted it already)
    elementIndex: f.elementCount - 1,
    likelyAboveFold: imageIndex < ABOVE_FOLD_IMAGES && f.bodyElementCount <= ABOVE_FOLD_ELEMENTS,
    hidden: w.noscriptDepth > 0 || w.concealedAt.length > 0,
    inNoscript: w.noscriptDepth > 0,
    role: lower(a, 'role'),
  });
  if (w.noscriptDepth === 0) w.addSub('image', u, 'img src');
  if (alt !== null && w.captures.length > 0) w.capture(alt, true);
}
