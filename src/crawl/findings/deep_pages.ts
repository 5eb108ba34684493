import type { FindingRule } from './types.js';

/** a page found more links than this away from the start page is deep */
export const DEEP_PAGES_DEPTH = 4;

/** Audited pages whose crawl depth (links from the start page, as the crawl first found them) is over DEEP_PAGES_DEPTH. */
const rule: FindingRule = {
  id: 'deep_pages',
  priority: 'low',
  title: `Pages more than ${DEEP_PAGES_DEPTH} links away from the start page`,
  find(ctx) {
    return ctx.done
      .filter((p) => p.depth !== undefined && p.depth > DEEP_PAGES_DEPTH)
      .map((p) => ({ url: p.url, detail: `depth ${p.depth}` }));
  },
};

export default rule;
