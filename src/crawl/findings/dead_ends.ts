import { hasTargets } from './context.js';
import type { FindingRule } from './types.js';

/** Audited pages with no link to another page of the site (followed or nofollow). */
const rule: FindingRule = {
  id: 'dead_ends',
  priority: 'low',
  title: 'Pages with no outgoing internal link',
  find(ctx) {
    if (ctx.done.length <= 1) return [];
    return ctx.done.filter((p) => !hasTargets(p)).map((p) => ({ url: p.url }));
  },
};

export default rule;
