// What a stylesheet makes a browser load besides itself, as a batch's check step reads it
// (docs/sites.md "Links and resources checked"): the font files of its `@font-face` rules (the
// `url(…)`s of their `src` descriptors, in any block — inside `@media`, `@supports`, `@layer`)
// and the stylesheets it `@import`s. Tokenized by @csstools/css-tokenizer (CSS Syntax Level 3:
// comments, strings, escapes and `url()` as a browser reads them); `local()`, `format()`,
// `tech()` and data: URLs are not files to fetch.
import { tokenize, TokenType, type CSSToken } from '@csstools/css-tokenizer';
import { absoluteHttpUrl } from './url.js';

/** the most font files, and the most @imports, kept from one stylesheet */
export const MAX_STYLESHEET_REFS = 50;

export interface StylesheetRefs {
  /** the font files its @font-face rules name: absolute http(s) URLs, fragment dropped, each once */
  fonts: string[];
  /** the stylesheets it @imports (top level only, as CSS allows), the same way */
  imports: string[];
}

const absolute = absoluteHttpUrl;

const skip = (t: CSSToken) => t[0] === TokenType.Whitespace || t[0] === TokenType.Comment;
/** an ident's, a function's or an at-keyword's name, lower-cased ('' for any other token) */
const lower = (t: CSSToken) =>
  t[0] === TokenType.Ident || t[0] === TokenType.Function || t[0] === TokenType.AtKeyword
    ? t[4].value.toLowerCase()
    : '';

/**
 * The URL a value names at token `i`: a url token (`url(a.woff2)`), or `url("a.woff2")` /
 * `src("…")` (a function token and its string) — with where the URL's tokens end.
 */
function urlAt(tokens: CSSToken[], i: number): { url: string; next: number } | null {
  const t = tokens[i]!;
  if (t[0] === TokenType.URL) return { url: t[4].value, next: i + 1 };
  if (t[0] === TokenType.Function && (lower(t) === 'url' || lower(t) === 'src')) {
    let j = i + 1;
    while (j < tokens.length && skip(tokens[j]!)) j++;
    const s = tokens[j];
    if (s && s[0] === TokenType.String) return { url: s[4].value, next: j + 1 };
  }
  return null;
}

/** The font files and @imports of a stylesheet whose URL is `base`. */
export function stylesheetRefs(css: string, base: string): StylesheetRefs {
  const tokens = tokenize({ css });
  const fonts = new Set<string>();
  const imports = new Set<string>();
  const add = (set: Set<string>, href: string) => {
    if (set.size >= MAX_STYLESHEET_REFS) return;
    const u = absolute(href, base);
    if (u !== null) set.add(u);
  };
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t[0] === TokenType.OpenCurly) depth++;
    else if (t[0] === TokenType.CloseCurly) depth = Math.max(0, depth - 1);
    else if (t[0] === TokenType.AtKeyword && lower(t) === 'import' && depth === 0) {
      // @import url(x) …; / @import "x" …;: the first URL or string, up to the semicolon
      for (let j = i + 1; j < tokens.length; j++) {
        const u = tokens[j]!;
        if (u[0] === TokenType.Semicolon || u[0] === TokenType.OpenCurly) break;
        if (skip(u)) continue;
        const found = u[0] === TokenType.String ? u[4].value : urlAt(tokens, j)?.url;
        if (found !== undefined) add(imports, found);
        break;
      }
    } else if (t[0] === TokenType.AtKeyword && lower(t) === 'font-face') {
      i = fontFace(tokens, i + 1, (href) => add(fonts, href));
    }
  }
  return { fonts: [...fonts], imports: [...imports] };
}

/**
 * Reads one @font-face rule from `start` (its prelude, then its block): each URL of its `src`
 * declarations goes to `found`. Returns the index of the block's closing brace (or the end).
 */
function fontFace(tokens: CSSToken[], start: number, found: (href: string) => void): number {
  let i = start;
  while (i < tokens.length && tokens[i]![0] !== TokenType.OpenCurly) {
    // a @font-face without a block (ended by a semicolon) names nothing
    if (tokens[i]![0] === TokenType.Semicolon) return i;
    i++;
  }
  let depth = 0;
  let atDeclarationStart = true;
  let inSrc = false;
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    const type = t[0];
    if (type === TokenType.OpenCurly || type === TokenType.OpenParen || type === TokenType.OpenSquare) {
      depth++;
      if (type === TokenType.OpenCurly && depth === 1) atDeclarationStart = true;
      continue;
    }
    if (type === TokenType.Function) {
      const u = inSrc ? urlAt(tokens, i) : null;
      if (u) {
        found(u.url);
        // url("…") leaves its closing parenthesis to the loop (the function opened a level)
      }
      depth++;
      continue;
    }
    if (type === TokenType.CloseCurly || type === TokenType.CloseParen || type === TokenType.CloseSquare) {
      depth--;
      if (depth === 0) return i;
      continue;
    }
    if (skip(t)) continue;
    if (depth === 1 && type === TokenType.Semicolon) {
      atDeclarationStart = true;
      inSrc = false;
      continue;
    }
    if (depth === 1 && atDeclarationStart) {
      atDeclarationStart = false;
      // a declaration: its name, then a colon
      let j = i + 1;
      while (j < tokens.length && skip(tokens[j]!)) j++;
      inSrc = type === TokenType.Ident && lower(t) === 'src' && tokens[j]?.[0] === TokenType.Colon;
      continue;
    }
    if (inSrc && type === TokenType.URL) found(t[4].value);
  }
  return i;
}
