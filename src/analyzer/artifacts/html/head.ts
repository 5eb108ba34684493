// The document's frame and head in the HTML pass: the doctype, <html> (lang, dir), <body>,
// <title>, <meta>, <base>, <link>, <script> and <style> (which may also appear in the body).
import { makeResolver } from '../resolve.js';
import type { MetaTag, ScriptTag } from '../types.js';
import type { HtmlWalk } from './state.js';
import { attr, isJsType, lower, relTokens } from './tags.js';
import { isBlank } from './text.js';

/** A processing instruction: the first <!doctype>. */
export function doctype(w: HtmlWalk, name: string, data: string): void {
  if (name === '!doctype' && w.f.doctype === null) {
    const raw = data.slice(1);
    const m =
      /^doctype\s+([^\s>]+)(?:\s+public\s+(?:"([^"]*)"|'([^']*)'))?(?:\s*(?:system\s+)?(?:"([^"]*)"|'([^']*)'))?/i.exec(
        raw,
      );
    w.f.doctype = {
      raw,
      name: (m?.[1] ?? '').toLowerCase(),
      publicId: m?.[2] ?? m?.[3] ?? null,
      systemId: m?.[4] ?? m?.[5] ?? null,
      first: !w.seenElement,
    };
  }
}

/** A start tag of the frame or the head (tags.ts: HEAD), with its attributes. */
export function openHeadElement(w: HtmlWalk, name: string, a: Record<string, string>): void {
  const f = w.f;
  switch (name) {
    case 'html':
      if (a.vocab !== undefined) f.hasRdfa = true;
      if (f.htmlLang === null && a.lang !== undefined) f.htmlLang = a.lang;
      if (f.htmlXmlLang === null && a['xml:lang'] !== undefined) f.htmlXmlLang = a['xml:lang'];
      if (f.htmlDir === null && a.dir !== undefined) f.htmlDir = a.dir;
      break;
    case 'body':
      w.startBody();
      break;
    case 'title':
      if (w.svgDepth === 0) w.captures.push({ depth: w.depth, parts: [], target: null });
      break;
    case 'meta': {
      const m: MetaTag = {
        name: lower(a, 'name'),
        property: lower(a, 'property'),
        httpEquiv: lower(a, 'http-equiv'),
        itemprop: attr(a, 'itemprop'),
        content: attr(a, 'content'),
        charset: attr(a, 'charset'),
        inHead: !w.bodyStarted,
      };
      f.metas.push(m);
      break;
    }
    case 'base':
      if (w.baseHref === null && a.href !== undefined) {
        try {
          w.base = new URL(a.href.trim(), w.pageUrl);
          w.baseHref = w.base.href;
          w.resolve = makeResolver(w.base);
        } catch {
          /* an invalid base is ignored */
        }
      }
      break;
    case 'link': {
      const rel = relTokens(a.rel);
      const href = attr(a, 'href');
      const u = w.resolve(href);
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
        inHead: !w.bodyStarted,
      });
      if (!w.bodyStarted && !f.declaresIcon && href !== null && !isBlank(href) && rel.includes('icon'))
        f.declaresIcon = true;
      if (rel.includes('stylesheet')) w.addSub('stylesheet', u, 'link stylesheet');
      else if (rel.includes('preload') || rel.includes('modulepreload')) {
        if (as === 'font') w.addSub('font', u, 'link preload');
        else if (as === 'script' || rel.includes('modulepreload')) w.addSub('script', u, 'link preload');
        else if (as === 'style') w.addSub('stylesheet', u, 'link preload');
        else if (as === 'image') w.addSub('image', u, 'link preload');
        else w.addSub('other', u, 'link preload');
      } else if (rel.includes('icon') || rel.includes('apple-touch-icon')) w.addSub('other', u, 'link icon');
      break;
    }
    case 'script': {
      const type = lower(a, 'type');
      const src = attr(a, 'src');
      const u = w.resolve(src);
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
        inHead: !w.bodyStarted,
        inlineLength: 0,
      };
      f.scripts.push(s);
      if (src !== null && !s.nonExecutable) w.addSub('script', u, 'script src');
      w.rawKind = type === 'application/ld+json' ? 'jsonld' : 'script';
      w.rawScript = s;
      w.rawParts.length = 0;
      break;
    }
    case 'style':
      w.rawStyle = { inHead: !w.bodyStarted, length: 0, media: attr(a, 'media') };
      f.styles.push(w.rawStyle);
      w.rawKind = 'style';
      break;
    default:
      // head: nothing more
      break;
  }
}
