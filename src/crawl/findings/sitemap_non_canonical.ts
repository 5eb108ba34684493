import { canonicalElsewhere } from './context.js';
import type { FindingRule } from './types.js';

/** Sitemap URLs whose page is canonicalised elsewhere: the sitemap should list the canonical URL. */
const rule: FindingRule = {
  id: 'sitemap_non_canonical',
  priority: 'medium',
  title: 'Sitemap URLs that are canonicalised elsewhere',
  find(ctx) {
    return ctx.done.flatMap((p) => {
      const c = p.inSitemap ? canonicalElsewhere(p) : null;
      return c === null ? [] : [{ url: p.url, detail: `canonical: ${c}` }];
    });
  },
};

export default rule;
