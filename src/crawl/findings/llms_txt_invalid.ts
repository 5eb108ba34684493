import type { FindingRule } from './types.js';

/**
 * AI readiness, site-wide: the site's /llms.txt is missing or breaks the format (llmstxt.org).
 * Listed once, on the first audited page (the site file is the same for every page), the
 * detail saying why.
 */
const rule: FindingRule = {
  id: 'llms_txt_invalid',
  priority: 'low',
  title: 'The site has no valid /llms.txt',
  find(ctx) {
    const first = ctx.done.find((p) => p.facts.ai?.llms != null);
    const llms = first?.facts.ai?.llms;
    if (first === undefined || llms == null || llms === 'valid') return [];
    return [{ url: first.url, detail: llms }];
  },
};

export default rule;
