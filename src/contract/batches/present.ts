// Batches as the API shows them (snake_case, links on the public URL); the dashboard's JSON
// download and `pagegrade crawl --json` use the same shapes.
import type { Batch, BatchFailure, BatchSummary } from '../../services/batches/batches.service.js';

export function presentSummary(s: BatchSummary) {
  return {
    pages: s.pages,
    bands: s.bands,
    histogram: s.histogram,
    average_score: s.averageScore,
    top_checks: s.topChecks,
    slowest: s.slowest,
    largest: s.largest,
    findings: s.findings,
  };
}

export function presentBatch(b: Batch, publicUrl: string) {
  const self = `${publicUrl}/api/v1/batches/${b.id}`;
  return {
    id: b.id,
    url: b.url,
    mode: b.mode,
    status: b.status,
    options: {
      max_pages: b.options.maxPages,
      max_depth: b.options.maxDepth,
      include: b.options.include,
      exclude: b.options.exclude,
      privacy: b.options.privacy,
      render: b.options.render,
    },
    progress: {
      discovered: b.progress.discovered,
      audited: b.progress.audited,
      failed: b.progress.failed + b.progress.skipped,
      remaining: b.progress.remaining,
    },
    error: b.error,
    created_at: b.createdAt,
    started_at: b.startedAt,
    finished_at: b.finishedAt,
    summary: b.summary ? presentSummary(b.summary) : null,
    links: {
      self,
      reports: `${publicUrl}/api/v1/reports?batch=${b.id}`,
      failures: `${self}/failures`,
      events: `${self}/events`,
      export_csv: `${self}/export?format=csv`,
      export_json: `${self}/export?format=json`,
    },
  };
}

export function presentFailure(f: BatchFailure) {
  return { url: f.url, state: f.state, status_code: f.statusCode, reason: f.reason };
}
