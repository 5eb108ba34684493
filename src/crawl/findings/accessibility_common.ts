import type { FindingRule } from './types.js';

/**
 * The axe-core rules failing on most pages of a rendered crawl: those broken on more than half
 * of the pages axe judged (and on at least 2). Each page breaking one of them is listed, the
 * detail naming the common rules it breaks. A raw crawl (no axe) finds nothing.
 */
const rule: FindingRule = {
  id: 'accessibility_common',
  priority: 'high',
  title: 'Accessibility rules failing on most pages',
  find(ctx) {
    const judged = ctx.done.filter((p) => p.facts.axe !== undefined);
    const pagesByRule = new Map<string, number>();
    for (const p of judged)
      for (const id of new Set(p.facts.axe)) pagesByRule.set(id, (pagesByRule.get(id) ?? 0) + 1);
    const common = new Set(
      [...pagesByRule].filter(([, n]) => n >= 2 && n * 2 > judged.length).map(([id]) => id),
    );
    if (common.size === 0) return [];
    const out = [];
    for (const p of judged) {
      const rules = [...new Set(p.facts.axe)].filter((id) => common.has(id)).sort();
      if (rules.length > 0) out.push({ url: p.url, detail: rules.join(', ') });
    }
    return out;
  },
};

export default rule;
