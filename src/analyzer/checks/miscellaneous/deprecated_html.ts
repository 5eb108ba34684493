import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'deprecated_html',
  category: 'miscellaneous',
  priority: 'low',
  title: 'The page uses no deprecated HTML elements',
  failTitle: 'The page uses deprecated HTML elements',
  howToFix:
    'Replace obsolete elements with current HTML and CSS: <font>, <center>, <big> and <tt> with CSS, <strike> with <s> or <del>, <acronym> with <abbr>, frames with iframes or plain pages.',
  failsWhen:
    'any of acronym, applet, basefont, bgsound, big, blink, center, dir, font, frame, frameset, isindex, keygen, listing, marquee, multicol, nextid, nobr, noembed, noframes, plaintext, spacer, strike, tt, xmp (outside SVG)',
  needsContent: true,
  run(a) {
    const entries = Object.entries(a.deprecatedTags).sort((x, y) => y[1] - x[1]);
    if (entries.length === 0)
      return { passed: true, message: 'The page uses no deprecated elements.', value: [] };
    const names = entries.map(([tag]) => `<${tag}>`);
    return {
      passed: false,
      message: `The page uses deprecated elements: ${entries.map(([tag, n]) => `<${tag}> (${n})`).join(', ')}.`,
      value: names,
      details: {
        type: 'table',
        headings: ['element', 'count'],
        rows: entries.map(([tag, n]) => [`<${tag}>`, n]),
      },
    };
  },
};

export default check;
