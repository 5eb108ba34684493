import { forEachTarget } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/** https pages that link to an http: URL of the same site (the host or its www. twin). */
const rule: FindingRule = {
  id: 'http_links_on_https',
  priority: 'medium',
  title: 'HTTPS pages linking to HTTP pages of the site',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done) {
      if (!p.url.startsWith('https:')) continue;
      forEachTarget(p, (target) => {
        if (target.startsWith('http:')) out.push({ url: p.url, detail: target });
      });
    }
    return out;
  },
};

export default rule;
