import { forEachTarget, isRobotsBlocked } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/**
 * Internal links to URLs robots.txt disallows (the batch keeps those as skipped pages, never
 * requested): each linking page with the blocked URL. Low priority — blocking is often meant.
 */
const rule: FindingRule = {
  id: 'blocked_linked',
  priority: 'low',
  title: 'Internal links to URLs robots.txt disallows',
  find(ctx) {
    const blocked = new Set(ctx.pages.filter(isRobotsBlocked).map((p) => p.url));
    if (blocked.size === 0) return [];
    const out: FindingPage[] = [];
    for (const p of ctx.done)
      forEachTarget(p, (target) => {
        if (blocked.has(target)) out.push({ url: p.url, detail: target });
      });
    return out;
  },
};

export default rule;
