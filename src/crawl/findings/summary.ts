// The batch summary (docs/sites.md): pages by state, result bands, the score histogram, the
// checks failed most often, the slowest and largest pages, and the findings' counts.
import { CompactFacts } from '../compact.js';
import type { Finding, PageForFindings } from './types.js';

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
  const count = (c: { id: string; title: string }) => {
    const e = checks.get(c.id);
    if (e) e.pages++;
    else checks.set(c.id, { id: c.id, title: c.title, pages: 1 });
  };
  for (const { f } of done) {
    bands[f.result]++;
    histogram[Math.min(9, Math.floor(f.score / 10))]!++;
    total += f.score;
    // compact facts (a batch's end): the checks read in place, no array a page
    if (f instanceof CompactFacts) f.forEachFailed(count);
    else f.failed.forEach(count);
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
