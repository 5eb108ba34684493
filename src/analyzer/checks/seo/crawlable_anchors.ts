// Links a crawler can follow: an <a> needs an href with a real URL. Adapted from Lighthouse's
// crawlable-anchors for static HTML (we see attributes, not event listeners). Not links, so
// never failed: an <a> without href and without an inline onclick (a placeholder or fragment
// target), and an <a aria-current> without a real href (the current page in a menu).
// javascript: hrefs always fail.
import type { Anchor } from '../../artifacts/types.js';
import type { CheckDefinition } from '../types.js';
import { clip, plural, tableDetails } from '../types.js';

/** Why a crawler cannot follow this anchor; null when it can (or it is not meant as a link). */
export function uncrawlableReason(x: Anchor): string | null {
  if (x.role !== null && x.role !== '') return null; // role=button etc.: not presented as a link
  // fast path: an http(s) URL without a click handler (the vast majority)
  if (!x.hasOnclick && (x.protocol === 'https:' || x.protocol === 'http:')) return null;
  if (x.href === null) {
    // <a> without href and without a handler is a placeholder (a fragment target, the current
    // page in a menu, a disabled step), not a link; with an inline onclick it is a script link
    return x.hasOnclick && !x.current ? 'no href, only an onclick handler' : null;
  }
  const h = x.href.replace(/\s/g, '').toLowerCase();
  if (h.startsWith('mailto:')) return null;
  if (h.startsWith('javascript:')) return 'javascript: URL';
  if (h.startsWith('file:')) return 'file: URL';
  if (h === '' || h === '#')
    return x.hasOnclick && !x.current ? `href="${x.href.trim()}" with an onclick handler` : null;
  if (x.url === null) return 'unparsable URL';
  return null;
}

const check: CheckDefinition = {
  id: 'crawlable_anchors',
  category: 'seo',
  priority: 'medium',
  title: 'Links are crawlable',
  failTitle: 'Some links are not crawlable',
  howToFix:
    'Give every link an href with a real URL (<a href="/products">), and keep JavaScript behaviour as an enhancement: search engines follow href values only, never javascript: URLs or click handlers. Use <button> for actions that are not navigation.',
  failsWhen:
    'an `<a>`/`<area>` has only an inline `onclick` (no href, or `href="#"`/`""`), a `javascript:` or `file:` URL, or an unparsable URL. Not links, so never failed: an `<a>` without href and without a handler (a placeholder, a fragment target), an `<a aria-current>` without a real href (the current page in a menu), anything with a `role`. Not applicable without links',
  needsContent: true,
  run(a) {
    const rows: string[][] = [];
    let links = 0;
    for (const x of a.anchors) {
      links++;
      const why = uncrawlableReason(x);
      if (why !== null) rows.push([x.href === null ? '(none)' : clip(x.href, 100), clip(x.text, 80), why]);
    }
    if (links === 0) return 'not_applicable';
    if (rows.length > 0) {
      return {
        passed: false,
        message: `${rows.length} of ${plural(links, 'link')} cannot be followed by search engines (javascript: URL, or only an onclick handler).`,
        value: rows.length,
        details: tableDetails(['href', 'text', 'problem'], rows),
      };
    }
    return {
      passed: true,
      message:
        links === 1 ? 'The only link has a crawlable href.' : `All ${links} links have a crawlable href.`,
      value: 0,
    };
  },
};

export default check;
