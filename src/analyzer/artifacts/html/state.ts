// The HTML pass's state: the facts being gathered and where the walk is — element depth, whether
// the body has started, what hides text (script, svg, noscript, hidden elements), the open
// <code> and <picture>, the raw text of a script or style, the text captured for open titles,
// headings and anchors, and the visible text. One object, read and written by the parser's
// callbacks (html.ts) and the element handlers (head.ts, body.ts).
import type { Anchor, HtmlFacts, ScriptTag, StyleBlock, SubresourceRef } from '../types.js';
import { makeResolver, type Resolved } from '../resolve.js';
import { stripWww } from '../../url.js';
import { INLINE_TAGS } from './tags.js';
import { addEmails, addEmailsAround, collapse, isBlank, textStats } from './text.js';

/** the ARIA landmark roles of a site's template (boilerplate, not the page's own text) */
const TEMPLATE_ROLES: ReadonlySet<string> = new Set([
  'banner',
  'navigation',
  'contentinfo',
  'complementary',
  'search',
]);

/** A capture collects text for an element still open (title, heading, anchor). */
export interface Capture {
  depth: number;
  parts: string[];
  /** where the text goes: a heading or an anchor (filled in place), or null for a title */
  target: { text: string } | null;
  /** an anchor's: some of its text came from outside any <code> element */
  plain?: boolean;
}

export class HtmlWalk {
  readonly f: HtmlFacts;
  /** the page's host without `www.` (internal links) */
  readonly pageHost: string;
  /** the URL relative references resolve against: the first <base href>, else the page's */
  base: URL;
  baseHref: string | null = null;
  resolve: (raw: string | null) => Resolved | null;

  // where the walk is
  depth = 0;
  bodyStarted = false;
  seenElement = false;
  /** inside script/style/template/noscript/svg/head-only content: text is not visible */
  hidden = 0;
  svgDepth = 0;
  noscriptDepth = 0;
  /** the depths of the elements that increased `hidden`, to undo on close */
  readonly hiddenAt: number[] = [];
  /** depths of the open elements hidden by a `hidden` attribute or an inline display:none */
  readonly concealedAt: number[] = [];
  /** depths of the open <code> elements */
  readonly codeAt: number[] = [];
  pictureDepth = -1;
  pictureSources: string[] = [];
  /** the srcset attributes of the <source> elements of the open <picture> */
  pictureSrcsets: string[] = [];

  /** the open element whose text we collect raw: script, style */
  rawKind: 'script' | 'jsonld' | 'style' | null = null;
  rawScript: ScriptTag | null = null;
  rawStyle: StyleBlock | null = null;
  readonly rawParts: string[] = [];

  // text
  readonly captures: Capture[] = [];
  /** anchors whose text is being captured (a subset of captures) */
  anchorCaptures = 0;
  /** the visible text of the body, in chunks */
  readonly textParts: string[] = [];
  /** depths of the open template regions (nav, aside, a page-level header or footer, their roles) */
  readonly templateAt: number[] = [];
  /** depths of the open content sections (article, section, main): a header inside is content */
  readonly sectionAt: number[] = [];
  /** depths of the open <main> (or role=main) elements */
  readonly mainAt: number[] = [];
  /** a <main> (or role=main) was seen: the main text is its text */
  sawMain = false;
  /** the visible text outside the template regions, and inside <main> (the main text) */
  readonly outsideParts: string[] = [];
  readonly mainParts: string[] = [];
  /** a word boundary is due before the next text (an element other than an inline one ended) */
  needSpace = false;
  readonly emails = new Set<string>();
  readonly microdata = new Set<string>();

  constructor(readonly pageUrl: URL) {
    this.pageHost = stripWww(pageUrl.hostname);
    this.base = pageUrl;
    this.resolve = makeResolver(pageUrl);
    this.f = {
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
      mainText: '',
      textLength: 0,
      wordCount: 0,
      emails: [],
      microdataTypes: [],
      hasMicrodata: false,
      hasRdfa: false,
      hasBody: false,
    };
  }

  startBody(): void {
    if (!this.bodyStarted) {
      this.bodyStarted = true;
      this.f.hasBody = true;
    }
  }

  addSub(kind: SubresourceRef['kind'], u: Resolved | null, from: string): void {
    if (u === null) return;
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return;
    this.f.subresources.push({ kind, url: u.href, from });
  }

  addEmailsFrom(s: string): void {
    addEmails(this.emails, s);
  }

  /** text outside <code> reached the open anchors' captures */
  markPlain(): void {
    for (const c of this.captures) if (c.plain === false) c.plain = true;
  }

  /** `text` goes to the open captures (an <img alt> with spaces around it, or a text chunk) */
  capture(text: string, spaced: boolean): void {
    if (spaced) for (const c of this.captures) c.parts.push(' ', text, ' ');
    else for (const c of this.captures) c.parts.push(text);
    if (this.anchorCaptures > 0 && this.codeAt.length === 0 && !isBlank(text)) this.markPlain();
  }

  private finish(c: Capture): void {
    const text = collapse(c.parts);
    if (c.target === null) this.f.titles.push(text);
    else c.target.text = text;
    if (c.plain !== undefined) {
      this.anchorCaptures--;
      // text captured only inside <code>: the link's text is code
      if (!c.plain && text !== '') (c.target as Anchor).codeText = true;
    }
  }

  /** A text chunk outside script and style. */
  text(data: string): void {
    if (this.captures.length > 0) this.capture(data, false);
    if (this.hidden === 0 && this.bodyStarted) {
      // a blank chunk only separates words; the counts come from one loop over the joined
      // text at the end (a flat string: much cheaper to read than the sliced chunks)
      if (isBlank(data)) {
        this.needSpace = true;
        return;
      }
      if (this.needSpace) {
        this.textParts.push(' ');
        this.outsideParts.push(' ');
        this.mainParts.push(' ');
        this.needSpace = false;
      }
      this.textParts.push(data);
      if (this.templateAt.length === 0) {
        this.outsideParts.push(data);
        if (this.mainAt.length > 0) this.mainParts.push(data);
      }
    }
  }

  /**
   * An element opens: the regions of the main text. A template region (nav, aside, a header or
   * footer outside any article/section/main, and the landmark roles banner, navigation,
   * contentinfo, complementary, search) is boilerplate every page of a site repeats; a <main>
   * (or role=main), when the page has one, is the main text.
   */
  openRegion(name: string, role: string | null, depth: number): void {
    if (name === 'main' || role === 'main') {
      this.mainAt.push(depth);
      this.sawMain = true;
    }
    if (name === 'article' || name === 'section' || name === 'main') this.sectionAt.push(depth);
    if (
      name === 'nav' ||
      name === 'aside' ||
      ((name === 'header' || name === 'footer') && this.sectionAt.length === 0) ||
      (role !== null && TEMPLATE_ROLES.has(role))
    )
      this.templateAt.push(depth);
  }

  /** An end tag: what was open at this depth closes. */
  close(name: string): void {
    const depth = this.depth;
    if (this.rawKind !== null && (name === 'script' || name === 'style')) {
      if (this.rawKind === 'jsonld') this.f.jsonLd.push(this.rawParts.join(''));
      this.rawKind = null;
      this.rawScript = null;
      this.rawStyle = null;
    }
    if (name === 'head') this.startBody();
    const captures = this.captures;
    while (captures.length > 0 && captures[captures.length - 1]!.depth >= depth) this.finish(captures.pop()!);
    const hiddenAt = this.hiddenAt;
    while (hiddenAt.length > 0 && hiddenAt[hiddenAt.length - 1]! >= depth) {
      hiddenAt.pop();
      this.hidden--;
      if (name === 'svg') this.svgDepth--;
      else if (name === 'noscript') this.noscriptDepth--;
    }
    const concealedAt = this.concealedAt;
    while (concealedAt.length > 0 && concealedAt[concealedAt.length - 1]! >= depth) concealedAt.pop();
    const codeAt = this.codeAt;
    while (codeAt.length > 0 && codeAt[codeAt.length - 1]! >= depth) codeAt.pop();
    for (const at of [this.templateAt, this.sectionAt, this.mainAt])
      while (at.length > 0 && at[at.length - 1]! >= depth) at.pop();
    if (this.pictureDepth === depth) this.pictureDepth = -1;
    // element boundaries (but not inline ones) separate words in the text
    if (!this.needSpace && this.bodyStarted && this.hidden === 0 && !INLINE_TAGS.has(name))
      this.needSpace = true;
    this.depth = depth - 1;
  }

  /** The end of the document: what is still open ends, and the text's counts are taken. */
  end(): HtmlFacts {
    const f = this.f;
    // unterminated captures (missing </title> etc.)
    while (this.captures.length > 0) this.finish(this.captures.pop()!);
    if (this.rawKind === 'jsonld') f.jsonLd.push(this.rawParts.join(''));
    // svg/noscript counters may be left unbalanced by broken markup; that is fine here.
    f.baseHref = this.baseHref;
    f.baseUrl = this.base.href;
    f.text = this.textParts.join('');
    const at: number[] = [];
    const stats = textStats(f.text, at);
    f.textLength = stats.length;
    f.mainText = (this.sawMain ? this.mainParts : this.outsideParts).join('');
    f.wordCount = stats.words;
    addEmailsAround(this.emails, f.text, at);
    f.emails = [...this.emails];
    f.microdataTypes = [...this.microdata];
    return f;
  }
}
