import { loose } from './context.js';
import type { FindingRule } from './types.js';

/** Pages whose title is their (first) h1, case and whitespace aside: two chances to say one thing. */
const rule: FindingRule = {
  id: 'title_same_as_h1',
  priority: 'low',
  title: 'Pages whose title is the same as their h1',
  find(ctx) {
    return ctx.done
      .filter((p) => {
        const h1 = p.facts.h1?.[0];
        return p.facts.title !== null && h1 !== undefined && h1 !== '' && loose(p.facts.title) === loose(h1);
      })
      .map((p) => ({ url: p.url, detail: p.facts.title! }));
  },
};

export default rule;
