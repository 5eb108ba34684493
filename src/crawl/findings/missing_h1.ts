import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'missing_h1',
  priority: 'low',
  title: 'Pages without an h1',
  find(ctx) {
    return ctx.done
      .filter((p) => p.facts.h1 !== undefined && p.facts.h1.length === 0)
      .map((p) => ({ url: p.url }));
  },
};

export default rule;
