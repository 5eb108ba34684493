import type { FindingPage, FindingRule } from './types.js';

/** hreflang alternates that are noindex (search engines ignore the pair). */
const rule: FindingRule = {
  id: 'hreflang_to_noindex',
  priority: 'medium',
  title: 'hreflang alternates that are noindex',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done)
      for (const h of p.facts.hreflang) {
        const t = h.url === p.url ? undefined : ctx.byUrl.get(h.url);
        if (t?.state === 'done' && t.facts?.noindex) out.push({ url: p.url, detail: `${h.lang}: ${h.url}` });
      }
    return out;
  },
};

export default rule;
