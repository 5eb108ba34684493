import { canonicalElsewhere } from './context.js';
import type { FindingRule } from './types.js';

/** Pages canonicalised to a page that is itself canonicalised elsewhere (A → B → C). */
const rule: FindingRule = {
  id: 'canonical_chain',
  priority: 'medium',
  title: 'Canonical targets that are canonicalised elsewhere',
  find(ctx) {
    return ctx.done.flatMap((p) => {
      const c = canonicalElsewhere(p);
      const t = c === null ? undefined : ctx.byUrl.get(c);
      const next = t?.facts?.canonical;
      return next && next !== c && next !== p.url ? [{ url: p.url, detail: `${c} → ${next}` }] : [];
    });
  },
};

export default rule;
