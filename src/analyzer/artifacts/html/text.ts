// Text in the HTML pass: blank chunks, collapsed captures, the one loop over the visible text
// (words, length, "@" positions) and the e-mail addresses found in text and mailto: links.

const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b/g;
/** file-name-looking matches like "icon@2x.png" are not e-mail addresses */
const NOT_EMAIL_TLD = /\.(?:png|jpe?g|gif|webp|avif|svg|css|js|mjs|ico|woff2?|ttf)$/i;

/** Adds the e-mail addresses in `s` to `emails` (at most 50 in all). */
export function addEmails(emails: Set<string>, s: string): void {
  if (emails.size >= 50 || s.indexOf('@') === -1) return;
  for (const m of s.matchAll(EMAIL_RE)) {
    const e = m[0].toLowerCase();
    if (!NOT_EMAIL_TLD.test(e) && emails.size < 50) emails.add(e);
  }
}

/** The e-mail addresses of the visible text: only around the "@" signs textStats saw (`at`). */
export function addEmailsAround(emails: Set<string>, text: string, at: readonly number[]): void {
  let searchedTo = 0;
  for (const i of at) {
    if (i < searchedTo) continue;
    // back to the start of the local part (at most 64 characters), then forward
    let from = i;
    while (from > 0 && i - from < 64 && LOCAL_CHAR.test(text[from - 1]!)) from--;
    searchedTo = Math.min(text.length, i + 256);
    addEmails(emails, text.slice(from, searchedTo));
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
}

/** whitespace-only text (indentation between tags) */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

export function collapse(parts: string[]): string {
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

export function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
