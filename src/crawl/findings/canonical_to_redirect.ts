import { canonicalElsewhere, isBroken, isRedirected } from './context.js';
import type { FindingRule } from './types.js';

/** Pages canonicalised to a URL that redirects: the canonical should name the final URL. */
const rule: FindingRule = {
  id: 'canonical_to_redirect',
  priority: 'high',
  title: 'Canonical targets that redirect',
  find(ctx) {
    return ctx.done.flatMap((p) => {
      const c = canonicalElsewhere(p);
      const t = c === null ? undefined : ctx.byUrl.get(c);
      return t && !isBroken(t) && isRedirected(t)
        ? [{ url: p.url, detail: `${c} → ${t.finalUrl ?? '?'}` }]
        : [];
    });
  },
};

export default rule;
