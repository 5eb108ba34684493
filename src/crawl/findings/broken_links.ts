import { answerOf, forEachTarget, isBroken } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'broken_links',
  priority: 'high',
  title: 'Internal links to pages that answered 4xx/5xx or could not be fetched',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done) {
      forEachTarget(p, (target) => {
        const t = ctx.byUrl.get(target);
        if (t) {
          if (isBroken(t))
            out.push({ url: p.url, detail: `${target} (${t.statusCode ?? t.error ?? 'failed'})` });
          return;
        }
        // a target the crawl did not request (outside max_pages, max_depth, include/exclude; not
        // an HTML page): its check (docs/sites.md "Links and resources checked")
        const c = ctx.graph?.checks?.get(target);
        if (c?.verdict === 'broken') out.push({ url: p.url, detail: `${target} (${answerOf(c)})` });
      });
    }
    return out;
  },
};

export default rule;
