import { linkTargets } from './context.js';
import type { FindingPage, FindingRule } from './types.js';

/**
 * informational: links and resources the batch did not request — robots.txt disallows them
 * (another host's for its URLs), the per-batch cap of URLs of other hosts was reached, or the
 * address guard refuses the host. Not broken: not known. A disallowed URL that is a page of the
 * batch is `blocked_linked`'s.
 */
const rule: FindingRule = {
  id: 'unchecked_links',
  priority: 'low',
  title: 'Links and resources not checked (robots.txt, the per-batch cap, the address guard)',
  find(ctx) {
    const checks = ctx.graph?.checks;
    if (!checks) return [];
    const out: FindingPage[] = [];
    const externalBy = new Map<string, string[]>();
    for (const { source, target } of ctx.graph?.external ?? []) {
      const list = externalBy.get(source);
      if (list) list.push(target);
      else externalBy.set(source, [target]);
    }
    for (const p of ctx.done) {
      const seen = new Set<string>();
      const targets = [
        ...linkTargets(p),
        ...(p.facts.resources ?? []).map((r) => r.url),
        ...(externalBy.get(p.url) ?? []),
      ];
      for (const target of targets) {
        if (seen.has(target)) continue;
        seen.add(target);
        const c = checks.get(target);
        if (c?.verdict === 'unchecked')
          out.push({ url: p.url, detail: `${target} (${c.error ?? 'not requested'})` });
      }
    }
    return out;
  },
};

export default rule;
