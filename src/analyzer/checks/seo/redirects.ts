// The redirect chain before the page: too many hops, https→http downgrades, http→https upgrades.
import type { CheckDefinition } from '../types.js';
import { tableDetails } from '../types.js';

function scheme(url: string): string {
  const i = url.indexOf(':');
  return i > 0 ? url.slice(0, i).toLowerCase() : '';
}

const check: CheckDefinition = {
  id: 'redirects',
  category: 'seo',
  priority: 'medium',
  title: 'The page is reached without a redirect chain',
  failTitle: 'The page is reached through too many or unsafe redirects',
  howToFix:
    'Link to and redirect straight to the final URL (one hop at most, e.g. http:// → https://www.): each hop costs a round trip and dilutes link signals. Never redirect from https:// to http://.',
  failsWhen: 'more hops than allowed before the page, or any hop from https to http',
  needsContent: false,
  thresholds: {
    max_hops: { default: 1, description: 'redirects allowed before the page (more fails)' },
  },
  run(a, t) {
    const max = t.max_hops ?? 1;
    const hops = a.redirects;
    if (hops.length === 0) {
      return { passed: true, message: 'The page answered directly, without redirects.', value: 0 };
    }
    const rows: (string | number)[][] = [];
    const downgrades: string[] = [];
    let upgrade = false;
    let temporary = 0;
    for (let i = 0; i < hops.length; i++) {
      const hop = hops[i]!;
      const to = i + 1 < hops.length ? hops[i + 1]!.url : a.finalUrl;
      const from = scheme(hop.url);
      const next = scheme(to);
      let note = '';
      if (from === 'https' && next === 'http') {
        note = 'https → http downgrade';
        downgrades.push(`${hop.url} → ${to}`);
      } else if (from === 'http' && next === 'https') {
        note = 'http → https upgrade';
        upgrade = true;
      }
      if (hop.status === 302 || hop.status === 303 || hop.status === 307) {
        temporary++;
        note = note ? `${note}; temporary` : 'temporary';
      }
      rows.push([i + 1, hop.url, hop.status, to, note]);
    }
    const details = tableDetails(['hop', 'from', 'status', 'to', 'note'], rows);
    const chain = `${hops.length} redirect${hops.length === 1 ? '' : 's'} (${hops.map((h) => h.status).join(' → ')})`;
    const extras: string[] = [];
    if (upgrade) extras.push('includes an http → https upgrade');
    if (temporary > 0)
      extras.push(
        `${temporary} temporary (302/303/307) where a permanent 301/308 passes link signals more reliably`,
      );
    const extra = extras.length ? `; ${extras.join('; ')}` : '';
    if (downgrades.length > 0) {
      return {
        passed: false,
        message: `${chain} before ${a.finalUrl}, with a redirect from https to http (${downgrades[0]}): the page loses transport security${extra}.`,
        value: hops.length,
        details,
      };
    }
    if (hops.length > max) {
      return {
        passed: false,
        message: `${chain} before reaching ${a.finalUrl}; at most ${max} allowed${extra}.`,
        value: hops.length,
        details,
      };
    }
    return {
      passed: true,
      message: `${chain} before reaching ${a.finalUrl}, within the limit of ${max}${extra}.`,
      value: hops.length,
      details,
    };
  },
};

export default check;
