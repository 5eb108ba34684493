// rel=canonical: present (in <head> or a Link header), absolute, valid, one URL only, and not
// one of the usual mistakes (every page pointing to the home page, to another language version,
// or from https to http). Rules follow Lighthouse's `canonical` audit where they overlap.
import type { Artifacts } from '../../artifacts/types.js';
import type { CheckDefinition } from '../types.js';
import { clip, listDetails } from '../types.js';
import { sameSite } from '../../url.js';

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

interface Candidate {
  source: string;
  raw: string;
  url: URL | null;
}

function candidates(a: Artifacts): Candidate[] {
  const out: Candidate[] = [];
  for (const l of a.links) {
    // canonical links in the body are not honoured by search engines (as Lighthouse)
    if (!l.inHead || !l.rel.includes('canonical') || l.href === null || l.href.trim() === '') continue;
    let url: URL | null = null;
    if (l.url !== null) url = new URL(l.url);
    out.push({ source: '<link rel=canonical>', raw: l.href.trim(), url });
  }
  for (const e of a.linkHeader) {
    if (!e.rel.includes('canonical') || e.href === '') continue;
    let url: URL | null = null;
    try {
      url = new URL(e.href, a.finalUrl);
    } catch {
      url = null;
    }
    out.push({ source: 'Link header', raw: e.href, url });
  }
  return out;
}

function sameIgnoringFragment(x: URL, y: URL): boolean {
  return x.origin === y.origin && x.pathname === y.pathname && x.search === y.search;
}

const check: CheckDefinition = {
  id: 'canonical',
  category: 'seo',
  priority: 'medium',
  title: 'The page has a valid canonical URL',
  failTitle: 'The page has no valid canonical URL',
  howToFix:
    'Add one <link rel="canonical" href="https://…"> in the <head> with the absolute URL of the page as it should appear in search results (usually the page itself); do not point every page to the home page, and keep the HTML and any Link header in agreement.',
  failsWhen:
    'no canonical; invalid, non-http(s) or relative href; several different canonical URLs (HTML and `Link` header together); it points to another hreflang alternate; it points to the site root from a deeper page; an https page points to its http twin',
  needsContent: true,
  run(a) {
    const list = candidates(a);
    const details = list.length
      ? listDetails(list.map((c) => `${c.source}: ${clip(c.raw, 200)}`))
      : undefined;
    const withDetails = <T extends object>(o: T) => (details ? { ...o, details } : o);
    if (list.length === 0) {
      return {
        passed: false,
        message:
          'The page declares no canonical URL (no <link rel="canonical"> in the <head>, no Link header): search engines choose one themselves among duplicate URLs.',
        value: null,
      };
    }
    const invalid = list.find(
      (c) => c.url === null || (c.url.protocol !== 'http:' && c.url.protocol !== 'https:'),
    );
    if (invalid) {
      return withDetails({
        passed: false,
        message: `The canonical URL "${clip(invalid.raw, 120)}" (${invalid.source}) is not a valid http(s) URL.`,
        value: invalid.raw,
      });
    }
    const relative = list.find((c) => !ABSOLUTE.test(c.raw));
    if (relative) {
      return withDetails({
        passed: false,
        message: `The canonical URL "${clip(relative.raw, 120)}" (${relative.source}) is relative; it must be absolute (https://…).`,
        value: relative.raw,
      });
    }
    const unique = [...new Set(list.map((c) => c.url!.href))];
    if (unique.length > 1) {
      return withDetails({
        passed: false,
        message: `The page declares ${unique.length} conflicting canonical URLs (${unique.map((u) => clip(u, 80)).join(', ')}); search engines may ignore all of them.`,
        value: unique,
      });
    }
    const canonical = new URL(unique[0]!);
    const page = a.finalUrlParsed;
    const dup = list.length > 1 ? ` (declared ${list.length} times, consistently)` : '';

    // a canonical that points to another language version of this page (Lighthouse's rule)
    const alternates = new Set<string>();
    for (const l of a.links) {
      if (l.inHead && l.rel.includes('alternate') && l.hreflang && l.url) alternates.add(l.url);
    }
    if (alternates.has(page.href) && alternates.has(canonical.href) && page.href !== canonical.href) {
      return withDetails({
        passed: false,
        message: `The canonical URL ${canonical.href} is another hreflang alternate of this page: each language version should be its own canonical.`,
        value: canonical.href,
      });
    }
    if (canonical.origin === page.origin && canonical.pathname === '/' && page.pathname !== '/') {
      return withDetails({
        passed: false,
        message: `The canonical URL points to the site's root (${canonical.href}) from ${page.pathname}, instead of to an equivalent page: search engines would drop this page in favour of the home page.`,
        value: canonical.href,
      });
    }
    if (
      page.protocol === 'https:' &&
      canonical.protocol === 'http:' &&
      canonical.hostname === page.hostname
    ) {
      return withDetails({
        passed: false,
        message: `The canonical URL ${canonical.href} points to the insecure http:// version of this https page.`,
        value: canonical.href,
      });
    }
    let message: string;
    if (sameIgnoringFragment(canonical, page)) {
      message = `The page's canonical URL is itself (${canonical.href})${dup}.`;
    } else if (canonical.origin === page.origin && canonical.pathname === page.pathname) {
      message = `The canonical URL ${canonical.href} is this page without its query variations${dup}.`;
    } else if (sameSite(canonical.hostname, page.hostname)) {
      message = `The canonical URL points to another URL of this site (${canonical.href})${dup}: search engines will index that URL instead of this one — make sure it has the same content.`;
    } else {
      message = `The canonical URL points to another site (${canonical.href})${dup}: right for syndicated copies, otherwise this page will not be indexed.`;
    }
    return withDetails({ passed: true, message, value: canonical.href });
  },
};

export default check;
