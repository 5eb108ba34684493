import { formatCount } from '../../format.js';
import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'content_length',
  category: 'miscellaneous',
  priority: 'low',
  title: 'The page has enough text',
  failTitle: 'The page has little text',
  howToFix:
    'Give the page enough useful text (about 500 words or more) for readers and search engines to understand what it offers.',
  failsWhen:
    'fewer than `min_words` words of visible text (script, style, template, noscript, svg, select excluded; each CJK character counts as a word)',
  needsContent: true,
  thresholds: {
    min_words: { default: 500, description: 'fewest words of visible text' },
  },
  run(a, t) {
    const n = a.wordCount;
    if (n < t.min_words!) {
      return {
        passed: false,
        message: `The page has ${formatCount(n)} words of text; aim for at least ${t.min_words}.`,
        value: n,
      };
    }
    return { passed: true, message: `The page has ${formatCount(n)} words of text.`, value: n };
  },
};

export default check;
