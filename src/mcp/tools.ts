// The MCP tools (docs/mcp.md): each names its operation of the access table
// (src/services/access/table.ts), as an API route does, and takes its arguments in the API's
// own schemas (src/contract), so an agent can do over MCP exactly what its key may do over
// the API, in the same words. Handlers are a few lines: arguments → service → presenter.
import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { ReportParams, StoreReportBody, privacyOf } from '../contract/reports/requests.js';
import { ListReportsParams, reportsQueryFrom, resolveReportsQuery } from '../contract/lists.js';
import { DiffQuery as RunsDiffQuery, RunParams } from '../contract/history/requests.js';
import { BatchParams, CreateBatchBody } from '../contract/batches/requests.js';
import { DiffQuery as CrawlDiffQuery, presentDiff as presentCrawlDiff } from '../contract/batches/diff.js';
import { presentBatch, presentSummary } from '../contract/batches/present.js';
import { batchJson } from '../contract/batches/export.js';
import { presentReport, presentReportSummary } from '../contract/reports/present.js';
import { presentDiff as presentRunsDiff, presentRun } from '../contract/history/present.js';
import { passwordWarnings } from '../contract/reports/warnings.js';
import { forbidden } from '../errors.js';
import type { Operation } from '../services/access/table.js';
import type { AuthContext } from '../services/accounts/types.js';
import type { Services } from '../services/types.js';
import { batchInputOf } from '../web/batches.js';
import { reportDigest, runDigest } from './present.js';

export interface ToolContext {
  services: Services;
  actor: AuthContext;
  publicUrl: string;
}

export interface Tool<S extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  /** the access table's operation the call needs (the API route's for the same thing) */
  operation: Operation;
  /** false: the services take the organisation, not the key, so a project-limited key is refused (as the API's route) */
  projectScoped: boolean;
  input: S;
  run(ctx: ToolContext, args: Static<S>): Promise<unknown>;
}

/** The API's fields as one object that refuses unknown ones (an agent learns the right names). */
const args = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

const tool = <S extends TObject>(t: Tool<S>): Tool => t as unknown as Tool;

/** at most this many of a crawl's pages in get_crawl (the export has them all) */
const CRAWL_PAGES = 200;

export const TOOLS: Tool[] = [
  tool({
    name: 'audit_url',
    title: 'Audit a page',
    description:
      'Fetch and audit a web page (SEO, performance, security, accessibility and best-practice checks) and store the report. `render: 1` audits the page as rendered by headless Chromium (JavaScript run). Answers the score, the result band, the category scores and every failed check with how to fix it. The same as POST /api/v1/reports; needs a key with the write scope.',
    operation: 'reports.write',
    projectScoped: true,
    input: args(StoreReportBody.properties),
    async run({ services, actor, publicUrl }, a) {
      const report = await services.reports.create(actor, {
        url: a.url,
        privacy: a.privacy === undefined ? undefined : privacyOf(a.privacy),
        password: a.password ?? null,
        render: a.render === 1,
      });
      const warnings = passwordWarnings(a.password, report.privacy);
      return {
        ...reportDigest(presentReport(report, publicUrl)),
        ...(warnings.length ? { warnings } : {}),
      };
    },
  }),
  tool({
    name: 'get_report',
    title: 'Read a report',
    description:
      "A report's score, result, category scores and failed checks with how to fix them (high priority first). With `run`, that run of the report's history instead of the current one (GET /api/v1/reports/{id} and /runs/{run}).",
    operation: 'reports.read',
    projectScoped: true,
    input: args({ id: ReportParams.properties.id, run: Type.Optional(RunParams.properties.run) }),
    async run({ services, actor, publicUrl }, a) {
      if (a.run !== undefined)
        return runDigest(presentRun(await services.reports.run(actor, a.id, a.run), publicUrl));
      return reportDigest(presentReport(await services.reports.getOwned(actor, a.id), publicUrl));
    },
  }),
  tool({
    name: 'list_reports',
    title: 'List reports',
    description:
      'A page of reports (newest first by default) with the filters of GET /api/v1/reports: `search` (with `search_by`), `project`, `result`, `sort_by`, `sort`, `per_page`, `page`, `batch`.',
    operation: 'reports.read',
    projectScoped: true,
    input: args(ListReportsParams.properties),
    async run({ services, actor, publicUrl }, a) {
      const query = reportsQueryFrom(a);
      const { page, perPage } = resolveReportsQuery(query);
      const meta = (total: number) => ({ page, per_page: perPage, total, pages: Math.ceil(total / perPage) });
      if (a.batch !== undefined) {
        if (actor.projects !== null)
          throw forbidden(
            `Forbidden: this API key is limited to projects (${actor.projects.join(', ')}); listing a batch's reports needs a key for every project.`,
          );
        const r = await services.batches.reports(actor.orgId, a.batch, { page, perPage });
        return { data: r.items.map((s) => presentReportSummary(s, publicUrl)), meta: meta(r.total) };
      }
      const r = await services.reports.list(actor, query);
      return { data: r.items.map((s) => presentReportSummary(s, publicUrl)), meta: meta(r.total) };
    },
  }),
  tool({
    name: 'compare_runs',
    title: 'Compare two runs of a report',
    description:
      'What changed between two runs of a report (default: the current run and the completed run before it): score, result band, categories, checks newly failed, passed or inconclusive, check values, page facts, and whether it is a regression (GET /api/v1/reports/{id}/diff).',
    operation: 'reports.read',
    projectScoped: true,
    input: args({ id: ReportParams.properties.id, ...RunsDiffQuery.properties }),
    async run({ services, actor, publicUrl }, a) {
      return presentRunsDiff(await services.reports.diff(actor, a.id, { from: a.from, to: a.to }), publicUrl);
    },
  }),
  tool({
    name: 'start_crawl',
    title: 'Start a crawl (a whole-site audit)',
    description:
      'Audit a site as one batch: `mode: crawl` follows links from the start page `url`, `sitemap` reads its sitemap, `list` audits `urls`. Answers at once with the batch id; read its progress and findings with get_crawl. The same as POST /api/v1/batches; needs a key with the write scope for every project.',
    operation: 'batches.write',
    projectScoped: false,
    input: args(CreateBatchBody.properties),
    async run({ services, actor, publicUrl }, a) {
      return presentBatch(await services.batches.create(actor.orgId, batchInputOf(a)), publicUrl);
    },
  }),
  tool({
    name: 'get_crawl',
    title: "Read a crawl's progress and findings",
    description: `A batch's status and progress; once it has finished, its summary, the site-level findings (broken links, duplicate titles, orphan pages… with the pages concerned) and its pages with their scores and failed checks (the first ${CRAWL_PAGES}; GET /api/v1/batches/{id}/export has them all).`,
    operation: 'batches.read',
    projectScoped: false,
    input: args({ id: BatchParams.properties.id }),
    async run({ services, actor, publicUrl }, a) {
      const { batch, pages, findings } = await services.batches.results(actor.orgId, a.id);
      const out = batchJson(
        presentBatch(batch, publicUrl),
        batch.summary ? presentSummary(batch.summary) : null,
        findings,
        pages.slice(0, CRAWL_PAGES),
      );
      return { ...out, pages_total: pages.length };
    },
  }),
  tool({
    name: 'compare_crawls',
    title: 'Compare a crawl with another',
    description:
      'A finished crawl compared with the previous finished crawl of the same project (or, with `from`, another ended one): pages added, removed and changed (custom extraction values included), site findings new, persisting and fixed, failed checks new and fixed per page, the site score before and after, and the regression verdict (GET /api/v1/batches/{id}/diff).',
    operation: 'batches.read',
    projectScoped: false,
    input: args({ id: BatchParams.properties.id, ...CrawlDiffQuery.properties }),
    async run({ services, actor }, a) {
      return presentCrawlDiff(await services.batches.diff(actor.orgId, a.id, a.from));
    },
  }),
];
