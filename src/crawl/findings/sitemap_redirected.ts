import { isRedirected } from './context.js';
import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'sitemap_redirected',
  priority: 'low',
  title: 'Sitemap URLs that redirect',
  find(ctx) {
    return ctx.pages
      .filter((p) => p.inSitemap && isRedirected(p))
      .map((p) => ({ url: p.url, detail: p.finalUrl ?? '' }));
  },
};

export default rule;
