// The per-page facts a batch keeps (batch_pages.facts, JSON): what the site-level findings
// need and nothing more — links out, status, canonical, hreflang, title, description, noindex,
// and the audit's result, score, failed checks, time and size.
import type { Artifacts } from '../analyzer/artifacts/types.js';
import type { AuditReport, Priority } from '../analyzer/types.js';
import { countWords } from '../analyzer/artifacts/html.js';
import { minhash, textHash, words } from './similarity.js';
import { crawlUrl, onSite } from './url.js';
import { failedRequests, pageResources, type PageResource } from './resources.js';

/** h1 texts kept per page, and the characters kept of each (the facts stay compact) */
const MAX_H1 = 10;
const MAX_H1_CHARS = 200;

export interface PageFacts {
  title: string | null;
  description: string | null;
  /** the canonical URL (normal form), null when none */
  canonical: string | null;
  /** hreflang alternates: language → URL (normal form) */
  hreflang: { lang: string; url: string }[];
  noindex: boolean;
  /** internal links, normal form, de-duplicated, in page order (nofollow ones excluded) */
  links: string[];
  /** internal links marked nofollow (never followed, still checked when another page follows them) */
  nofollow: string[];
  /** the request was redirected */
  redirected: boolean;
  result: AuditReport['result'];
  score: number;
  /** the failed checks' ids with their priorities */
  failed: { id: string; priority: Priority; title: string }[];
  totalMs: number;
  htmlBytes: number;
  /**
   * the main text (Artifacts.mainText: the template's nav, header, footer and aside left out):
   * its words, a hash of it and its MinHash signature (src/crawl/similarity.ts) — never the text.
   * Absent in the facts of batches made before they were kept.
   */
  mainWords?: number;
  mainHash?: string | null;
  minhash?: string | null;
  /** the <h1> texts, in page order (at most MAX_H1, each cut at MAX_H1_CHARS) */
  h1?: string[];
  /** a rendered batch's page: its render completed, or was inconclusive (raw results kept) */
  render?: 'completed' | 'inconclusive';
  /** failed checks an ignore rule of the project made "not judged" (src/crawl/ignore.ts); absent: none */
  ignored?: { id: string; priority: Priority; title: string; rule_id: string; reason: string }[];

  // --- issue 21 §4–§5: the AI readiness and accessibility categories (categoryFacts below) ---
  /** AI readiness: absent in the facts of batches made before it was kept */
  ai?: {
    /** the AI crawlers robots.txt keeps from this page (checks/ai/ai_crawlers.ts) */
    blocked: string[];
    /** its noai / noimageai directives ("noai (meta robots)") */
    directives: string[];
    /** /llms.txt: `valid`, or why not (the llms_txt check's message); null when not judged */
    llms: string | null;
  };
  /** a rendered page's axe-core violations (rule ids); absent when axe did not run (raw batches) */
  axe?: string[];

  // --- issue 21 §1: the resources a batch checks (resources.ts; docs/sites.md "Links and resources checked") ---
  /** the page's resources (images, srcset candidates, stylesheets, scripts, frames, fonts, media); absent in older batches */
  resources?: PageResource[];
  /** a rendered page: the requests the browser made that failed or answered 4xx/5xx (render.failed_requests) */
  failedRequests?: { url: string; status: number | null; reason: string }[];
}

/** The AI readiness and accessibility facts of a page, from its report (PageFacts.ai, .axe). */
export function categoryFacts(report: AuditReport): Pick<PageFacts, 'ai' | 'axe'> {
  const r = report.results;
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  const llms = r['llms_txt'];
  const out: Pick<PageFacts, 'ai' | 'axe'> = {
    ai: {
      blocked: list(r['ai_crawlers']?.value),
      directives: list(r['ai_directives']?.value),
      llms: llms === undefined || llms.passed === null ? null : llms.passed ? 'valid' : llms.message,
    },
  };
  const axe = report.render?.accessibility?.violations;
  if (axe) out.axe = axe.map((v) => v.id);
  return out;
}

export function pageFacts(
  a: Artifacts,
  report: AuditReport,
  startHost: string,
  trackingParams: readonly string[],
): PageFacts {
  const base = a.baseUrl;
  const norm = (href: string | null) => (href === null ? null : crawlUrl(href, base, trackingParams));
  const links: string[] = [];
  const nofollow: string[] = [];
  const seen = new Set<string>();
  // the robots directives are read once per page, by the artifacts (Artifacts.indexing)
  const pageNofollow = a.indexing.nofollow;
  for (const anchor of a.anchors) {
    const u = norm(anchor.href);
    if (u === null || !onSite(u, startHost) || seen.has(u)) continue;
    seen.add(u);
    if (pageNofollow || anchor.rel.includes('nofollow')) nofollow.push(u);
    else links.push(u);
  }
  const canonicalTag = a.links.find((l) => l.rel.includes('canonical') && l.href);
  const description = a.metas.find((m) => m.name?.toLowerCase() === 'description')?.content?.trim() ?? null;
  // a `<meta name="robots">` or X-Robots-Tag (the noindex check also counts googlebot, bingbot
  // and pagegrade meta tags; a batch's noindex finding has so far counted robots alone)
  const noindex = a.indexing.noindexMetas.some((m) => m.name === 'robots') || a.indexing.noindexHeader;
  const main = words(a.mainText);
  return {
    title: a.titles[0] ?? null,
    description: description === '' ? null : description,
    canonical: canonicalTag ? norm(canonicalTag.href) : null,
    hreflang: a.links
      .filter((l) => l.rel.includes('alternate') && l.hreflang && l.href)
      .map((l) => ({ lang: l.hreflang!, url: norm(l.href)! }))
      .filter((h) => h.url !== null),
    noindex,
    links,
    nofollow,
    redirected: report.page.redirects.length > 0,
    result: report.result,
    score: report.score,
    failed: Object.values(report.results)
      .filter((r) => r.passed === false)
      .map((r) => ({ id: r.id, priority: r.priority, title: r.title })),
    totalMs: report.page.timings.total_ms,
    htmlBytes: report.page.sizes.html_bytes,
    mainWords: countWords(a.mainText),
    mainHash: main.length === 0 ? null : textHash(main),
    minhash: minhash(main),
    h1: a.headings
      .filter((h) => h.level === 1)
      .slice(0, MAX_H1)
      .map((h) => h.text.slice(0, MAX_H1_CHARS)),
    ...(report.render ? { render: report.render.status } : {}),
    ...categoryFacts(report),
    resources: pageResources(a),
    ...failedRequests(report),
  };
}

/**
 * A rendered page's facts (a batch with render: docs/rendering.md): what the rendered DOM says
 * — title, description, canonical, hreflang, the audit's result — with the links of both
 * documents, the rendered ones first: the links JavaScript made are followed, and a link of the
 * HTML the server sends stays one (a crawler that runs no JavaScript follows it). A page is
 * noindex when either document says so.
 */
export function renderedFacts(raw: PageFacts, rendered: PageFacts): PageFacts {
  const links = [...new Set([...rendered.links, ...raw.links])];
  const followed = new Set(links);
  const nofollow = [...new Set([...rendered.nofollow, ...raw.nofollow])].filter((u) => !followed.has(u));
  const seen = new Set((rendered.resources ?? []).map((r) => r.url));
  const resources = [...(rendered.resources ?? []), ...(raw.resources ?? []).filter((r) => !seen.has(r.url))];
  return { ...rendered, links, nofollow, noindex: raw.noindex || rendered.noindex, resources };
}

/**
 * One copy of what recurs across a batch's pages, shared by every page that holds it: the URLs
 * (each page links to ~20 others, so a 100,000-page batch's facts hold ~2 million link strings
 * of which ~100,000 differ) and the failed-check entries (the same few checks fail on many
 * pages). A batch's end holds every page's facts at once to compute the site findings; with
 * the strings shared, that costs one string per distinct URL instead of one per link. The shared
 * check entries are frozen: facts are read, never changed in place.
 */
export function factsSharer(): { url(u: string): string; facts(f: PageFacts): PageFacts } {
  const strings = new Map<string, string>();
  const entries = new Map<string, PageFacts['failed'][number]>();
  const url = (u: string): string => {
    const hit = strings.get(u);
    if (hit !== undefined) return hit;
    strings.set(u, u);
    return u;
  };
  const entry = (e: PageFacts['failed'][number]) => {
    const key = `${e.id}\u0000${e.priority}\u0000${e.title}`;
    const hit = entries.get(key);
    if (hit) return hit;
    const shared = Object.freeze({ ...e });
    entries.set(key, shared);
    return shared;
  };
  return {
    url,
    facts: (f) => ({
      ...f,
      canonical: f.canonical === null ? null : url(f.canonical),
      hreflang: f.hreflang.map((h) => ({ lang: url(h.lang), url: url(h.url) })),
      links: f.links.map(url),
      nofollow: f.nofollow.map(url),
      failed: f.failed.map(entry),
      ...(f.resources ? { resources: f.resources.map((r) => ({ kind: r.kind, url: url(r.url) })) } : {}),
    }),
  };
}
