import type { FindingRule } from './types.js';

/** a noindex page that at least this many audited pages link to is reported */
export const NOINDEX_LINKED_MIN_PAGES = 3;

/**
 * noindex pages that at least NOINDEX_LINKED_MIN_PAGES audited pages link to (followed links: a nofollow
 * link passes nothing):
 * the site sends its visitors and its link equity to a page it keeps out of search results.
 */
const rule: FindingRule = {
  id: 'noindex_linked',
  priority: 'medium',
  title: `noindex pages linked from ${NOINDEX_LINKED_MIN_PAGES} pages or more`,
  find(ctx) {
    const inlinks = new Map<string, number>();
    for (const p of ctx.done)
      for (const target of p.facts.links)
        if (target !== p.url) inlinks.set(target, (inlinks.get(target) ?? 0) + 1);
    return ctx.done
      .filter((p) => p.facts.noindex && (inlinks.get(p.url) ?? 0) >= NOINDEX_LINKED_MIN_PAGES)
      .map((p) => ({ url: p.url, detail: `linked from ${inlinks.get(p.url)} pages` }));
  },
};

export default rule;
