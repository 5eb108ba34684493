import { groupsOf, sameAs } from './context.js';
import type { FindingRule } from './types.js';

/**
 * Pages with the same main text (the template's nav, header, footer and aside left out:
 * PageFacts.mainHash), each with another page of its group.
 */
const rule: FindingRule = {
  id: 'duplicate_content',
  priority: 'medium',
  title: 'Pages with the same main text',
  find(ctx) {
    return groupsOf(ctx.done, (p) => p.facts.mainHash ?? null).flatMap((g) => sameAs(g, 'same main text as'));
  },
};

export default rule;
