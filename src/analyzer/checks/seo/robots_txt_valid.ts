// robots.txt answers sensibly and parses: a missing file (4xx) is allowed and reported, a 5xx
// or 429 stops crawlers (fail), an HTML page served as robots.txt fails, and every line must be
// a known directive with a well-formed value (rules as Lighthouse's robots-txt audit).
import type { CheckDefinition } from '../types.js';
import { clip, tableDetails } from '../types.js';

const KNOWN = new Set([
  'user-agent',
  'disallow',
  'allow',
  'sitemap', // standard and universal
  'crawl-delay',
  'clean-param',
  'host', // Bing, Yandex
  'request-rate',
  'visit-time',
  'noindex',
  'content-signal',
  'license', // seen in the wild
]);
/** Google reads the first 500 KiB only */
const GOOGLE_LIMIT = 500 * 1024;

export interface RobotsLineError {
  line: number;
  text: string;
  message: string;
}

/** Validates robots.txt lines; returns at most `cap` errors and the total count. */
export function validateRobotsTxt(body: string, cap = 50): { errors: RobotsLineError[]; total: number } {
  const errors: RobotsLineError[] = [];
  let total = 0;
  let inGroup = false;
  const lines = body.split(/\r\n|\r|\n/);
  const add = (i: number, text: string, message: string): void => {
    total++;
    if (errors.length < cap) errors.push({ line: i + 1, text: clip(text, 100), message });
  };
  for (let i = 0; i < lines.length; i++) {
    const rawLine = lines[i]!;
    const hash = rawLine.indexOf('#');
    const line = (hash === -1 ? rawLine : rawLine.slice(0, hash)).trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon === -1) {
      add(i, rawLine, 'syntax not understood (no "directive: value")');
      continue;
    }
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (!KNOWN.has(name)) {
      add(i, rawLine, `unknown directive "${clip(name, 40)}"`);
      continue;
    }
    if (name === 'user-agent') {
      if (value === '') add(i, rawLine, 'no user-agent specified');
      inGroup = true;
    } else if (name === 'allow' || name === 'disallow') {
      if (!inGroup) add(i, rawLine, `${name} before any user-agent line`);
      else if (value !== '' && value[0] !== '/' && value[0] !== '*')
        add(i, rawLine, 'the pattern should be empty or start with "/" or "*"');
      else if (value.indexOf('$') !== -1 && value.indexOf('$') !== value.length - 1)
        add(i, rawLine, '"$" may only end a pattern');
    } else if (name === 'sitemap') {
      let ok = false;
      try {
        const u = new URL(value);
        ok = u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ftp:';
      } catch {
        ok = false;
      }
      if (!ok) add(i, rawLine, 'the sitemap must be an absolute URL');
    } else if (name === 'crawl-delay') {
      if (!/^\d+(?:\.\d+)?$/.test(value)) add(i, rawLine, 'crawl-delay must be a number of seconds');
    }
  }
  return { errors, total };
}

const check: CheckDefinition = {
  id: 'robots_txt_valid',
  category: 'seo',
  priority: 'low',
  title: 'robots.txt is valid',
  failTitle: 'robots.txt is not valid',
  howToFix:
    'Serve /robots.txt as text/plain with status 200 (or 404 when you have no rules), never an error page; write only "User-agent:", "Allow:", "Disallow:" and "Sitemap:" lines (patterns start with "/"), each rule after a User-agent line.',
  failsWhen: 'robots.txt answers 5xx or 429, answers 200 with an HTML page, or has invalid lines',
  needsContent: false,
  run(a) {
    const r = a.robots;
    if (r === null) return { passed: null, message: 'robots.txt was not fetched.' };
    if (r.status === null)
      return { passed: null, message: `robots.txt could not be fetched (${r.error ?? 'no answer'}).` };
    const s = r.status;
    if (s === 429 || s >= 500) {
      return {
        passed: false,
        message: `robots.txt answered ${s}: search engines treat this as "do not crawl" and may stop crawling the whole site until it answers.`,
        value: s,
      };
    }
    if (s >= 400) {
      return {
        passed: true,
        message: `There is no robots.txt (it answered ${s}): allowed — crawlers may fetch every page. Add one to list your sitemap.`,
        value: s,
      };
    }
    if (s < 200 || s >= 300) {
      return {
        passed: false,
        message: `robots.txt answered ${s}, neither a file nor "not found".`,
        value: s,
      };
    }
    if (r.looksLikeHtml) {
      return {
        passed: false,
        message:
          'robots.txt answered 200 with an HTML page instead of a text file (a "soft 404"): crawlers read it as garbage rules.',
        value: s,
      };
    }
    if (r.body.trim() === '') {
      return { passed: true, message: 'robots.txt is empty: every page may be crawled.', value: s };
    }
    const { errors, total } = validateRobotsTxt(r.body);
    const notes: string[] = [];
    if (r.contentType && r.contentType !== 'text/plain')
      notes.push(`it is served as ${r.contentType}, not text/plain`);
    if (r.body.length >= GOOGLE_LIMIT) {
      notes.push('it is over 500 KiB; Google reads only the first 500 KiB');
    }
    const noteText = notes.length ? ` Note: ${notes.join('; ')}.` : '';
    if (total > 0) {
      const first = errors[0]!;
      return {
        passed: false,
        message: `robots.txt has ${total} invalid line${total === 1 ? '' : 's'} (line ${first.line}: ${first.message}).${noteText}`,
        value: total,
        details: {
          ...tableDetails(
            ['line', 'content', 'problem'],
            errors.map((e) => [e.line, e.text, e.message]),
          ),
          ...(total > errors.length ? { truncated: total - errors.length } : {}),
        },
      };
    }
    return { passed: true, message: `robots.txt parses without errors.${noteText}`, value: 0 };
  },
};

export default check;
