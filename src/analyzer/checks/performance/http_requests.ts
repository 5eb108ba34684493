import type { CheckDefinition } from '../types.js';

const KINDS = ['scripts', 'stylesheets', 'images', 'iframes', 'media'] as const;
const SINGULAR: Record<string, string> = {
  scripts: 'script',
  stylesheets: 'stylesheet',
  images: 'image',
  iframes: 'iframe',
  media: 'media file',
};

const check: CheckDefinition = {
  id: 'http_requests',
  category: 'performance',
  priority: 'medium',
  title: 'The page makes a reasonable number of requests',
  failTitle: 'The page makes too many requests',
  howToFix:
    'Cut the files the page loads: bundle scripts and stylesheets, use CSS or SVG sprites for icons, lazy-load images below the fold, and drop unused third-party tags.',
  failsWhen:
    'the page references more than `max_requests` distinct scripts, stylesheets, images, iframes and media (by URL; inline and `data:` resources excluded)',
  needsContent: true,
  thresholds: {
    max_requests: {
      default: 50,
      description: 'most distinct scripts, stylesheets, images, iframes and media referenced',
    },
  },
  run(a, t) {
    const c = a.requestCounts;
    let total = 0;
    const rows: [string, number][] = [];
    for (const k of KINDS) {
      const n = c[k] ?? 0;
      total += n;
      rows.push([k, n]);
    }
    const details = { type: 'table' as const, headings: ['kind', 'count'], rows };
    const parts = rows
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${n === 1 ? (SINGULAR[k] ?? k) : k}`)
      .join(', ');
    if (total > t.max_requests!) {
      return {
        passed: false,
        message: `The page references ${total} resources (${parts}); keep it to ${t.max_requests} or fewer.`,
        value: total,
        details,
      };
    }
    return {
      passed: true,
      message: `The page references ${total} resources${parts ? ` (${parts})` : ''}.`,
      value: total,
      details,
    };
  },
};

export default check;
