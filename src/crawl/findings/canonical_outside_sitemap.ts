import { canonicalElsewhere } from './context.js';
import type { FindingRule } from './types.js';

/**
 * Pages canonicalised to a URL the sitemap does not list (the sitemap should list the
 * canonical URLs). Only for a batch with a sitemap, and only targets the batch knows (a page of
 * the batch: the sitemap's URLs are marked on them).
 */
const rule: FindingRule = {
  id: 'canonical_outside_sitemap',
  priority: 'low',
  title: 'Canonical targets missing from the sitemap',
  find(ctx) {
    if (!ctx.hasSitemap) return [];
    return ctx.done.flatMap((p) => {
      const c = canonicalElsewhere(p);
      const t = c === null ? undefined : ctx.byUrl.get(c);
      return t && !t.inSitemap ? [{ url: p.url, detail: `${c} is not in the sitemap` }] : [];
    });
  },
};

export default rule;
