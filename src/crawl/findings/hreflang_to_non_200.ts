import { isBroken } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/** hreflang alternates (on the site, crawled) that answer 4xx/5xx or cannot be fetched. */
const rule: FindingRule = {
  id: 'hreflang_to_non_200',
  priority: 'high',
  title: 'hreflang alternates that answer 4xx/5xx or fail',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done)
      for (const h of p.facts.hreflang) {
        const t = h.url === p.url ? undefined : ctx.byUrl.get(h.url);
        if (t && isBroken(t))
          out.push({ url: p.url, detail: `${h.lang}: ${h.url} (${t.statusCode ?? t.error ?? 'failed'})` });
      }
    return out;
  },
};

export default rule;
