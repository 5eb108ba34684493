// What the API and the dashboard share for reports, outside a JSON envelope:
//
// - The CSV of a reports list (docs/api.md#csv), GET /api/v1/reports (Accept: text/csv or
//   format=csv) and the dashboard's "Download CSV": the rows of a service walk
//   (services.reports.walk) written through csv-stringify (RFC 4180 quoting) as a stream that
//   reads the next chunk only when the reader has taken the last one (backpressure), so a
//   million rows never sit in memory.
// - The branded PDF of a report, GET /reports/{id}.pdf (the page's access rules) and
//   GET /api/v1/reports/{id}/pdf (the key's): the owner's branding and the report's history
//   composed into one self-contained document (src/views/pdf.ts) and printed by Chromium
//   (services.pdf). The caller has decided that the report may be seen.
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { ReportExportRow } from '../services/reports/types.js';
import { loadAssets } from '../views/asset-files.js';
import { historySection } from '../views/history.js';
import { pdfDocument, pdfFooter } from '../views/pdf.js';
import type { Services } from '../services/types.js';
import type { StoredReport } from '../services/reports/types.js';
import { sendCsv } from './csv.js';
import { reportLinks } from '../contract/reports/present.js';

/** phpRank's columns (URL, result, score, high/medium/low issues, generated, created) plus id and project. */
export const REPORT_CSV_COLUMNS = [
  'id',
  'url',
  'project',
  'result',
  'score',
  'high_issues',
  'medium_issues',
  'low_issues',
  'generated_at',
  'created_at',
] as const;

const record = (r: ReportExportRow): (string | number)[] => [
  r.id,
  r.url,
  r.project,
  r.result,
  r.score,
  r.highIssues,
  r.mediumIssues,
  r.lowIssues,
  r.generatedAt,
  r.createdAt,
];

/** The attachment's file name: `reports-<project or all>-<UTC date>.csv` (a safe ASCII token). */
export function reportsCsvFilename(project: string | undefined, now: Date): string {
  const scope = (project ?? 'all').replace(/[^A-Za-z0-9.-]+/g, '_').slice(0, 100) || 'all';
  return `reports-${scope}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The CSV stream of a walk: a header line, then one line per report. The first chunk is read
 * before this resolves, so a failure there is answered as an error rather than a cut stream;
 * after that a failure destroys the stream (the client sees a truncated response). Destroying
 * the stream (the client went away) stops the walk.
 */
export async function reportsCsv(chunks: AsyncIterable<ReportExportRow[]>): Promise<Readable> {
  const it = chunks[Symbol.asyncIterator]();
  let next = await it.next();
  const out = stringify({ header: true, columns: [...REPORT_CSV_COLUMNS] });
  /** resolves when the reader has taken what is buffered, or the stream is gone */
  const writable = () =>
    new Promise<void>((resolve) => {
      if (out.destroyed) return resolve();
      const done = () => {
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
    });
  void (async () => {
    try {
      while (!next.done) {
        for (const r of next.value) {
          if (out.destroyed) return;
          if (!out.write(record(r))) await writable();
        }
        next = await it.next();
      }
      out.end();
    } catch (err) {
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    } finally {
      // the walk stops here when the stream ended early (a generator's finally blocks run)
      if (!next.done) await it.return?.().catch(() => undefined);
    }
  })();
  return out;
}

/**
 * Whether an Accept header asks for the CSV: `text/csv` with a higher quality than
 * `application/json`. JSON stays the default: no header, wildcards only, a tie, `q=0` or an
 * unreadable quality all answer JSON.
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const part of accept.toLowerCase().split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    if (type === 'text/csv') csv = Math.max(csv, q);
    else if (type === 'application/json') json = Math.max(json, q);
  }
  return csv > json;
}

/** The CSV of every report a walk gives, sent as `reports-<project or all>-<date>.csv` (never cached). */
export async function sendReportsCsv(
  reply: FastifyReply,
  chunks: AsyncIterable<ReportExportRow[]>,
  project: string | undefined,
): Promise<FastifyReply> {
  const csv = await reportsCsv(chunks);
  return sendCsv(reply, reportsCsvFilename(project, new Date()), csv, {
    'cache-control': 'private, no-store',
  });
}

// ── the PDF ───────────────────────────────────────────────────────────────────────────

let css: string | null = null;

/** The app's stylesheet, read once (inlined into every PDF document). */
function stylesheet(): string {
  css ??= loadAssets().get('pagegrade.css')!.body;
  return css;
}

/**
 * `pagegrade-<host>-<date>.pdf`: the audited page's host name and the audit's UTC date, as a
 * safe ASCII token (letters, digits, dots and hyphens; anything else `_`; at most 100).
 */
export function pdfFileName(report: StoredReport): string {
  let host: string;
  try {
    host = new URL(report.url).hostname;
  } catch {
    host = report.project;
  }
  const safe =
    host
      .replace(/[^a-z0-9.-]+/gi, '_')
      .replace(/^[.-]+/, '')
      .slice(0, 100) || 'report';
  return `pagegrade-${safe}-${report.generatedAt.slice(0, 10)}.pdf`;
}

/**
 * The PDF's Content-Disposition: `attachment` when the request asks to download it
 * (`?download=1`), else `inline` (the browser shows it) — both with the file name.
 */
export function pdfDisposition(report: StoredReport, download: boolean): string {
  return `${download ? 'attachment' : 'inline'}; filename="${pdfFileName(report)}"`;
}

/** The online report's address printed (and linked) in its PDF: `<public URL>/reports/<id>`. */
export async function reportPdf(
  services: Services,
  report: StoredReport,
  publicUrl: string,
): Promise<Buffer> {
  // before composing anything: without Chromium, the 422 says so at once
  const why = services.pdf.unavailable();
  if (why !== null) return services.pdf.print('', { footerTemplate: '' });
  const [branding, history] = await Promise.all([
    services.branding.ofReport(report.id),
    services.reports.pageHistory(report),
  ]);
  const document = pdfDocument(report, {
    branding,
    history: historySection(history),
    css: stylesheet(),
    onlineUrl: reportLinks(publicUrl, report.id).page,
  });
  return services.pdf.print(document, { footerTemplate: pdfFooter(report, branding) });
}
