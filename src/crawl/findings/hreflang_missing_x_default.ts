import type { FindingRule } from './types.js';

/** Pages with hreflang alternates but no x-default (the version for every other language). */
const rule: FindingRule = {
  id: 'hreflang_missing_x_default',
  priority: 'low',
  title: 'hreflang sets without x-default',
  find(ctx) {
    return ctx.done
      .filter(
        (p) =>
          p.facts.hreflang.length > 0 && !p.facts.hreflang.some((h) => h.lang.toLowerCase() === 'x-default'),
      )
      .map((p) => ({ url: p.url }));
  },
};

export default rule;
