// A batch's exports (docs/sites.md): CSV, one row per page with its result and failed checks
// (quoted by csv-stringify), and JSON: the summary, the site-level findings and every page.
// Used by the API, the dashboard's download buttons and `pagegrade crawl --csv/--json`; the
// JSON is typed by its schema, BatchExport (./schemas.ts).
import { stringify } from 'csv-stringify';
import type { Readable } from 'node:stream';
import type { Static } from 'typebox';
import type { Finding, PageForFindings } from '../../crawl/findings/index.js';
import { extractedCell, type Extracted } from '../../crawl/extract.js';
import { CSV_COLUMNS, type Batch, type BatchExport } from './schemas.js';

/** One page of a batch as exported (CSV, JSON) and shown (the batch page's table). */
export interface BatchPageResult extends PageForFindings {
  depth: number;
  reportId: number | null;
  /** the canonical URL the page names when it is another URL: the page is canonicalised to it */
  canonical: string | null;
  /** an audited page's custom extraction values (docs/sites.md); null: none (not audited, or no extractors) */
  extracted: Extracted | null;
  /** why it has no value for an extractor (one that ran out of time on it); null: none */
  extractErrors?: Record<string, string> | null;
}

/** A page's values for the batch's extractors, each name present (null: none, or not audited). */
export function pageExtracted(p: BatchPageResult, names: readonly string[]): Extracted {
  const out: Extracted = {};
  for (const n of names) out[n] = p.extracted?.[n] ?? null;
  return out;
}

export function csvRow(p: BatchPageResult, names: readonly string[] = []): (string | number | null)[] {
  const f = p.facts;
  const count = (priority: string) => (f ? f.failed.filter((c) => c.priority === priority).length : null);
  return [
    p.url,
    p.state,
    p.state === 'done' ? (f?.result ?? null) : null,
    p.state === 'done' ? (f?.score ?? null) : null,
    p.statusCode,
    p.finalUrl,
    p.canonical,
    count('high'),
    count('medium'),
    count('low'),
    f ? f.failed.map((c) => c.id).join(' ') : null,
    p.reportId,
    p.error,
    // custom extraction: a column per extractor, after the fixed ones
    ...names.map((n) => extractedCell(p.extracted?.[n])),
  ];
}

/**
 * The CSV as a stream (a header line, then one row per page); `names`: the batch's extractors,
 * a column each after the fixed columns (docs/sites.md, "Custom extraction").
 */
export function batchCsv(pages: Iterable<BatchPageResult>, names: readonly string[] = []): Readable {
  const out = stringify({ header: true, columns: [...CSV_COLUMNS, ...names] });
  (async () => {
    for (const p of pages) {
      if (!out.write(csvRow(p, names))) await new Promise((r) => out.once('drain', r));
    }
    out.end();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

type ExportJson = Static<typeof BatchExport>;

/**
 * The JSON export: `batch` as the API shows it (the CLI's, without links: there is no server),
 * its summary, the findings and every page.
 */
export function batchJson<B extends Omit<Static<typeof Batch>, 'links'>>(
  batch: B,
  summary: ExportJson['summary'],
  findings: Finding[],
  pages: BatchPageResult[],
): Omit<ExportJson, 'batch'> & { batch: B } {
  const names = (batch.options.extractors ?? []).map((e) => e.name);
  return {
    batch,
    summary,
    findings,
    pages: pages.map((p) => presentBatchPage(p, names)),
  };
}

/**
 * A page as the JSON export and GET /api/v1/batches/{id}/pages show it; `names`: the batch's
 * extractors (each present in `extracted`).
 */
export function presentBatchPage(p: BatchPageResult, names: readonly string[]): ExportJson['pages'][number] {
  return {
    url: p.url,
    state: p.state,
    depth: p.depth,
    in_sitemap: p.inSitemap,
    report_id: p.reportId,
    status_code: p.statusCode,
    final_url: p.finalUrl,
    canonical: p.canonical,
    error: p.error,
    result: p.facts?.result ?? null,
    score: p.facts?.score ?? null,
    title: p.facts?.title ?? null,
    noindex: p.state === 'done' && p.facts ? p.facts.noindex : null,
    failed_checks: p.facts?.failed ?? [],
    total_ms: p.facts?.totalMs ?? null,
    html_bytes: p.facts?.htmlBytes ?? null,
    render: p.facts?.render ?? null,
    extracted: pageExtracted(p, names),
    extract_errors: p.extractErrors ?? {},
  };
}
