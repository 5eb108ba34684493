import { formatBytes as kb } from '../../format.js';
import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'page_size',
  category: 'performance',
  priority: 'medium',
  title: 'The HTML is of a reasonable size',
  failTitle: 'The HTML is too large',
  howToFix:
    'Shrink the HTML: move inline scripts, styles and data (SVG, JSON state) to cached files, paginate long lists, and remove unused markup.',
  failsWhen: 'the decoded HTML is larger than `max_kb` × 1,000 bytes',
  needsContent: true,
  thresholds: {
    max_kb: { default: 330, description: 'most kilobytes (1,000 bytes) of decoded HTML' },
  },
  run(a, t) {
    const max = t.max_kb! * 1000;
    const wire = a.transferBytes !== a.htmlBytes ? ` (${kb(a.transferBytes)} on the wire)` : '';
    if (a.htmlBytes > max) {
      return {
        passed: false,
        message: `The HTML is ${kb(a.htmlBytes)}${wire}; keep it under ${kb(max)}.`,
        value: a.htmlBytes,
      };
    }
    return { passed: true, message: `The HTML is ${kb(a.htmlBytes)}${wire}.`, value: a.htmlBytes };
  },
};

export default check;
