// Generic link text ("click here", "read more", "hier klicken"…) tells search engines nothing
// about the target. The phrase list is chosen by the link's lang attribute, else the page's
// <html lang>; with neither (or a language we have no list for) every list applies.
// Skipped like Lighthouse's link-text: nofollow links, non-http(s) links, links to this page.
// A link whose text is code (inside <code>, or all of it in <code>) is never judged generic.
import type { CheckDefinition } from '../types.js';
import { agree, clip, plural, tableDetails } from '../types.js';

const GENERIC: Record<string, ReadonlySet<string>> = {
  en: new Set([
    'click here',
    'click this',
    'go',
    'here',
    'information',
    'learn more',
    'more',
    'more info',
    'more information',
    'right here',
    'read more',
    'see more',
    'start',
    'this',
    'link',
    'this link',
    'continue',
    'continue reading',
    'find out more',
    'details',
    'more details',
    'click',
    'view more',
    'read',
    'see here',
    'tap here',
  ]),
  de: new Set([
    'klicke hier',
    'hier klicken',
    'klicken sie hier',
    'hier',
    'mehr',
    'siehe',
    'dies',
    'das',
    'weiterlesen',
    'weiter',
    'mehr erfahren',
    'mehr lesen',
    'mehr infos',
    'mehr info',
    'mehr informationen',
    'link',
    'dieser link',
    'details',
    'hier entlang',
    'zum artikel',
  ]),
  fr: new Set([
    'cliquez ici',
    'cliquer ici',
    'clique ici',
    'ici',
    'plus',
    'en savoir plus',
    'lire la suite',
    'lire plus',
    'voir plus',
    "plus d'infos",
    "plus d'informations",
    'plus d’infos',
    'plus d’informations',
    'lien',
    'ce lien',
    'suite',
    'la suite',
    'en lire plus',
    'détails',
    'voir',
    'cliquez',
  ]),
  es: new Set([
    'click aquí',
    'click aqui',
    'clicka aquí',
    'clicka aqui',
    'pincha aquí',
    'pincha aqui',
    'haz clic aquí',
    'haz clic aqui',
    'haga clic aquí',
    'haga clic aqui',
    'aquí',
    'aqui',
    'más',
    'mas',
    'más información',
    'más informacion',
    'mas información',
    'mas informacion',
    'este',
    'enlace',
    'este enlace',
    'empezar',
    'leer más',
    'leer mas',
    'ver más',
    'ver mas',
    'saber más',
    'saber mas',
    'seguir leyendo',
    'detalles',
  ]),
  pt: new Set([
    'clique aqui',
    'clica aqui',
    'aqui',
    'ir',
    'mais informação',
    'mais informações',
    'mais informacao',
    'mais informacoes',
    'mais',
    'veja mais',
    'ver mais',
    'saiba mais',
    'leia mais',
    'continue lendo',
    'continuar a ler',
    'este link',
    'link',
    'detalhes',
  ]),
  it: new Set([
    'clicca qui',
    'clicca qua',
    'qui',
    'qua',
    'di più',
    'di piu',
    'leggi di più',
    'leggi di piu',
    'scopri di più',
    'scopri di piu',
    'altro',
    'leggi tutto',
    'leggi',
    'maggiori informazioni',
    'ulteriori informazioni',
    'continua a leggere',
    'vedi di più',
    'vedi di piu',
    'vedi altro',
    'questo link',
    'link',
    'dettagli',
  ]),
  nl: new Set([
    'klik hier',
    'hier',
    'meer',
    'lees meer',
    'meer info',
    'meer informatie',
    'lees verder',
    'verder lezen',
    'bekijk meer',
    'deze link',
    'link',
    'details',
    'klik',
    'verder',
  ]),
  sv: new Set(['här', 'klicka här', 'läs mer', 'mer', 'mer info', 'mer information']),
};
const ALL = Object.values(GENERIC);
const LONGEST = Math.max(...ALL.flatMap((l) => [...l].map((p) => p.length)));

// «»‹›→←…•· written as escapes: the bundled CLI is ASCII-only (scripts/build.mjs), and esbuild
// leaves the characters of a regular expression literal as they are
const TRIM_ENDS =
  /^[\s"'\u00ab\u00bb\u2039\u203a\u2192\u2190>\u2026:.!?|\u2022\u00b7()[\]-]+|[\s"'\u00ab\u00bb\u2039\u203a\u2192\u2190>\u2026:.!?|\u2022\u00b7()[\]-]+$/g;

/** Trims quotes, arrows and trailing punctuation ("Read more »" → "read more"). */
export function normalizeLinkText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').replace(TRIM_ENDS, '');
}

/** JavaScript's \s (what normalizeLinkText collapses and trims) */
function isJsSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** the characters normalizeLinkText trims from both ends besides \s */
const TRIM_CHARS: ReadonlySet<number> = new Set([...'"\'«»‹›→←>…:.!?|•·()[]-'].map((ch) => ch.charCodeAt(0)));

function isTrim(c: number): boolean {
  return isJsSpace(c) || TRIM_CHARS.has(c);
}

/**
 * normalizeLinkText(text) when it can be a listed phrase, or '' / a longer string when it cannot:
 * finds the ends by index and lower-cases only what is between them (no regex for the usual
 * texts; anything with whitespace other than single spaces takes normalizeLinkText itself).
 * Lower-casing never turns a character into or out of the trimmed set, so trimming first is the same.
 */
function termOf(text: string): string {
  let i = 0;
  let j = text.length;
  while (i < j && isTrim(text.charCodeAt(i))) i++;
  while (j > i && isTrim(text.charCodeAt(j - 1))) j--;
  if (i === j) return '';
  for (let k = i; k < j; k++) {
    const c = text.charCodeAt(k);
    if (c === 32 ? text.charCodeAt(k + 1) === 32 : isJsSpace(c)) return normalizeLinkText(text);
  }
  // lower-casing never shortens: a longer core cannot be a phrase
  if (j - i > LONGEST) return text;
  return text.slice(i, j).toLowerCase();
}

/** The phrase lists for a language tag: its own list, or every list when unknown. */
function listsFor(lang: string | null): readonly ReadonlySet<string>[] {
  const primary = lang ? (lang.trim().toLowerCase().split(/[-_]/)[0] ?? '') : '';
  const list = GENERIC[primary];
  return list ? [list] : ALL;
}

/** Whether the text is generic in the given language (primary subtag), or in any language when unknown. */
export function isGeneric(
  text: string,
  lang: string | null,
  lists: readonly ReadonlySet<string>[] = listsFor(lang),
): boolean {
  if (text.length > LONGEST + 8) return false; // cheap: longer texts cannot be a listed phrase
  const term = termOf(text);
  if (term === '' || term.length > LONGEST) return false;
  for (const l of lists) if (l.has(term)) return true;
  return false;
}

function isFullUrl(text: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

const check: CheckDefinition = {
  id: 'link_text',
  category: 'seo',
  priority: 'medium',
  title: 'Links have descriptive text',
  failTitle: 'Some links have generic text',
  howToFix:
    'Write link text that says where the link goes ("Pricing for teams", "Read the 2024 annual report") instead of "click here", "read more" or a bare URL; search engines and screen readers use it to understand the target.',
  failsWhen:
    'more links than allowed have generic text ("click here", "read more", "hier klicken", "en savoir plus"…) or a bare URL as text. A link whose text is code (inside `<code>`, or all of it in `<code>`: "`link`", "`details`" in technical documentation) is never generic',
  needsContent: true,
  thresholds: {
    max_generic: { default: 0, description: 'links with generic text allowed' },
  },
  run(a, t) {
    const max = t.max_generic ?? 0;
    const page = a.finalUrlParsed.href;
    const hash = page.indexOf('#');
    const pageKey = hash === -1 ? page : page.slice(0, hash);
    const keyLength = pageKey.length;
    const pageLang = a.htmlLang;
    const pageLists = listsFor(pageLang);
    const rows: (string | null)[][] = [];
    let judged = 0;
    for (const x of a.anchors) {
      if (x.url === null || (x.protocol !== 'http:' && x.protocol !== 'https:')) continue;
      if (x.rel.length > 0 && x.rel.includes('nofollow')) continue;
      // in-page links: the page itself or "page#…" (the length and "#" first: startsWith is slow on
      // the sliced strings attribute values are)
      const u = x.url;
      if (
        u.length === keyLength
          ? u === pageKey
          : u.length > keyLength && u.charCodeAt(keyLength) === 35 && u.startsWith(pageKey)
      )
        continue;
      const text = x.text;
      if (text === '') continue;
      judged++;
      const lang = x.lang ?? pageLang;
      if (text.charCodeAt(0) === 104 && isFullUrl(text))
        rows.push([clip(x.url, 100), clip(text, 80), lang, 'a bare URL']);
      // text that is code (element names such as "link" or "details" in documentation) is not prose
      else if (!x.codeText && isGeneric(text, lang, x.lang === null ? pageLists : listsFor(x.lang))) {
        rows.push([clip(x.url, 100), clip(text, 80), lang, 'generic']);
      }
    }
    if (judged === 0) return 'not_applicable';
    const details = rows.length ? tableDetails(['href', 'text', 'lang', 'problem'], rows) : undefined;
    const examples = [...new Set(rows.map((r) => `"${r[1]}"`))].slice(0, 5).join(', ');
    if (rows.length > max) {
      return {
        passed: false,
        message: `${rows.length} of ${plural(judged, 'link')} ${agree(rows.length, 'has', 'have')} generic text (${examples})${max > 0 ? `; at most ${max} allowed` : ''}.`,
        value: rows.length,
        ...(details ? { details } : {}),
      };
    }
    return {
      passed: true,
      message:
        rows.length === 0
          ? judged === 1
            ? 'The only link has descriptive text.'
            : `All ${judged} links have descriptive text.`
          : `${rows.length} of ${plural(judged, 'link')} ${agree(rows.length, 'has', 'have')} generic text (${examples}), within the ${max} allowed.`,
      value: rows.length,
      ...(details ? { details } : {}),
    };
  },
};

export default check;
