// Open Graph tags for link previews: og:title, og:description, og:image and og:url present,
// with absolute URLs for og:image and og:url.
import type { CheckDefinition } from '../types.js';
import { clip, tableDetails } from '../types.js';

const REQUIRED = ['og:title', 'og:description', 'og:image', 'og:url'] as const;
const ABSOLUTE_KEYS = new Set(['og:image', 'og:url', 'og:image:url', 'og:image:secure_url']);

function absoluteHttp(v: string): boolean {
  if (!/^https?:\/\//i.test(v)) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

const check: CheckDefinition = {
  id: 'open_graph',
  category: 'miscellaneous',
  priority: 'low',
  title: 'Open Graph tags are complete',
  failTitle: 'Open Graph tags are missing or incomplete',
  howToFix:
    'Add <meta property="og:title">, og:description, og:image (an absolute https:// URL of an image about 1200×630) and og:url (the canonical URL) to the <head>, so shared links show a proper preview.',
  failsWhen:
    'no Open Graph tags, one of og:title/description/image/url missing or empty, or og:image/og:url not an absolute http(s) URL',
  needsContent: true,
  run(a) {
    const og = new Map<string, string>();
    for (const m of a.metas) {
      // property= is the standard; many sites write name="og:…", which the big consumers also read
      const key = m.property?.startsWith('og:') ? m.property : m.name?.startsWith('og:') ? m.name : null;
      if (key === null || og.has(key)) continue;
      og.set(key, (m.content ?? '').trim());
    }
    if (og.size === 0) {
      return {
        passed: false,
        message: 'The page has no Open Graph tags: shared links get no title, description or image preview.',
        value: [...REQUIRED],
      };
    }
    const missing = REQUIRED.filter((k) => !og.get(k));
    const relative: string[] = [];
    for (const k of ABSOLUTE_KEYS) {
      const v = og.get(k);
      if (v && !absoluteHttp(v)) relative.push(k);
    }
    const rows: (string | null)[][] = [];
    for (const k of REQUIRED) {
      const v = og.get(k);
      rows.push([
        k,
        v ? clip(v, 100) : null,
        !v ? 'missing' : relative.includes(k) ? 'not an absolute URL' : 'ok',
      ]);
    }
    for (const k of relative)
      if (!REQUIRED.includes(k as (typeof REQUIRED)[number]))
        rows.push([k, clip(og.get(k) ?? '', 100), 'not an absolute URL']);
    const details = tableDetails(['property', 'content', 'result'], rows);
    const problems: string[] = [];
    if (missing.length) problems.push(`missing ${missing.join(', ')}`);
    if (relative.length)
      problems.push(
        `${relative.join(', ')} ${relative.length === 1 ? 'is' : 'are'} not an absolute http(s) URL`,
      );
    if (problems.length) {
      return {
        passed: false,
        message: `Open Graph tags are incomplete: ${problems.join('; ')}.`,
        value: [...missing, ...relative],
        details,
      };
    }
    const advice = og.has('og:type') ? '' : ' Consider og:type too (e.g. website, article).';
    return {
      passed: true,
      message: `og:title, og:description, og:image and og:url are present and valid.${advice}`,
      value: [],
      details,
    };
  },
};

export default check;
