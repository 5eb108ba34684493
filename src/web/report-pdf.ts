// The branded PDF of a report, shared by GET /reports/{id}.pdf (the page's access rules) and
// GET /api/v1/reports/{id}/pdf (the key's): the owner's branding and the report's history
// composed into one self-contained document (src/pages/views/pdf.ts) and printed by Chromium
// (services.pdf). The caller has decided that the report may be seen.
import { loadAssets } from '../views/asset-files.js';
import { historySection } from '../views/history.js';
import { pdfDocument, pdfFooter } from '../views/pdf.js';
import type { Services } from '../services/types.js';
import type { StoredReport } from '../services/reports/types.js';

let css: string | null = null;

/** The app's stylesheet, read once (inlined into every PDF document). */
function stylesheet(): string {
  css ??= loadAssets().get('pagegrade.css')!.body;
  return css;
}

/** `report-42-example.com.pdf` */
export function pdfFileName(report: StoredReport): string {
  return `report-${report.id}-${report.project.replace(/[^a-z0-9.-]+/gi, '_')}.pdf`;
}

export async function reportPdf(services: Services, report: StoredReport): Promise<Buffer> {
  // before composing anything: without Chromium, the 422 says so at once
  const why = services.pdf.unavailable();
  if (why !== null) return services.pdf.print('', { footerTemplate: '' });
  const [branding, history] = await Promise.all([
    services.branding.ofReport(report.id),
    services.reports.pageHistory(report),
  ]);
  const document = pdfDocument(report, { branding, history: historySection(history), css: stylesheet() });
  return services.pdf.print(document, { footerTemplate: pdfFooter(report, branding) });
}
