import { isRedirected } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/**
 * Pages canonicalised to a page that failed or answers an error. A target that redirects (3xx,
 * or answers 200 at another URL) is `canonical_to_redirect`'s, not counted here twice.
 */
const rule: FindingRule = {
  id: 'canonical_not_200',
  priority: 'medium',
  title: 'Canonical targets that do not answer 200',
  find(ctx) {
    const out: FindingPage[] = [];
    for (const p of ctx.done) {
      const c = p.facts.canonical;
      if (c === null || c === p.url) continue;
      const t = ctx.byUrl.get(c);
      if (!t || isRedirected(t) || (t.statusCode !== null && t.statusCode >= 300 && t.statusCode < 400))
        continue;
      if (t.state === 'failed' || (t.statusCode !== null && t.statusCode !== 200))
        out.push({ url: p.url, detail: `${c} (${t.statusCode ?? t.error ?? 'failed'})` });
    }
    return out;
  },
};

export default rule;
