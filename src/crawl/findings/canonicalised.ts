import { canonicalElsewhere } from './context.js';
import type { FindingRule } from './types.js';

/** Audited pages whose canonical names another URL (informational: often meant), with the target. */
const rule: FindingRule = {
  id: 'canonicalised',
  priority: 'low',
  title: 'Pages whose canonical points elsewhere',
  find(ctx) {
    return ctx.done.flatMap((p) => {
      const c = canonicalElsewhere(p);
      return c === null ? [] : [{ url: p.url, detail: `canonical: ${c}` }];
    });
  },
};

export default rule;
