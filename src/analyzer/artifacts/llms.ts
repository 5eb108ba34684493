// /llms.txt read against the proposed format (https://llmstxt.org): a Markdown file whose first
// line is an H1 (the site's or project's name, the one required part), then an optional summary
// blockquote, then optional paragraphs or lists without headings, then sections under H2
// headings holding "file lists": list items that each start with a Markdown link
// (`- [name](url)`, optionally `: notes`). The AI readiness check (checks/ai/llms_txt.ts) and
// the crawl's AI summary read the outcome; a rule broken is named in `problems`.
import type { ExtraResource } from '../snapshot.js';

export interface LlmsTxtShape {
  /** the H1's text, null when the file does not start with one */
  title: string | null;
  /** the summary blockquote's text, null when there is none right after the H1 */
  summary: string | null;
  /** H2 sections */
  sections: number;
  /** list items with a Markdown link, in the H2 sections */
  links: number;
  /** the rules the file breaks, in words (empty: valid) */
  problems: string[];
}

const LINK_ITEM = /^[-*+]\s+\[[^\]]+\]\([^)\s]+(?:\s+"[^"]*")?\)(?:\s*:.*)?$/;
const LIST_ITEM = /^(?:[-*+]|\d+[.)])\s+/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/** Whether the text is an HTML page (a site answering every path with its index page). */
export function looksLikeHtmlPage(text: string): boolean {
  return /^\s*(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text);
}

/** The file's shape and the rules it breaks (llmstxt.org). */
export function parseLlmsTxt(text: string): LlmsTxtShape {
  const out: LlmsTxtShape = { title: null, summary: null, sections: 0, links: 0, problems: [] };
  if (looksLikeHtmlPage(text)) {
    out.problems.push(
      'The file is an HTML page, not Markdown (the server may answer every path with a page).',
    );
    return out;
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  if (i === lines.length) {
    out.problems.push('The file is empty: it must start with an H1 (`# Name`).');
    return out;
  }
  const first = HEADING.exec(lines[i]!.trim());
  if (first === null || first[1] !== '#' || first[2] === '') {
    out.problems.push('The first line is not an H1 (`# Name`), the one part the format requires.');
  } else {
    out.title = first[2]!;
    i++;
    while (i < lines.length && lines[i]!.trim() === '') i++;
    const quote: string[] = [];
    while (i < lines.length && lines[i]!.trimStart().startsWith('>')) {
      quote.push(lines[i]!.trimStart().replace(/^>\s?/, ''));
      i++;
    }
    if (quote.length) out.summary = quote.join(' ').trim();
  }
  let inSection = false;
  const badHeadings: string[] = [];
  const badItems: string[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const h = HEADING.exec(line);
    if (h) {
      if (h[1] === '##') {
        inSection = true;
        out.sections++;
      } else badHeadings.push(line);
      continue;
    }
    if (!inSection || !LIST_ITEM.test(line)) continue;
    if (LINK_ITEM.test(line)) out.links++;
    else badItems.push(line);
  }
  if (badHeadings.length)
    out.problems.push(
      `Sections must be H2 headings (\`## Section\`), and only the first line an H1: ${clipList(badHeadings)}.`,
    );
  if (badItems.length)
    out.problems.push(
      `Each list item in a section must start with a Markdown link (\`- [name](url): notes\`): ${clipList(badItems)}.`,
    );
  return out;
}

function clipList(items: string[]): string {
  const shown = items.slice(0, 3).map((s) => `"${s.length > 60 ? `${s.slice(0, 59)}…` : s}"`);
  return items.length > 3 ? `${shown.join(', ')} and ${items.length - 3} more` : shown.join(', ');
}

const memo = new WeakMap<ExtraResource, LlmsTxtShape>();

/** parseLlmsTxt of a fetched /llms.txt, once per resource (a batch hands every page the same one). */
export function llmsShape(r: ExtraResource): LlmsTxtShape {
  let v = memo.get(r);
  if (v === undefined) memo.set(r, (v = parseLlmsTxt(r.body)));
  return v;
}
