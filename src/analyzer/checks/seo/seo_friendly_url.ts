import type { CheckDefinition } from '../types.js';

const UNFRIENDLY = ['?', '=', '_', '%', ',', ' '];

const check: CheckDefinition = {
  id: 'seo_friendly_url',
  category: 'seo',
  priority: 'high',
  title: 'The URL is short and readable',
  failTitle: 'The URL has query strings, underscores or encoded characters',
  howToFix:
    'Use readable paths made of lower-case words joined by hyphens (/fresh-bread/), without query parameters, underscores, commas or encoded characters.',
  failsWhen: "the final URL's path or query contains `?`, `=`, `_`, `%`, `,` or a space",
  needsContent: false,
  run(a) {
    const u = a.finalUrlParsed;
    // the path and query as sent, plus any raw space that slipped through
    const part = `${u.pathname}${u.search}`;
    const found = UNFRIENDLY.filter((c) => part.includes(c) || (c === ' ' && part.includes('%20')));
    if (found.length === 0)
      return { passed: true, message: 'The URL has no unfriendly characters.', value: a.finalUrl };
    const names = found.map((c) => (c === ' ' ? 'spaces' : `"${c}"`));
    return {
      passed: false,
      message: `The URL's path contains ${names.join(', ')}.`,
      value: a.finalUrl,
    };
  },
};

export default check;
