// Custom extraction (docs/sites.md, "Custom extraction"): up to MAX_EXTRACTORS named
// extractors per batch, each a CSS selector, an XPath 1.0 expression or a regular expression,
// run over each audited page's HTML (a rendered batch: the rendered HTML its audit used).
//
// - CSS: css-select over htmlparser2's DOM (domhandler), the parser the analyzer uses.
// - XPath: the `xpath` library over an @xmldom/xmldom document copied from that same forgiving
//   parse (xmldom's own parser is XML-strict and refuses most real pages).
// - Regex: re2js, RE2's linear-time engine in JavaScript: no backtracking, so no pattern can
//   take exponential time (backreferences and lookaround are refused: RE2 has none); it reads
//   at most MAX_REGEX_INPUT characters of the raw HTML.
// The DOM is built only when the batch has a CSS or XPath extractor, once per page for all.
import { parseDocument, DomUtils } from 'htmlparser2';
import { selectAll } from 'css-select';
import { DOMImplementation } from '@xmldom/xmldom';
import xpath from 'xpath';
import { RE2JS } from 're2js';

export const MAX_EXTRACTORS = 10;
export const MAX_NAME_CHARS = 40;
/** characters kept of each extracted value */
export const MAX_VALUE_CHARS = 1000;
/** values kept of an `all` extractor */
export const MAX_VALUES = 20;
/** characters of the raw HTML a regex reads (the start of the page) */
export const MAX_REGEX_INPUT = 2_000_000;
export const MAX_EXPRESSION_CHARS = 1000;

/** An extractor as a batch stores it and a request gives it (snake_case is its own). */
export interface Extractor {
  name: string;
  css?: string;
  xpath?: string;
  regex?: string;
  /** css/xpath: the attribute's value instead of the element's text */
  attribute?: string;
  /** every match (an array of values), not only the first */
  all?: boolean;
}

/** A page's values: name → the first match (null: none), or every match with `all`. */
export type Extracted = Record<string, string | string[] | null>;

/** A name is a CSV column: letters, digits, space, `_`, `-` and `.`, starting with a letter or digit. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]*$/;

type Dom = ReturnType<typeof parseDocument>;
type DomNode = Dom['children'][number];
type DomElement = Extract<DomNode, { type: 'tag' | 'script' | 'style' }>;

const clip = (s: string) => (s.length > MAX_VALUE_CHARS ? s.slice(0, MAX_VALUE_CHARS) : s);
const squash = (s: string) => clip(s.replace(/\s+/g, ' ').trim());
const kinds = (e: Extractor) =>
  (['css', 'xpath', 'regex'] as const).filter((k) => e[k] !== undefined && e[k] !== null);

const xmlImpl = new DOMImplementation();
/** a tiny document the expressions are tried on (unknown functions fail only when evaluated) */
const probeDoc = () => toXml(parseDocument('<html><body><p class="a" id="b">x</p></body></html>'));

/**
 * Checks a list of extractors: errors by field (`extractors.2.xpath`, the API's dotted
 * convention) saying why; the extractors as stored (trimmed) when there are none.
 */
export function checkExtractors(
  given: readonly Extractor[],
  errors: Record<string, string[]>,
  field = 'extractors',
  /** names taken: the export's own columns (contract/batches/schemas.ts CSV_COLUMNS) */
  reserved: readonly string[] = [],
): Extractor[] {
  if (given.length > MAX_EXTRACTORS) {
    errors[field] = [`The ${field} may not have more than ${MAX_EXTRACTORS} items.`];
    return [];
  }
  const out: Extractor[] = [];
  const seen = new Set<string>();
  let probe: ReturnType<typeof probeDoc> | null = null;
  for (const [i, e] of given.entries()) {
    const at = `${field}.${i}`;
    const name = typeof e.name === 'string' ? e.name.trim() : '';
    if (name === '') errors[`${at}.name`] = [`The ${at}.name field is required.`];
    else if (name.length > MAX_NAME_CHARS || !NAME.test(name))
      errors[`${at}.name`] = [
        `The ${at}.name must be 1 to ${MAX_NAME_CHARS} letters, digits, spaces, "_", "-" or "." (it names a CSV column), starting with a letter or digit.`,
      ];
    else if (reserved.includes(name.toLowerCase()))
      errors[`${at}.name`] = [
        `The ${at}.name "${name}" is a column the exports already have (${reserved.join(', ')}): choose another.`,
      ];
    else if (seen.has(name.toLowerCase()))
      errors[`${at}.name`] = [`The ${at}.name "${name}" is used twice: each extractor's name is unique.`];
    seen.add(name.toLowerCase());
    const k = kinds(e);
    if (k.length !== 1) {
      errors[at] = [
        `The ${at} must have exactly one of css, xpath or regex${k.length > 1 ? ` (it has ${k.join(' and ')})` : ''}.`,
      ];
      continue;
    }
    const kind = k[0]!;
    const expr = String(e[kind]);
    const where = `${at}.${kind}`;
    if (expr.trim() === '') {
      errors[where] = [`The ${where} field is required.`];
      continue;
    }
    if (expr.length > MAX_EXPRESSION_CHARS) {
      errors[where] = [`The ${where} must not be longer than ${MAX_EXPRESSION_CHARS} characters.`];
      continue;
    }
    try {
      if (kind === 'css') selectAll(expr, parseDocument('<p></p>'));
      else if (kind === 'xpath') xpath.select(expr, (probe ??= probeDoc()) as unknown as Node);
      else RE2JS.compile(expr);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const what =
        kind === 'css'
          ? 'CSS selector'
          : kind === 'xpath'
            ? 'XPath 1.0 expression'
            : 'regular expression (RE2 syntax: no backreferences or lookaround)';
      errors[where] = [`The ${where} is not a valid ${what}: ${why.slice(0, 200)}.`];
      continue;
    }
    if (kind === 'regex' && e.attribute !== undefined) {
      errors[`${at}.attribute`] = [
        `The ${at}.attribute applies to css and xpath only (a regex gives its first capture group, or the whole match).`,
      ];
      continue;
    }
    const x: Extractor = { name, [kind]: expr };
    if (e.attribute !== undefined) {
      const a = e.attribute.trim();
      if (a === '' || /[\s"'>/=]/.test(a)) {
        errors[`${at}.attribute`] = [
          `The ${at}.attribute must be an attribute name such as content or href.`,
        ];
        continue;
      }
      x.attribute = a.toLowerCase();
    }
    if (e.all === true) x.all = true;
    out.push(x);
  }
  return out;
}

/** The htmlparser2 document copied into an xmldom document (names lower-cased, no namespace). */
function toXml(dom: Dom) {
  const doc = xmlImpl.createDocument(null, '');
  const copy = (from: readonly DomNode[], to: { appendChild(n: unknown): unknown }) => {
    for (const n of from) {
      if (n.type === 'text') to.appendChild(doc.createTextNode(n.data));
      else if (n.type === 'tag' || n.type === 'script' || n.type === 'style') {
        let el;
        try {
          el = doc.createElement(n.name.toLowerCase());
        } catch {
          copy(n.children, to); // a name XML refuses: its content stays in place
          continue;
        }
        for (const [k, v] of Object.entries(n.attribs)) {
          try {
            el.setAttribute(k.toLowerCase(), v);
          } catch {
            // an attribute name XML refuses (`@click`): left out
          }
        }
        copy(n.children, el);
        to.appendChild(el);
      }
    }
  };
  // the root: one element (a fragment's several tops go under an <html>)
  const tops = dom.children.filter((n) => n.type === 'tag');
  if (tops.length === 1) copy(tops, doc);
  else {
    const html = doc.createElement('html');
    copy(dom.children, html);
    doc.appendChild(html);
  }
  return doc;
}

function xpathValues(expr: string, doc: ReturnType<typeof toXml>, attribute?: string): string[] {
  const r = xpath.select(expr, doc as unknown as Node);
  if (!Array.isArray(r)) return r === null || r === undefined ? [] : [squash(String(r))];
  const out: string[] = [];
  for (const n of r) {
    if (xpath.isElement(n)) {
      if (attribute !== undefined) {
        if (n.hasAttribute(attribute)) out.push(squash(n.getAttribute(attribute) ?? ''));
      } else out.push(squash(n.textContent ?? ''));
    } else if (xpath.isAttribute(n)) out.push(squash(n.value));
    else out.push(squash(n.textContent ?? n.nodeValue ?? ''));
    if (out.length >= MAX_VALUES) break;
  }
  return out;
}

function cssValues(expr: string, dom: Dom, attribute?: string): string[] {
  const out: string[] = [];
  for (const el of selectAll(expr, dom as unknown as DomNode) as unknown as DomElement[]) {
    if (attribute !== undefined) {
      const v = DomUtils.getAttributeValue(el, attribute);
      if (v !== undefined) out.push(squash(v));
    } else out.push(squash(DomUtils.textContent(el)));
    if (out.length >= MAX_VALUES) break;
  }
  return out;
}

function regexValues(expr: string, html: string, all: boolean): string[] {
  const re = RE2JS.compile(expr);
  const m = re.matcher(html.length > MAX_REGEX_INPUT ? html.slice(0, MAX_REGEX_INPUT) : html);
  const group = re.groupCount() >= 1 ? 1 : 0;
  const out: string[] = [];
  while (m.find()) {
    out.push(clip(m.group(group) ?? ''));
    if (!all || out.length >= MAX_VALUES) break;
  }
  return out;
}

/**
 * One page's HTML as the extractors read it: the DOM (htmlparser2) and its XPath copy, each
 * built the first time an extractor needs it, once for all of them.
 */
export class ExtractionPage {
  private dom: Dom | null = null;
  private xml: ReturnType<typeof toXml> | null = null;
  constructor(readonly html: string) {}

  /** Builds what the extractors will read (the DOM for css and xpath, its XPath copy for xpath). */
  prepare(extractors: readonly Extractor[]): void {
    if (extractors.some((e) => e.css !== undefined || e.xpath !== undefined))
      this.dom ??= parseDocument(this.html);
    if (extractors.some((e) => e.xpath !== undefined))
      this.xml ??= toXml((this.dom ??= parseDocument(this.html)));
  }

  /** One extractor's values on the page (an expression that fails on it: none). */
  values(e: Extractor): string[] {
    try {
      if (e.css !== undefined) return cssValues(e.css, (this.dom ??= parseDocument(this.html)), e.attribute);
      if (e.xpath !== undefined)
        return xpathValues(
          e.xpath,
          (this.xml ??= toXml((this.dom ??= parseDocument(this.html)))),
          e.attribute,
        );
      return regexValues(e.regex ?? '', this.html, e.all === true);
    } catch {
      // an expression that fails on this page only (an XPath function given the wrong type)
      return [];
    }
  }
}

/** An extractor's values as a page keeps them: the first match (null: none), or every match with `all`. */
export const keptValue = (e: Extractor, values: readonly string[]): string | string[] | null =>
  e.all ? [...values] : (values[0] ?? null);

/** A value as a CSV cell: an `all` extractor's values joined with " | ". */
export const extractedCell = (v: string | string[] | null | undefined): string | null =>
  v === null || v === undefined ? null : Array.isArray(v) ? v.join(' | ') : v;

/**
 * One extractor written on a line (the dashboard's box, `pagegrade crawl --extract`):
 * `NAME[@ATTRIBUTE][*]=css|xpath|regex:EXPRESSION` — `price=css:.price`,
 * `og@content=css:meta[property="og:type"]`, `tags*=xpath://a[@rel="tag"]`. A line that does
 * not parse gives an extractor the checks refuse (naming its field).
 */
export function parseExtractorLine(line: string): Extractor {
  const eq = line.indexOf('=');
  const left = (eq === -1 ? line : line.slice(0, eq)).trim();
  const right = eq === -1 ? '' : line.slice(eq + 1).trim();
  const m = /^([^@*]*?)\s*(?:@\s*([^*\s]+))?\s*(\*)?$/.exec(left);
  const out: Extractor = { name: m ? m[1]! : left };
  if (m?.[2] !== undefined) out.attribute = m[2];
  if (m?.[3] !== undefined) out.all = true;
  const k = /^(css|xpath|regex)\s*:/i.exec(right);
  if (k) out[k[1]!.toLowerCase() as 'css' | 'xpath' | 'regex'] = right.slice(k[0].length).trim();
  return out;
}

/** The line that parseExtractorLine reads back. */
export function extractorLine(e: Extractor): string {
  const kind = e.css !== undefined ? 'css' : e.xpath !== undefined ? 'xpath' : 'regex';
  return `${e.name}${e.attribute !== undefined ? `@${e.attribute}` : ''}${e.all ? '*' : ''}=${kind}:${e[kind] ?? ''}`;
}
