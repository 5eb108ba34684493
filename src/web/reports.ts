// The CSV of a reports list (docs/api.md#csv), shared by GET /api/v1/reports (Accept: text/csv
// or format=csv) and the dashboard's "Download CSV": the rows of a service walk
// (services.reports.walk) written through csv-stringify (RFC 4180 quoting) as a stream that
// reads the next chunk only when the reader has taken the last one (backpressure), so a
// million rows never sit in memory.
import { stringify } from 'csv-stringify';
import type { Readable } from 'node:stream';
import type { ReportExportRow } from '../services/reports/types.js';

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
