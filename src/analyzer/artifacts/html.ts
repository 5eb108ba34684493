// The one streaming pass over the HTML: htmlparser2's Parser with callbacks, no DOM.
// Everything the checks need from the markup is gathered here, once. The parts: the tables of
// elements and attributes (html/tags.ts), the walk's state and the text (html/state.ts,
// html/text.ts), the head's elements (html/head.ts) and the body's (html/body.ts). This file
// reads each start tag's attributes and hands the tag to its part.
import { Parser } from 'htmlparser2';
import type { HtmlFacts } from './types.js';
import { openBodyElement } from './html/body.js';
import { doctype, openHeadElement } from './html/head.js';
import { HtmlWalk } from './html/state.js';
import { BODY, DEPRECATED, DISPLAY_NONE, HEAD, HEAD_TAGS, READ_ATTRS, TAG_FLAGS } from './html/tags.js';
import { isBlank } from './html/text.js';

export { countWords } from './html/text.js';

/** Parses the HTML once and returns every fact the checks read. `pageUrl` is the final URL. */
export function collectHtml(html: string, pageUrl: URL): HtmlFacts {
  const w = new HtmlWalk(pageUrl);
  const f = w.f;

  // The start tag whose attributes the parser is still reporting; handled at the next event.
  let pendingName: string | null = null;
  let pendingFlags = 0;
  /** all attributes, kept only for the elements flush() looks at (TAG_FLAGS) */
  let pendingAttrs: Record<string, string> | null = null;
  let pStyle = false;
  /** the pending start tag hides itself: `hidden` (not until-found) or an inline display:none */
  let pConcealed = false;
  let pItemscope = false;
  let pItemtype: string | null = null;
  /** the pending start tag's `role`, lower-cased (the main text's regions) */
  let pRole: string | null = null;

  /**
   * A start tag with all its attributes. The parser reports attributes one by one
   * (onattribute) and we act at the next event, so that no attribs object is built for the
   * elements we only count.
   */
  const flush = (): void => {
    const name = pendingName!;
    pendingName = null;
    w.seenElement = true;
    const depth = ++w.depth;
    if (depth > f.maxDepth) f.maxDepth = depth;
    f.elementCount++;
    if (!w.bodyStarted && w.svgDepth === 0 && !HEAD_TAGS.has(name)) w.startBody();
    if (w.bodyStarted) f.bodyElementCount++;
    if (pStyle) {
      f.styleAttrCount++;
      if (f.styleAttrSamples.length < 50) f.styleAttrSamples.push(name);
    }
    if (pConcealed) w.concealedAt.push(depth);
    if (name === 'code') w.codeAt.push(depth);
    if (w.bodyStarted) w.openRegion(name, pRole, depth);
    // itemtype only means something with itemscope
    if (pItemscope) {
      f.hasMicrodata = true;
      if (pItemtype !== null) for (const t of pItemtype.trim().split(/\s+/)) if (t) w.microdata.add(t);
    }
    const a = pendingAttrs;
    if (a === null) return; // most elements (div, span, li, p, td…) need nothing more
    const flags = pendingFlags;
    if ((flags & DEPRECATED) !== 0 && w.svgDepth === 0) {
      f.deprecatedTags[name] = (f.deprecatedTags[name] ?? 0) + 1;
    }
    if ((flags & HEAD) !== 0) openHeadElement(w, name, a);
    else if ((flags & BODY) !== 0) openBodyElement(w, name, a);
  };

  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (pendingName !== null) flush();
        doctype(w, name, data);
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
        pRole = null;
      },

      onattribute(name, value) {
        if (pendingAttrs !== null) {
          // the interned name from the table: a keyed store with an attribute-name slice would look
          // it up in the string table first
          const key = READ_ATTRS.get(name);
          if (key !== undefined && pendingAttrs[key] === undefined) pendingAttrs[key] = value;
        }
        switch (name.length) {
          case 4:
            if (name === 'role') pRole = value.trim().toLowerCase();
            break;
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
        const rawKind = w.rawKind;
        if (rawKind !== null) {
          if (rawKind === 'style') {
            if (w.rawStyle) w.rawStyle.length += data.length;
          } else {
            if (w.rawScript) w.rawScript.inlineLength += data.length;
            if (rawKind === 'jsonld') w.rawParts.push(data);
          }
          return;
        }
        w.text(data);
      },

      onclosetag(name) {
        if (pendingName !== null) flush();
        w.close(name);
      },
    },
    { decodeEntities: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  parser.end();
  if (pendingName !== null) flush();
  return w.end();
}
