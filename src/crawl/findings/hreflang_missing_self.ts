import type { FindingRule } from './types.js';

/** Pages with hreflang alternates, none of them the page itself (the set must name every version). */
const rule: FindingRule = {
  id: 'hreflang_missing_self',
  priority: 'medium',
  title: 'hreflang sets that leave out the page itself',
  find(ctx) {
    return ctx.done
      .filter((p) => p.facts.hreflang.length > 0 && !p.facts.hreflang.some((h) => h.url === p.url))
      .map((p) => ({ url: p.url }));
  },
};

export default rule;
