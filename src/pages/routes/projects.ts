// The projects page: GET /dashboard/projects (filter, sort, page) and deleting a project with
// all its reports.
import type { FastifyInstance } from 'fastify';
import { projectsQueryFrom, resolveProjectsQuery, type ListProjectsParams, type ListProjectsQuery } from '../../contract/lists.js';
import { readFilters, type FilterLabels } from '../list-filters.js';
import { ListProjectsQuery as ListProjectsSchema, ProjectParams } from '../../contract/projects.js';
import { NOTICES, rawQuery, type PageContext } from '../context.js';
import { projectsView, type Flash } from '../../views/dashboard.js';
import { canOf } from '../../views/layout.js';

const PROJECT_LIST_KEYS = ['search', 'search_by', 'sort_by', 'sort', 'per_page', 'page'] as const;

const PROJECT_FILTER_LABELS: Record<string, FilterLabels> = {
  search_by: { label: 'Search by', choices: { project: 'name' } },
  sort_by: { label: 'Sort by', choices: { created_at: 'Created', project: 'Name' } },
  sort: { label: 'The order', choices: { desc: 'Descending', asc: 'Ascending' } },
  per_page: { label: 'Per page', choices: { '10': '10 per page' } },
  page: { label: 'The page', choices: { '1': 'the first page' } },
  search: { label: 'The search', unset: 'every project' },
};

export function projectRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  // Like the dashboard: no schema here, the filters are read the forgiving way (empty = any,
  // invalid = default with a notice); the API keeps its 422s.
  app.get('/dashboard/projects', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const read = readFilters<ListProjectsParams>(
      ListProjectsSchema,
      new URL(request.url, 'http://x').searchParams,
      PROJECT_LIST_KEYS,
      PROJECT_FILTER_LABELS,
    );
    const raw = read.raw;
    const done = rawQuery(request, ['done']).done;
    const flash: Flash | null = read.notices.length
      ? { kind: 'notice', text: read.notices.join(' ') }
      : done && NOTICES[done]
        ? { kind: 'success', text: NOTICES[done]! }
        : null;
    const query: ListProjectsQuery | null = projectsQueryFrom(read.params);
    const status = 200;
    const list = query ? await services.projects.list(v, query) : null;
    const stats = list ? await services.projects.stats(v.orgId, list.items.map((p) => p.project)) : undefined;
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      status,
      'Projects',
      viewer,
      projectsView({
        csrf: viewer.csrf ?? '',
        can: canOf(viewer),
        flash,
        raw,
        query: query && resolveProjectsQuery(query),
        list,
        stats,
      }),
    );
  });

  app.post<{ Params: { project: string } }>(
    '/dashboard/projects/:project/delete',
    { schema: { params: ProjectParams }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      await services.projects.delete(v, request.params.project);
      return reply.redirect('/dashboard/projects?done=project_deleted', 303);
    },
  );
}
