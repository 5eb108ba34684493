// Report → API JSON, in one place: field names, links, and never a password or its hash.
//
// The hot answers (GET /reports and GET /reports/{id}) are written as text by `reportWriter`:
// the JSON columns are spliced in as the store holds them (written by JSON.stringify, key
// order kept), so a 22 KB report is neither parsed nor serialised again. The text is byte for
// byte `JSON.stringify` of what presentReport/presentReportSummary give for the parsed report
// (test/api/splice.test.ts compares them).
import type { Static } from 'typebox';
import type {
  ReportRow as StoredReport,
  ReportSummaryRow as ReportSummary,
  ReportSummaryText,
  ReportText as StoredReportText,
} from '../../store/reports.repository.js';
import type { Report, ReportSummary as ReportSummarySchema } from './schemas.js';

export function reportLinks(publicUrl: string, id: number): { self: string; page: string } {
  return { self: `${publicUrl}/api/v1/reports/${id}`, page: `${publicUrl}/reports/${id}` };
}

/** A report as listed: no `results`, no `page`. */
export function presentReportSummary(
  r: ReportSummary,
  publicUrl: string,
): Static<typeof ReportSummarySchema> {
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
export function presentReport(r: StoredReport, publicUrl: string): Static<typeof Report> {
  const { links, ...summary } = presentReportSummary(r, publicUrl);
  return { ...summary, results: r.results, page: r.page, ...(r.render ? { render: r.render } : {}), links };
}

const str = JSON.stringify;
/** a number as JSON.stringify writes it */
const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/**
 * The JSON text of presentReportSummary / presentReport for reports whose JSON columns are the
 * stored text (services.reports.listText / getOwnedText).
 */
export function reportWriter(publicUrl: string) {
  // the links' constant parts, escaped once (an id is digits: nothing to escape)
  const self = str(`${publicUrl}/api/v1/reports/`).slice(0, -1);
  const page = str(`${publicUrl}/reports/`).slice(0, -1);
  const head = (r: ReportSummaryText): string =>
    `{"id":${num(r.id)},"url":${str(r.url)},"final_url":${str(r.finalUrl)},"project":${str(r.project)}` +
    `,"result":${str(r.result)},"score":${num(r.score)},"privacy":${num(r.privacy)},"has_password":${r.hasPassword}` +
    `,"generated_at":${str(r.generatedAt)},"created_at":${str(r.createdAt)},"updated_at":${str(r.updatedAt)}` +
    `,"categories":${r.categoriesJson}`;
  const links = (id: number): string => `"links":{"self":${self}${id}","page":${page}${id}"}}`;
  return {
    /** `JSON.stringify(presentReportSummary(r))` */
    summary: (r: ReportSummaryText): string => `${head(r)},${links(r.id)}`,
    /** `JSON.stringify(presentReport(r))` */
    report: (r: StoredReportText): string =>
      `${head(r)},"results":${r.resultsJson},"page":${r.pageJson},` +
      `${r.renderJson ? `"render":${r.renderJson},` : ''}${links(r.id)}`,
  };
}
