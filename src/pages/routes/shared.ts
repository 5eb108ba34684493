// A share link's page, GET /s/:token (docs/teams.md "Share links"): anyone with the link sees the
// shared report's page — a private or password-protected one too: the link is the access — or
// the shared project's latest crawl as the batch page shows it (summary, findings by priority,
// the pages table paged at ?page=N), read-only and without navigation (no link to the
// dashboard, to other reports or to anything else of the owner's). An unknown, expired or
// revoked link is the same not-found page as any missing page.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { PageContext } from '../context.js';
import { reportView } from '../../views/report.js';
import { sharedProjectView } from '../../views/shared.js';
import { ListBatchPagesQuery } from '../../contract/batches/requests.js';
import { readFilters, type FilterLabels } from '../list-filters.js';

/** rows of the shared crawl's pages table */
const PER_PAGE = 50;
const PAGE_LABELS: Record<string, FilterLabels> = {
  page: { label: 'The page', choices: { '1': 'the first page' } },
};

export function sharedPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;
  const nobody = { name: null, csrf: null };

  app.get<{ Params: { token: string } }>('/s/:token', async (request, reply) => {
    const share = await services.shares.open(request.params.token);
    if (!share) throw notFound('No such page.');
    void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow');
    if (share.reportId !== null) {
      // the organisation's own view of its report (the link is the access), rendered without the owner's bar
      const report = await services.reports.get(share.orgId, share.reportId);
      return ctx.send(reply, 200, report.url, nobody, reportView(report, { owner: false, shared: true }), {
        shared: true,
      });
    }
    const project = await services.projects.get(share.orgId, share.project!);
    // the table's page (a bad value: the first page, said on the page, as the batch page does)
    const read = readFilters<{ page?: number }>(
      ListBatchPagesQuery,
      new URL(request.url, 'http://x').searchParams,
      ['page'],
      PAGE_LABELS,
    );
    const page = read.params.page ?? 1;
    // the newest finished crawl (with its findings), else the newest in whatever state
    const batchId = project.trend.at(-1)?.batchId ?? project.latestCrawl?.id ?? null;
    const view =
      batchId === null
        ? null
        : await services.batches.view(share.orgId, batchId, {
            sortBy: 'found',
            sort: 'asc',
            perPage: PER_PAGE,
            page,
          });
    const crawl = view && {
      batch: view.batch,
      findings: view.findings,
      table: view.table,
      page,
      perPage: PER_PAGE,
    };
    const path = `/s/${request.params.token}`;
    return ctx.send(
      reply,
      200,
      project.project.project,
      nobody,
      sharedProjectView({ project, crawl, path, notices: read.notices }),
      { shared: true },
    );
  });
}
