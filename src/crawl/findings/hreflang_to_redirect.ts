import { isBroken, isRedirected } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/** hreflang alternates that redirect: they should name the final URL. */
const rule: FindingRule = {
  id: 'hreflang_to_redirect',
  priority: 'medium',
  title: 'hreflang alternates that redirect',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done)
      for (const h of p.facts.hreflang) {
        const t = h.url === p.url ? undefined : ctx.byUrl.get(h.url);
        if (t && !isBroken(t) && isRedirected(t))
          out.push({ url: p.url, detail: `${h.lang}: ${h.url} → ${t.finalUrl ?? '?'}` });
      }
    return out;
  },
};

export default rule;
