import { canonicalElsewhere } from './context.js';
import type { FindingRule } from './types.js';

/** Pages canonicalised to a noindex page: neither is indexed. */
const rule: FindingRule = {
  id: 'canonical_to_noindex',
  priority: 'high',
  title: 'Canonical targets that are noindex',
  find(ctx) {
    return ctx.done.flatMap((p) => {
      const c = canonicalElsewhere(p);
      const t = c === null ? undefined : ctx.byUrl.get(c);
      return t?.facts?.noindex ? [{ url: p.url, detail: `${c} is noindex` }] : [];
    });
  },
};

export default rule;
