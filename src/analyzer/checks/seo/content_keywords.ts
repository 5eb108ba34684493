import { agree, plural, type CheckDefinition } from '../types.js';

/** Common function words in the languages we see most; they say nothing about the topic. */
const STOPWORDS = new Set(
  (
    'the and for with from that this your you are our was were has have had not but all any can will its into out ' +
    'about more most what when where who why how than then them they their there here home page welcome ' +
    'les des une pour avec dans sur par est aux ces son ses qui que pas plus ' +
    'der die das und mit für von den dem des ein eine ist auf bei aus ' +
    'los las una con para por del que más como ' +
    'il lo gli della delle con per che non una ' +
    'het een van met voor niet ' +
    'com para uma dos das não'
  ).split(' '),
);

function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  return c > 0xbf && !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f);
}

/** Whether `word` occurs in `hay` as a whole word (both lower-cased). */
function containsWord(hay: string, word: string): boolean {
  let from = 0;
  for (;;) {
    const i = hay.indexOf(word, from);
    if (i === -1) return false;
    const before = i === 0 ? 32 : hay.charCodeAt(i - 1);
    const after = i + word.length >= hay.length ? 32 : hay.charCodeAt(i + word.length);
    // CJK has no spaces: a substring match is a match
    if ((!isWordChar(before) && !isWordChar(after)) || word.charCodeAt(0) >= 0x3000) return true;
    from = i + 1;
  }
}

/** characters of text searched first */
const WINDOW = 10_000;

export function titleWords(title: string, minLength: number): string[] {
  const out: string[] = [];
  const lower = title.toLowerCase();
  // a printable-ASCII title splits on the ASCII class: the same words, without compiling the Unicode
  // property classes (~25 ms at their first use in a fresh process, e.g. a CLI audit)
  const words = /^[ -~]*$/.test(lower) ? lower.split(/[^a-z0-9]+/) : lower.split(/[^\p{L}\p{N}]+/u);
  for (const w of words) {
    if (w === '' || STOPWORDS.has(w)) continue;
    // ideographic words are meaningful even when short
    if ([...w].length < minLength && w.charCodeAt(0) < 0x3000) continue;
    if (!out.includes(w)) out.push(w);
  }
  return out;
}

const check: CheckDefinition = {
  id: 'content_keywords',
  category: 'seo',
  priority: 'high',
  title: "The title's keywords appear in the page's content",
  failTitle: "The title's keywords do not appear in the page's content",
  howToFix:
    'Use the main words of the title in the visible text of the page, so that the title and the content agree about what the page is for.',
  failsWhen:
    "none of the title's words appear, as whole words, in the visible text. Stopwords (en, fr, de, es, it, nl, pt) and words shorter than `min_word_length` are ignored; CJK words match inside unspaced text. Not applicable without a title or usable title words",
  needsContent: true,
  thresholds: {
    min_word_length: { default: 3, description: 'title words shorter than this are ignored' },
  },
  run(a, t) {
    const title = a.titles[0];
    if (title === undefined || title.trim() === '') return 'not_applicable';
    const words = titleWords(title, t.min_word_length!);
    if (words.length === 0) return 'not_applicable';
    // Look in the first part of the text first (lower-casing megabytes for a few words is
    // wasteful), then in larger parts only while nothing turns up.
    let found: string[] = [];
    for (let size = WINDOW; found.length === 0; size *= 10) {
      const hay = (a.text.length > size ? a.text.slice(0, size) : a.text).toLowerCase();
      found = words.filter((w) => containsWord(hay, w));
      if (size >= a.text.length) break;
    }
    if (found.length === 0) {
      return {
        passed: false,
        message: `None of the title's words (${words.join(', ')}) appear in the page's text.`,
        value: [],
      };
    }
    return {
      passed: true,
      message: `${found.length} of the title's ${plural(words.length, 'keyword')} ${agree(found.length, 'appears', 'appear')} in the text: ${found.join(', ')}.`,
      value: found,
    };
  },
};

export default check;
