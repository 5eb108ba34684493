import type { FindingRule } from './types.js';

/**
 * Internal links marked rel="nofollow" on the link itself (read from the batch's link graph,
 * with their anchor text); a page-wide meta robots nofollow is the page's directive, not counted.
 */
const rule: FindingRule = {
  id: 'internal_nofollow',
  priority: 'low',
  title: 'Internal links marked nofollow',
  find(ctx) {
    return (ctx.graph?.nofollow ?? []).map((l) => ({
      url: l.source,
      detail: `${l.target}${l.anchor === '' ? '' : ` ("${l.anchor}")`}`,
    }));
  },
};

export default rule;
