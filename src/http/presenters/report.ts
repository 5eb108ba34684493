// Report → API JSON, in one place: field names, links, and never a password or its hash.
import type { ReportSummary, StoredReport } from '../../services/types.js';

export function reportLinks(publicUrl: string, id: number): { self: string; page: string } {
  return { self: `${publicUrl}/api/v1/reports/${id}`, page: `${publicUrl}/reports/${id}` };
}

/** A report as listed: no `results`, no `page`. */
export function presentReportSummary(r: ReportSummary, publicUrl: string) {
  return {
    id: r.id,
    url: r.url,
    final_url: r.finalUrl,
    project: r.project,
    result: r.result,
    score: r.score,
    privacy: r.privacy,
    has_password: r.hasPassword,
    generated_at: r.generatedAt,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    categories: r.categories,
    links: reportLinks(publicUrl, r.id),
  };
}

/** A report as shown, stored and updated: every check and the page facts too. */
export function presentReport(r: StoredReport, publicUrl: string) {
  const { links, ...summary } = presentReportSummary(r, publicUrl);
  return { ...summary, results: r.results, page: r.page, ...(r.render ? { render: r.render } : {}), links };
}
