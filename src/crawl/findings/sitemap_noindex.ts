import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'sitemap_noindex',
  priority: 'medium',
  title: 'Sitemap URLs that are noindex',
  find(ctx) {
    return ctx.pages.filter((p) => p.inSitemap && p.facts?.noindex).map((p) => ({ url: p.url }));
  },
};

export default rule;
