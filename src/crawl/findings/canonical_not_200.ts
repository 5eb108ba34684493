import { isRedirected } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

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
      if (t && (t.state === 'failed' || (t.statusCode !== null && t.statusCode !== 200) || isRedirected(t)))
        out.push({ url: p.url, detail: `${c} (${t.statusCode ?? t.error ?? 'failed'})` });
    }
    return out;
  },
};

export default rule;
