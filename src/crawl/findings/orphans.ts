import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'orphans',
  priority: 'medium',
  title: 'Pages in the sitemap that no crawled page links to',
  find(ctx) {
    if (ctx.done.length <= 1) return [];
    return ctx.pages
      .filter((p) => p.inSitemap && !ctx.linkedTo.has(p.url) && p.url !== ctx.startUrl)
      .map((p) => ({ url: p.url }));
  },
};

export default rule;
