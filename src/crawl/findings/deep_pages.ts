import type { FindingRule } from './types.js';

/** Audited pages whose crawl depth (links from the start page, as the crawl first found them) is over the batch's deep_page_depth (default 4). */
const rule: FindingRule = {
  id: 'deep_pages',
  priority: 'low',
  title: (s) => `Pages more than ${s.deepPageDepth} links away from the start page`,
  find(ctx) {
    const over = ctx.settings.deepPageDepth;
    return ctx.done
      .filter((p) => p.depth !== undefined && p.depth > over)
      .map((p) => ({ url: p.url, detail: `depth ${p.depth}` }));
  },
};

export default rule;
