import { forEachLink } from './context.js';
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
    // counted for the noindex pages alone (a few), not for every link target of the site
    const inlinks = new Map<string, number>();
    for (const p of ctx.done) if (p.facts.noindex) inlinks.set(p.url, 0);
    if (inlinks.size === 0) return [];
    for (const p of ctx.done)
      forEachLink(p, (target) => {
        const n = inlinks.get(target);
        if (n !== undefined && target !== p.url) inlinks.set(target, n + 1);
      });
    return ctx.done
      .filter((p) => p.facts.noindex && inlinks.get(p.url)! >= NOINDEX_LINKED_MIN_PAGES)
      .map((p) => ({ url: p.url, detail: `linked from ${inlinks.get(p.url)} pages` }));
  },
};

export default rule;
