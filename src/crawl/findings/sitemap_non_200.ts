import type { FindingRule } from './types.js';

const rule: FindingRule = {
  id: 'sitemap_non_200',
  priority: 'medium',
  title: 'Sitemap URLs that do not answer 200',
  find(ctx) {
    return ctx.pages
      .filter((p) => p.inSitemap && (p.state === 'failed' || (p.statusCode !== null && p.statusCode !== 200)))
      .map((p) => ({ url: p.url, detail: String(p.statusCode ?? p.error ?? 'failed') }));
  },
};

export default rule;
