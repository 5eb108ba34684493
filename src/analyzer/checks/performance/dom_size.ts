import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'dom_size',
  category: 'performance',
  priority: 'low',
  title: 'The page has a reasonable number of elements',
  failTitle: 'The page has too many elements',
  howToFix:
    'Simplify the markup: remove wrapper elements, render long lists and hidden menus or tabs on demand, and avoid deeply nested layouts.',
  failsWhen: 'more than `max_elements` elements',
  needsContent: true,
  thresholds: {
    max_elements: { default: 1500, description: 'most HTML elements in the page' },
  },
  run(a, t) {
    const msg = `The page has ${a.elementCount.toLocaleString('en-US')} elements, nested up to ${a.maxDepth} deep`;
    if (a.elementCount > t.max_elements!) {
      return {
        passed: false,
        message: `${msg}; keep it under ${t.max_elements!.toLocaleString('en-US')}.`,
        value: a.elementCount,
      };
    }
    return { passed: true, message: `${msg}.`, value: a.elementCount };
  },
};

export default check;
