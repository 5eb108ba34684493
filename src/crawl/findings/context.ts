// The batch as the finding rules read it (FindingContext), and the helpers two rules share.
import type { DonePage, FindingContext, FindingPage, PageForFindings } from './types.js';

export function findingContext(pages: PageForFindings[], startUrl: string): FindingContext {
  const done = pages.filter((p): p is DonePage => p.state === 'done' && p.facts !== null);
  const linkedTo = new Set<string>();
  for (const p of done) for (const target of linkTargets(p)) linkedTo.add(target);
  return {
    pages,
    byUrl: new Map(pages.map((p) => [p.url, p])),
    done,
    startUrl,
    hasSitemap: pages.some((p) => p.inSitemap),
    linkedTo,
  };
}

/** A page's internal links (followed, then nofollow), its links to itself aside. */
export function linkTargets(p: DonePage): string[] {
  return [...p.facts.links, ...p.facts.nofollow].filter((target) => target !== p.url);
}

/** The target answered 4xx/5xx or could not be fetched. */
export const isBroken = (t: PageForFindings): boolean =>
  t.state === 'failed' && (t.statusCode === null || t.statusCode >= 400);

/** The request for the target was redirected. */
export const isRedirected = (t: PageForFindings): boolean =>
  (t.finalUrl !== null && t.finalUrl !== t.url) || (t.facts?.redirected ?? false);

/** The audited pages that share a title (or description) with another, each with the value. */
export function duplicates(ctx: FindingContext, key: 'title' | 'description'): FindingPage[] {
  const groups = new Map<string, string[]>();
  for (const p of ctx.done) {
    const v = p.facts[key];
    if (v === null || v === '') continue;
    const g = groups.get(v);
    if (g) g.push(p.url);
    else groups.set(v, [p.url]);
  }
  const out: FindingPage[] = [];
  for (const [value, urls] of groups)
    if (urls.length > 1) for (const url of urls) out.push({ url, detail: value });
  return out;
}
