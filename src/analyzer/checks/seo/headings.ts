import { clip, tableDetails, type CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'headings',
  category: 'seo',
  priority: 'high',
  title: 'The page has one <h1> heading',
  failTitle: 'The page has no <h1> heading, or several',
  howToFix:
    'Give the page one <h1> that says what it is about, and structure the rest with <h2>–<h6> in order.',
  failsWhen: 'no `<h1>`, or more than `max_h1` (headings inside SVG ignored)',
  needsContent: true,
  thresholds: {
    max_h1: { default: 1, description: 'most <h1> elements allowed' },
  },
  run(a, t) {
    const h1 = a.headings.filter((h) => h.level === 1);
    const details = tableDetails(
      ['level', 'text'],
      a.headings.map((h) => [`h${h.level}`, clip(h.text, 100)]),
    );
    if (h1.length === 0) {
      return {
        passed: false,
        message: `The page has no <h1> heading${a.headings.length ? ` (it has ${a.headings.length} other headings)` : ''}.`,
        value: 0,
        ...(a.headings.length ? { details } : {}),
      };
    }
    if (h1.length > t.max_h1!) {
      return {
        passed: false,
        message: `The page has ${h1.length} <h1> headings; keep one.`,
        value: h1.length,
        details,
      };
    }
    return {
      passed: true,
      message: `The page has one <h1>: "${clip(h1[0]!.text, 80)}".`,
      value: h1.length,
      details,
    };
  },
};

export default check;
