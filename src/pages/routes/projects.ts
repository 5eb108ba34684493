// The projects page: GET /dashboard/projects (filter, sort, page) and deleting a project with
// all its reports.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import {
  projectsQueryFrom,
  resolveProjectsQuery,
  type ListProjectsParams,
  type ListProjectsQuery,
} from '../../services/list-query.js';
import { fieldErrors } from '../../web/field-errors.js';
import { ListProjectsQuery as ListProjectsSchema, ProjectParams } from '../../web/requests.js';
import { NOTICES, rawQuery, type PageContext } from '../context.js';
import { projectsView, type Flash } from '../views/dashboard.js';

const PROJECT_LIST_KEYS = ['search', 'search_by', 'sort_by', 'sort', 'per_page', 'page'] as const;

export function projectRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  app.get<{ Querystring: ListProjectsParams }>(
    '/dashboard/projects',
    { schema: { querystring: ListProjectsSchema }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      const raw = rawQuery(request, PROJECT_LIST_KEYS);
      const done = rawQuery(request, ['done']).done;
      let flash: Flash | null = done && NOTICES[done] ? { kind: 'success', text: NOTICES[done]! } : null;
      let query: ListProjectsQuery | null = null;
      let status = 200;
      if (request.validationError) {
        const errors = fieldErrors(request.validationError.validation);
        flash = { kind: 'error', text: Object.values(errors).flat().join(' ') };
        status = 422;
      } else {
        query = projectsQueryFrom(request.query);
      }
      const list = query ? await services.projects.list(v, query) : null;
      const viewer = await ctx.viewerFor(request, reply);
      return ctx.send(
        reply,
        status,
        'Projects',
        viewer,
        projectsView({
          csrf: viewer.csrf ?? '',
          flash,
          raw,
          query: query && resolveProjectsQuery(query),
          list,
        }),
      );
    },
  );

  app.post<{ Params: { project: string } }>(
    '/dashboard/projects/:project/delete',
    { schema: { params: ProjectParams }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      try {
        await services.projects.delete(v, request.params.project);
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return ctx.notFoundPage(request, reply);
        throw err;
      }
      return reply.redirect('/dashboard/projects?done=project_deleted', 303);
    },
  );
}
