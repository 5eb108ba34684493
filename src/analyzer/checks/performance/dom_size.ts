import { formatCount } from '../../format.js';
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
    const msg = `The page has ${formatCount(a.elementCount)} elements, nested up to ${a.maxDepth} deep`;
    if (a.elementCount > t.max_elements!) {
      return {
        passed: false,
        message: `${msg}; keep it under ${formatCount(t.max_elements!)}.`,
        value: a.elementCount,
      };
    }
    return { passed: true, message: `${msg}.`, value: a.elementCount };
  },
};

export default check;
