// /api/v1/projects: list, delete (with all its reports, in one transaction — the service's).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { projectName } from '../../../analyzer/url.js';
import { projectsQueryFrom, resolveProjectsQuery } from '../../../contract/lists.js';
import { requireAuth } from '../../plugins/auth.js';
import { paginate } from '../../../contract/pagination.js';
import {
  ListProjectsQuery,
  presentProject,
  ProjectDeleted,
  ProjectList,
  ProjectParams,
} from '../../../contract/projects.js';
import { errorResponses } from '../../../contract/common.js';
import type { RouteDeps } from '../deps.js';

export const projectRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['projects'];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/projects',
    {
      schema: {
        operationId: 'listProjects',
        summary: 'List projects',
        tags,
        security,
        querystring: ListProjectsQuery,
        response: { 200: ProjectList, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const actor = requireAuth(request);
      const query = projectsQueryFrom(request.query);
      const { page, perPage } = resolveProjectsQuery(query);
      const result = await services.projects.list(actor, query);
      const i = request.url.indexOf('?');
      return paginate({
        items: result.items.map(presentProject),
        total: result.total,
        page,
        perPage,
        path: `${config.publicUrl}/api/v1/projects`,
        rawQuery: i === -1 ? '' : request.url.slice(i + 1),
      });
    },
  );

  app.delete(
    '/projects/:project',
    {
      schema: {
        operationId: 'deleteProject',
        summary: 'Delete a project and all its reports',
        tags,
        security,
        params: ProjectParams,
        response: { 200: ProjectDeleted, ...errorResponses(401, 404, 429) },
      },
      config: { notFoundMessage: 'No such project.' },
    },
    async (request) => {
      const actor = requireAuth(request);
      const { reportsDeleted } = await services.projects.delete(actor, request.params.project);
      // the name as stored, which the service deleted by
      const project = projectName(request.params.project);
      return { project, object: 'project' as const, deleted: true as const, reports_deleted: reportsDeleted };
    },
  );
};
