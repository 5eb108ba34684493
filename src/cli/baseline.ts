// `pagegrade crawl --baseline FILE [--fail-on-regression]` (docs/sites.md, "Comparing crawls"):
// the crawl compared with an earlier `pagegrade crawl --json` by the same pure function the
// server uses (src/crawl/diff.ts) — the baseline's pages become digests, its findings are read
// as they are, its custom extraction values kept by URL — and the diff's summary as text.
import { readFile } from 'node:fs/promises';
import {
  diffCrawls,
  pageDigest,
  type CheckTable,
  type CrawlDiff,
  type CrawlSide,
  type PageDigest,
} from '../crawl/diff.js';
import { comparedExtractors, extractedKey, extractedPages, fillExtracted } from '../crawl/diff-extracted.js';
import { extractedCell, type Extracted } from '../crawl/extract.js';
import type { Finding } from '../crawl/findings/index.js';
import type { Priority, ResultBand } from '../analyzer/types.js';
import type { BatchPageResult } from '../services/batches/types.js';
import { CliError } from './exit-codes.js';

/** A page of `pagegrade crawl --json` (the export's page), as far as the diff reads it. */
interface BaselinePage {
  url: string;
  state: string;
  status_code: number | null;
  final_url: string | null;
  canonical: string | null;
  title: string | null;
  /** absent in files written before the diff (read as false) */
  noindex?: boolean | null;
  result: ResultBand | null;
  score: number | null;
  failed_checks: { id: string; priority: Priority; title: string }[];
  /** custom extraction values (absent in files written before it) */
  extracted?: Extracted | null;
}

interface BaselineFile {
  batch: {
    id: number;
    url: string;
    finished_at: string | null;
    /** absent in files written before custom extraction */
    options?: { extractors?: { name: string }[] };
  };
  findings: Finding[];
  pages: BaselinePage[];
}

function isBaseline(v: unknown): v is BaselineFile {
  const o = v as Partial<BaselineFile> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.batch === 'object' &&
    o.batch !== null &&
    Array.isArray(o.findings) &&
    Array.isArray(o.pages) &&
    o.pages.every(
      (p) => typeof p?.url === 'string' && typeof p.state === 'string' && Array.isArray(p.failed_checks),
    )
  );
}

/** The baseline as one side of the diff, with its pages' custom extraction values by URL. */
export type Baseline = CrawlSide & {
  url: string;
  /** the names of its custom extractors, and its pages' values by URL */
  extractors: string[];
  values: Map<string, Extracted>;
};

/** The baseline file as one side of the diff; exit 2 when it cannot be read or is no crawl's JSON. */
export async function readBaseline(file: string, checks: CheckTable): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(`--baseline ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!isBaseline(parsed))
    throw new CliError(
      `--baseline ${file}: not the JSON of \`pagegrade crawl --json\` (batch, findings, pages).`,
    );
  const pages: PageDigest[] = [];
  const values = new Map<string, Extracted>();
  for (const p of parsed.pages) {
    if (p.extracted && typeof p.extracted === 'object') values.set(p.url, p.extracted);
    const facts =
      p.state === 'done' && p.result !== null && p.score !== null
        ? {
            title: p.title,
            noindex: p.noindex === true,
            result: p.result,
            score: p.score,
            failed: p.failed_checks,
          }
        : null;
    const digest = pageDigest(
      {
        url: p.url,
        state: p.state,
        statusCode: p.status_code,
        finalUrl: p.final_url,
        canonical: p.canonical,
      },
      facts,
      checks,
    );
    if (digest !== null) pages.push(digest);
  }
  return {
    id: parsed.batch.id,
    url: parsed.batch.url,
    finishedAt: parsed.batch.finished_at ?? null,
    pages,
    findings: parsed.findings,
    extractors: (parsed.batch.options?.extractors ?? []).map((e) => e.name),
    values,
  };
}

/** This crawl compared with the baseline. */
export function compareWithBaseline(
  baseline: Baseline,
  current: {
    id: number;
    finishedAt: string | null;
    pages: BatchPageResult[];
    findings: Finding[];
    /** the names of its custom extractors */
    extractors: string[];
  },
  checks: CheckTable,
  pageShare: number,
): CrawlDiff {
  // custom extraction: the extractors of both, compared by a key a page
  const names = comparedExtractors(baseline.extractors, current.extractors);
  for (const d of baseline.pages)
    d.extracted = d.audited ? extractedKey(baseline.values.get(d.url), names) : null;
  const pages: PageDigest[] = [];
  const values = new Map<string, Extracted>();
  for (const p of current.pages) {
    const digest = pageDigest({ ...p, extracted: extractedKey(p.extracted, names) }, p.facts, checks);
    if (digest !== null) pages.push(digest);
    if (p.extracted) values.set(p.url, p.extracted);
  }
  const diff = diffCrawls(baseline, { ...current, pages }, checks, { pageShare, extracted: names });
  if (extractedPages(diff).length > 0) fillExtracted(diff, baseline.values, values);
  return diff;
}

const shownValue = (v: string | string[] | null) => (v === null ? 'none' : `“${extractedCell(v)}”`);

const site = (s: { score: number; band: string } | null) => (s === null ? '-' : `${s.score} (${s.band})`);

/** The diff's summary as the command prints it. */
export function diffText(d: CrawlDiff, clean: (s: string) => string): string {
  const p = d.summary.pages;
  const f = d.summary.findings;
  const lines = [
    'Compared with the baseline:',
    `Site score: ${site(d.summary.site.before)} → ${site(d.summary.site.after)}`,
    `Pages: ${p.added} added, ${p.removed} removed, ${p.changed} changed; ${p.bandsDropped} dropped a band, ${p.bandsRaised} rose`,
    `Site-level findings: ${f.new} new, ${f.persisting} persisting, ${f.fixed} fixed`,
  ];
  const x = d.summary.extracted;
  if (x.names.length > 0)
    lines.push(
      `Custom extraction (${clean(x.names.join(', '))}): values changed on ${x.changed} page${x.changed === 1 ? '' : 's'}`,
    );
  for (const x of d.findings.filter((x) => x.state !== 'persisting' || x.newPages.length > 0))
    lines.push(
      `  ${x.state === 'persisting' ? 'more' : x.state}: ${x.title} (${x.id}) — ${x.state === 'fixed' ? x.fixedPages.length : x.newPages.length} page(s)`,
    );
  const shown = 20;
  for (const a of d.pages.added.slice(0, shown))
    lines.push(`  + ${clean(a.url)}${a.status !== 200 ? ` (${a.status ?? 'no answer'})` : ''}`);
  for (const r of d.pages.removed.slice(0, shown)) lines.push(`  - ${clean(r.url)}`);
  for (const c of d.pages.changed.slice(0, shown))
    lines.push(
      `  ~ ${clean(c.url)}: ${c.changes.join(', ')}${c.extracted.map((x) => `; ${clean(x.name)} ${clean(shownValue(x.before))} → ${clean(shownValue(x.after))}`).join('')}`,
    );
  if (p.added > shown || p.removed > shown || p.changed > shown)
    lines.push(`  … (the first ${shown} of each list)`);
  lines.push(d.regressed ? `Regressed: ${d.reasons.map((r) => r.message).join(' ')}` : 'No regression.');
  return `${lines.join('\n')}\n`;
}
