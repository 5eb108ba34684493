import { forEachTarget } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/** A redirect path that comes back to a URL it went through (redirect_loops). */
export const isLoop = (path: readonly string[]): boolean =>
  path.slice(0, -1).includes(path[path.length - 1]!);

/** Internal links whose target redirects more than once before it answers (its hops in the detail). */
const rule: FindingRule = {
  id: 'redirect_chains',
  priority: 'medium',
  title: 'Internal links to a chain of redirects (more than one hop)',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done) {
      forEachTarget(p, (target) => {
        const path = ctx.byUrl.get(target)?.redirectPath;
        if (path && path.length > 2 && !isLoop(path))
          out.push({ url: p.url, detail: `${path.join(' → ')} (${path.length - 1} redirects)` });
      });
    }
    return out;
  },
};

export default rule;
