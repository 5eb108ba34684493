import { forEachTarget, isBroken, isRedirected } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'redirected_links',
  priority: 'low',
  title: 'Internal links through a redirect',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done) {
      forEachTarget(p, (target) => {
        const t = ctx.byUrl.get(target);
        // a broken target is a broken link, not a redirected one
        if (t && !isBroken(t) && isRedirected(t))
          out.push({ url: p.url, detail: `${target} → ${t.finalUrl ?? '?'}` });
        // a target the crawl did not request: its check
        const c = t ? undefined : ctx.graph?.checks?.get(target);
        if (c?.verdict === 'ok' && c.redirectTo !== null)
          out.push({ url: p.url, detail: `${target} → ${c.redirectTo}` });
      });
    }
    return out;
  },
};

export default rule;
