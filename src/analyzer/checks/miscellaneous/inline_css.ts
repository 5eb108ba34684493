import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'inline_css',
  category: 'miscellaneous',
  priority: 'low',
  title: 'The page uses no inline styles',
  failTitle: 'The page uses inline style attributes',
  howToFix:
    'Move style="…" attributes into a stylesheet and use classes; stylesheets are cached, reusable and easier to maintain.',
  failsWhen: 'more than `max_style_attributes` elements have a non-empty `style` attribute',
  needsContent: true,
  thresholds: {
    max_style_attributes: { default: 0, description: 'most elements with a style attribute' },
  },
  run(a, t) {
    const n = a.styleAttrCount;
    if (n > t.max_style_attributes!) {
      const counts = new Map<string, number>();
      for (const tag of a.styleAttrSamples) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      const rows = [...counts]
        .sort((x, y) => y[1] - x[1])
        .map(([tag, c]) => [`<${tag}>`, c] as (string | number)[]);
      return {
        passed: false,
        message: `${n} element${n === 1 ? ' has' : 's have'} a style attribute.`,
        value: n,
        details: {
          type: 'table',
          headings: ['element', 'count'],
          rows,
          ...(n > a.styleAttrSamples.length ? { truncated: n - a.styleAttrSamples.length } : {}),
        },
      };
    }
    return {
      passed: true,
      message: n === 0 ? 'No element has a style attribute.' : `${n} elements have a style attribute.`,
      value: n,
    };
  },
};

export default check;
