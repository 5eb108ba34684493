import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'not_in_sitemap',
  priority: 'low',
  title: 'Linked pages missing from the sitemap',
  find(ctx) {
    if (!ctx.hasSitemap) return [];
    return ctx.pages
      .filter((p) => !p.inSitemap && ctx.linkedTo.has(p.url) && p.state === 'done')
      .map((p) => ({ url: p.url }));
  },
};

export default rule;
