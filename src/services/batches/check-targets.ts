// What a batch's check step asks, and in which order (docs/sites.md "Links and resources
// checked"): the URLs its pages link to or load that are not pages of the batch, each once — on
// the site, and (check_external) on other hosts — and the order the caps keep them in:
// stylesheets first (their fonts are read from them), then the other resources and the fonts,
// then the links, each group in URL order, so that a retried step keeps the same URLs.
import type { PageFacts } from '../../crawl/facts.js';
import { onSite } from '../../crawl/url.js';
import { externalTargets, type CheckKind } from '../../store/batch-checks.repository.js';
import { pagesAfter, type BatchRow } from '../../store/batches.repository.js';
import { optionsOf, type BatchDeps } from './deps.js';

const PAGE_CHUNK = 1000;

export interface Target {
  url: string;
  kind: CheckKind;
}

export interface BatchTargets {
  /** the batch's pages (never checked again) */
  pages: Set<string>;
  /** the site's URLs */
  site: Target[];
  /** other hosts' URLs (check_external: their links too; without it, the resources only) */
  other: Target[];
  /** the URLs a page loads as a stylesheet */
  stylesheets: Set<string>;
}

/** The URLs the batch's pages link to and load that are not pages of the batch, each once. */
export async function targetsOf(d: BatchDeps, b: BatchRow): Promise<BatchTargets> {
  const host = new URL(b.url).hostname;
  const pages = new Set<string>();
  const found = new Map<string, CheckKind>();
  const stylesheets = new Set<string>();
  for (let after = 0; ;) {
    const rows = await pagesAfter(d.ctx.db, b.id, after, PAGE_CHUNK);
    for (const r of rows) {
      pages.add(r.url);
      if (r.state !== 'done' || r.facts === null) continue;
      const f = JSON.parse(r.facts) as PageFacts;
      // followed links only: a nofollow target is never requested (as the crawl does not follow it)
      for (const u of f.links) if (!found.has(u)) found.set(u, 'internal');
      // a URL both linked to and loaded is a resource (checked before the links)
      for (const res of f.resources ?? []) {
        found.set(res.url, 'resource');
        if (res.kind === 'stylesheet') stylesheets.add(res.url);
      }
    }
    if (rows.length < PAGE_CHUNK) break;
    after = rows[rows.length - 1]!.id;
  }
  const site: Target[] = [];
  const other: Target[] = [];
  for (const [url, kind] of found) {
    if (pages.has(url)) continue;
    (onSite(url, host) ? site : other).push({ url, kind });
  }
  if (optionsOf(b).checkExternal)
    for (const url of await externalTargets(d.ctx.db, b.id))
      if (!found.has(url) && !pages.has(url)) other.push({ url, kind: 'external' });
  return { pages, site, other, stylesheets };
}

/**
 * The order the caps keep: the pages' stylesheets, the stylesheets they @import, then the other
 * resources and fonts, then links; each group by URL.
 */
export function capOrder(
  targets: readonly Target[],
  stylesheets: ReadonlySet<string>,
  imports: ReadonlySet<string> = new Set(),
): Target[] {
  const rank = (t: Target) =>
    stylesheets.has(t.url) ? 0 : imports.has(t.url) ? 1 : t.kind === 'resource' || t.kind === 'font' ? 2 : 3;
  return [...targets].sort((x, y) => rank(x) - rank(y) || (x.url < y.url ? -1 : x.url > y.url ? 1 : 0));
}
