import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'title',
  category: 'seo',
  priority: 'high',
  title: 'The page has a title of a good length',
  failTitle: 'The title is missing, repeated or of the wrong length',
  howToFix:
    'Give the page exactly one <title> in its <head>, describing the page in 1–60 characters, so that search results show it in full.',
  failsWhen:
    'no `<title>`, several `<title>` (SVG titles ignored), or its length (characters, trimmed) is outside min–max',
  needsContent: true,
  thresholds: {
    min_length: { default: 1, description: 'fewest characters in the title' },
    max_length: { default: 60, description: 'most characters in the title' },
  },
  run(a, t) {
    const min = t.min_length!;
    const max = t.max_length!;
    if (a.titles.length === 0)
      return { passed: false, message: 'The page has no <title> element.', value: null };
    const title = a.titles[0]!;
    const len = [...title].length;
    if (a.titles.length > 1) {
      return {
        passed: false,
        message: `The page has ${a.titles.length} <title> elements; keep one.`,
        value: title,
        details: { type: 'list', items: a.titles.slice(0, 50) },
      };
    }
    if (len < min || len > max) {
      return {
        passed: false,
        message:
          len === 0
            ? `The title is empty; write one of ${min} to ${max} characters.`
            : `The title is ${len} characters long; keep it between ${min} and ${max}.`,
        value: title,
      };
    }
    return { passed: true, message: `The title is ${len} characters long.`, value: title };
  },
};

export default check;
