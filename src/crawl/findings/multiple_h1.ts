import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'multiple_h1',
  priority: 'low',
  title: 'Pages with more than one h1',
  find(ctx) {
    return ctx.done
      .filter((p) => (p.facts.h1?.length ?? 0) > 1)
      .map((p) => ({ url: p.url, detail: `${p.facts.h1!.length} h1: ${p.facts.h1!.join(' | ')}` }));
  },
};

export default rule;
