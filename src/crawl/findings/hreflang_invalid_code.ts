// The page check's rule (src/analyzer/checks/seo/hreflang.ts), so that a page and its site
// agree on what a valid code is.
import { hreflangProblem } from '../../analyzer/checks/seo/hreflang.js';
import type { FindingPage, FindingRule } from './types.js';

/** hreflang values that are not a language (ISO 639-1) with an optional region (ISO 3166-1), nor x-default. */
const rule: FindingRule = {
  id: 'hreflang_invalid_code',
  priority: 'medium',
  title: 'hreflang values that are not a valid language/region code',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done)
      for (const h of p.facts.hreflang)
        if (hreflangProblem(h.lang) !== null) out.push({ url: p.url, detail: `${h.lang}: ${h.url}` });
    return out;
  },
};

export default rule;
