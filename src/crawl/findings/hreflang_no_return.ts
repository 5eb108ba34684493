import type { FindingPage, FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'hreflang_no_return',
  priority: 'medium',
  title: 'hreflang alternates that do not point back',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done) {
      for (const h of p.facts.hreflang) {
        if (h.url === p.url) continue;
        const t = ctx.byUrl.get(h.url);
        if (!t?.facts) continue;
        if (!t.facts.hreflang.some((back) => back.url === p.url))
          out.push({ url: p.url, detail: `${h.lang}: ${h.url}` });
      }
    }
    return out;
  },
};

export default rule;
