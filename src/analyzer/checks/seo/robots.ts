import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'robots',
  category: 'seo',
  priority: 'high',
  title: 'robots.txt lets crawlers reach the page',
  failTitle: 'robots.txt blocks the page',
  howToFix:
    'Remove or narrow the Disallow rule in /robots.txt that matches this page, unless you really want it kept out of search engines.',
  failsWhen:
    'robots.txt disallows the final URL for `Pagegrade` (our group, falling back to `*`) or for `*`. A 4xx robots.txt allows everything; 5xx or not fetched is not judged',
  needsContent: false,
  run(a) {
    const r = a.robots;
    if (r === null) return { passed: null, message: 'robots.txt was not fetched.' };
    if (r.status === null)
      return { passed: null, message: `robots.txt could not be fetched (${r.error ?? 'no answer'}).` };
    if (r.status >= 400 && r.status < 500) {
      return {
        passed: true,
        message: `robots.txt answered ${r.status}: no rules, crawlers may fetch every page.`,
      };
    }
    if (r.status >= 500) {
      return {
        passed: null,
        message: `robots.txt answered ${r.status}; crawlers may hold off the whole site until it answers.`,
      };
    }
    if (r.parsed === null) {
      return { passed: true, message: 'robots.txt holds no rules (it is not a robots file).' };
    }
    const url = a.finalUrl;
    for (const ua of [a.userAgentToken, '*']) {
      if (r.parsed.isDisallowed(url, ua) === true) {
        const line = r.parsed.getMatchingLineNumber(url, ua);
        return {
          passed: false,
          message: `robots.txt disallows this page for ${ua === '*' ? 'all crawlers (User-agent: *)' : ua}${line > 0 ? ` (line ${line})` : ''}.`,
          value: false,
        };
      }
    }
    return { passed: true, message: 'robots.txt allows this page.', value: true };
  },
};

export default check;
