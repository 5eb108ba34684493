import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'load_time',
  category: 'performance',
  priority: 'medium',
  title: 'The HTML loads quickly',
  failTitle: 'The HTML takes too long to load',
  howToFix:
    'Speed up the server response: cache rendered pages, use a CDN near your visitors, and trim slow database queries or upstream calls.',
  failsWhen: 'fetching the HTML (redirects included, `timings.total_ms`) took more than `max_ms`',
  needsContent: false,
  measuredMs: true,
  thresholds: {
    max_ms: { default: 2000, description: 'most milliseconds to fetch the HTML (redirects included)' },
  },
  run(a, t) {
    const ms = Math.round(a.timings.total_ms);
    const s = (ms / 1000).toFixed(2);
    const ttfb = a.timings.ttfb_ms === null ? '' : ` (first byte after ${Math.round(a.timings.ttfb_ms)} ms)`;
    if (ms > t.max_ms!) {
      return {
        passed: false,
        message: `The HTML took ${s} s to load${ttfb}; aim for under ${t.max_ms! / 1000} s.`,
        value: ms,
      };
    }
    return { passed: true, message: `The HTML loaded in ${s} s${ttfb}.`, value: ms };
  },
};

export default check;
