// Site-level findings and the batch summary (docs/sites.md), computed from the per-page facts
// (batch_pages) in one pass over the batch's pages: nothing is fetched again.
import type { PageFacts } from './facts.js';

export interface FindingPage {
  url: string;
  /** what is wrong with this page for the finding (the link target, the duplicated title …) */
  detail?: string;
}

export interface Finding {
  id: string;
  title: string;
  /** pages concerned */
  count: number;
  pages: FindingPage[];
}

export interface BatchSummary {
  pages: { discovered: number; audited: number; failed: number; skipped: number };
  bands: { good: number; decent: number; bad: number };
  /** ten buckets of the overall score: 0–9, 10–19, … 90–100 */
  histogram: number[];
  averageScore: number | null;
  topChecks: { id: string; title: string; pages: number }[];
  slowest: { url: string; ms: number }[];
  largest: { url: string; bytes: number }[];
  findings: { id: string; title: string; count: number }[];
}

export interface PageForFindings {
  url: string;
  state: 'queued' | 'fetching' | 'done' | 'failed' | 'skipped';
  inSitemap: boolean;
  statusCode: number | null;
  finalUrl: string | null;
  error: string | null;
  facts: PageFacts | null;
}

export const FINDINGS = {
  duplicate_titles: 'Pages that share a title',
  duplicate_descriptions: 'Pages that share a meta description',
  broken_links: 'Internal links to pages that answered 4xx/5xx or could not be fetched',
  redirected_links: 'Internal links through a redirect',
  orphans: 'Pages in the sitemap that no crawled page links to',
  not_in_sitemap: 'Linked pages missing from the sitemap',
  sitemap_noindex: 'Sitemap URLs that are noindex',
  sitemap_non_200: 'Sitemap URLs that do not answer 200',
  sitemap_redirected: 'Sitemap URLs that redirect',
  canonical_not_200: 'Canonical targets that do not answer 200',
  hreflang_no_return: 'hreflang alternates that do not point back',
} as const;

export type FindingId = keyof typeof FINDINGS;

export function computeFindings(pages: PageForFindings[], startUrl: string): Finding[] {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const done = pages.filter((p) => p.state === 'done' && p.facts !== null);
  const out: Record<FindingId, FindingPage[]> = {
    duplicate_titles: [],
    duplicate_descriptions: [],
    broken_links: [],
    redirected_links: [],
    orphans: [],
    not_in_sitemap: [],
    sitemap_noindex: [],
    sitemap_non_200: [],
    sitemap_redirected: [],
    canonical_not_200: [],
    hreflang_no_return: [],
  };
  const dupes = (key: 'title' | 'description', id: FindingId) => {
    const groups = new Map<string, string[]>();
    for (const p of done) {
      const v = p.facts![key];
      if (v === null || v === '') continue;
      const g = groups.get(v);
      if (g) g.push(p.url);
      else groups.set(v, [p.url]);
    }
    for (const [value, urls] of groups)
      if (urls.length > 1) for (const url of urls) out[id].push({ url, detail: value });
  };
  dupes('title', 'duplicate_titles');
  dupes('description', 'duplicate_descriptions');

  const hasSitemap = pages.some((p) => p.inSitemap);
  const linkedTo = new Set<string>();
  const redirectedTarget = (t: PageForFindings) =>
    (t.finalUrl !== null && t.finalUrl !== t.url) || (t.facts?.redirected ?? false);
  for (const p of done) {
    for (const target of [...p.facts!.links, ...p.facts!.nofollow]) {
      if (target === p.url) continue;
      linkedTo.add(target);
      const t = byUrl.get(target);
      if (!t) continue;
      if (t.state === 'failed' && (t.statusCode === null || t.statusCode >= 400)) {
        out.broken_links.push({ url: p.url, detail: `${target} (${t.statusCode ?? t.error ?? 'failed'})` });
      } else if (redirectedTarget(t)) {
        out.redirected_links.push({ url: p.url, detail: `${target} → ${t.finalUrl ?? '?'}` });
      }
    }
  }
  for (const p of pages) {
    if (p.inSitemap) {
      if (!linkedTo.has(p.url) && p.url !== startUrl && done.length > 1) out.orphans.push({ url: p.url });
      if (p.facts?.noindex) out.sitemap_noindex.push({ url: p.url });
      if (p.state === 'failed' || (p.statusCode !== null && p.statusCode !== 200))
        out.sitemap_non_200.push({ url: p.url, detail: String(p.statusCode ?? p.error ?? 'failed') });
      if (redirectedTarget(p)) out.sitemap_redirected.push({ url: p.url, detail: p.finalUrl ?? '' });
    } else if (hasSitemap && linkedTo.has(p.url) && p.state === 'done') {
      out.not_in_sitemap.push({ url: p.url });
    }
  }
  for (const p of done) {
    const c = p.facts!.canonical;
    if (c !== null && c !== p.url) {
      const t = byUrl.get(c);
      if (
        t &&
        (t.state === 'failed' || (t.statusCode !== null && t.statusCode !== 200) || redirectedTarget(t))
      )
        out.canonical_not_200.push({ url: p.url, detail: `${c} (${t.statusCode ?? t.error ?? 'failed'})` });
    }
    for (const h of p.facts!.hreflang) {
      if (h.url === p.url) continue;
      const t = byUrl.get(h.url);
      if (!t?.facts) continue;
      if (!t.facts.hreflang.some((back) => back.url === p.url))
        out.hreflang_no_return.push({ url: p.url, detail: `${h.lang}: ${h.url}` });
    }
  }
  return (Object.keys(FINDINGS) as FindingId[]).map((id) => ({
    id,
    title: FINDINGS[id],
    count: new Set(out[id].map((f) => f.url)).size,
    pages: out[id],
  }));
}

export function computeSummary(
  pages: PageForFindings[],
  findings: Finding[],
  counters: { discovered: number; audited: number; failed: number; skipped: number },
): BatchSummary {
  const done = pages
    .filter((p) => p.state === 'done' && p.facts !== null)
    .map((p) => ({ url: p.url, f: p.facts! }));
  const bands = { good: 0, decent: 0, bad: 0 };
  const histogram = new Array<number>(10).fill(0);
  const checks = new Map<string, { id: string; title: string; pages: number }>();
  let total = 0;
  for (const { f } of done) {
    bands[f.result]++;
    histogram[Math.min(9, Math.floor(f.score / 10))]!++;
    total += f.score;
    for (const c of f.failed) {
      const e = checks.get(c.id);
      if (e) e.pages++;
      else checks.set(c.id, { id: c.id, title: c.title, pages: 1 });
    }
  }
  return {
    pages: counters,
    bands,
    histogram,
    averageScore: done.length === 0 ? null : Math.round((total / done.length) * 10) / 10,
    topChecks: [...checks.values()]
      .sort((a, b) => b.pages - a.pages || a.id.localeCompare(b.id))
      .slice(0, 10),
    slowest: [...done]
      .sort((a, b) => b.f.totalMs - a.f.totalMs)
      .slice(0, 10)
      .map((p) => ({ url: p.url, ms: p.f.totalMs })),
    largest: [...done]
      .sort((a, b) => b.f.htmlBytes - a.f.htmlBytes)
      .slice(0, 10)
      .map((p) => ({ url: p.url, bytes: p.f.htmlBytes })),
    findings: findings.map((f) => ({ id: f.id, title: f.title, count: f.count })),
  };
}
