import { groupsOf, loose } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/** Pages that share their (first) h1 with another page, case and whitespace aside. */
const rule: FindingRule = {
  id: 'duplicate_h1',
  priority: 'low',
  title: 'Pages that share an h1',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const g of groupsOf(ctx.done, (p) => {
      const h1 = p.facts.h1?.[0];
      return h1 === undefined || h1 === '' ? null : loose(h1);
    }))
      for (const p of g) out.push({ url: p.url, detail: p.facts.h1![0]! });
    return out;
  },
};

export default rule;
