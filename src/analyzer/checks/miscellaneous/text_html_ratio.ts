import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'text_html_ratio',
  category: 'miscellaneous',
  priority: 'low',
  title: 'The page has a good text to HTML ratio',
  failTitle: 'The page has little text for its HTML',
  howToFix:
    'Raise the share of visible text in the page: move inline scripts and styles to files, remove unused markup, and give the page real content.',
  failsWhen: "visible text (whitespace collapsed) is less than `min_percent` % of the HTML's characters",
  needsContent: true,
  thresholds: {
    min_percent: {
      default: 10,
      description: 'lowest share of visible text in the HTML, in percent (characters)',
    },
  },
  run(a, t) {
    if (a.htmlLength === 0) return { passed: false, message: 'The HTML is empty.', value: 0 };
    const pct = Math.round((a.textLength / a.htmlLength) * 1000) / 10;
    if (pct < t.min_percent!) {
      return {
        passed: false,
        message: `Text is ${pct}% of the HTML; aim for at least ${t.min_percent}%.`,
        value: pct,
      };
    }
    return { passed: true, message: `Text is ${pct}% of the HTML.`, value: pct };
  },
};

export default check;
