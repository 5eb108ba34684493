import type { FindingPage, FindingRule } from './types.js';

/** at least this many audited pages canonicalise to the same URL … */
const MIN_PAGES = 5;

/**
 * A template bug: more than half of the audited pages (and at least 5) name one URL, not
 * themselves, as their canonical — search engines then index that URL alone. The pages
 * concerned, each with that URL.
 */
const rule: FindingRule = {
  id: 'canonical_template',
  priority: 'high',
  title: 'Most pages name one URL as their canonical (a template bug)',
  find(ctx) {
    const byTarget = new Map<string, string[]>();
    for (const p of ctx.done) {
      const c = p.facts.canonical;
      if (c === null || c === p.url) continue;
      const g = byTarget.get(c);
      if (g) g.push(p.url);
      else byTarget.set(c, [p.url]);
    }
    const out: FindingPage[] = [];
    for (const [target, urls] of byTarget)
      if (urls.length >= MIN_PAGES && urls.length * 2 > ctx.done.length)
        for (const url of urls) out.push({ url, detail: `canonicalised to ${target}` });
    return out;
  },
};

export default rule;
