import { forEachTarget } from './context.js';
import { isLoop } from './redirect_chains.js';
import type { FindingPage, FindingRule } from './types.js';

/**
 * Pages that link to a URL whose redirects come back to a URL they went through (the loop in
 * the detail); a looping URL no audited page links to (the start URL, a sitemap's) is listed itself.
 */
const rule: FindingRule = {
  id: 'redirect_loops',
  priority: 'high',
  title: 'Redirect loops',
  find(ctx) {
    const out: FindingPage[] = [];
    const linked = new Set<string>();
    const loopOf = (url: string) => {
      const path = ctx.byUrl.get(url)?.redirectPath;
      return path && isLoop(path) ? path : null;
    };
    for (const p of ctx.done) {
      forEachTarget(p, (target) => {
        const loop = loopOf(target);
        if (loop === null) return;
        linked.add(target);
        out.push({ url: p.url, detail: `links to ${target}: ${loop.join(' → ')}` });
      });
    }
    for (const p of ctx.pages) {
      const loop = loopOf(p.url);
      if (loop !== null && !linked.has(p.url)) out.push({ url: p.url, detail: loop.join(' → ') });
    }
    return out;
  },
};

export default rule;
