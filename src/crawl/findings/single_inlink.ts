import { forEachTarget } from './context.js';
import type { FindingRule } from './types.js';

/** Audited pages (the start page aside) that exactly one other audited page links to. */
const rule: FindingRule = {
  id: 'single_inlink',
  priority: 'low',
  title: 'Pages with a single internal link to them',
  find(ctx) {
    if (ctx.done.length <= 1) return [];
    const from = new Map<string, string | null>();
    for (const p of ctx.done)
      forEachTarget(p, (target) => void from.set(target, from.has(target) ? null : p.url));
    return ctx.done
      .filter((p) => p.url !== ctx.startUrl && typeof from.get(p.url) === 'string')
      .map((p) => ({ url: p.url, detail: `only linked from ${from.get(p.url)}` }));
  },
};

export default rule;
