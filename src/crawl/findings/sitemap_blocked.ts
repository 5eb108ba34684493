import { isRobotsBlocked } from './context.js';
import type { FindingRule } from './types.js';

/** Sitemap URLs robots.txt disallows (the batch listed them and did not request them). */
const rule: FindingRule = {
  id: 'sitemap_blocked',
  priority: 'medium',
  title: 'Sitemap URLs that robots.txt disallows',
  find(ctx) {
    return ctx.pages.filter((p) => p.inSitemap && isRobotsBlocked(p)).map((p) => ({ url: p.url }));
  },
};

export default rule;
