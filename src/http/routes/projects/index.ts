// /api/v1/projects: list, delete (with all its reports, in one transaction — the service's); a
// project as a site: its page, its settings (PUT creates it, PATCH changes some), crawl now.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { projectName } from '../../../analyzer/url.js';
import { projectsQueryFrom, resolveProjectsQuery } from '../../../contract/lists.js';
import { requireAuth } from '../../plugins/auth.js';
import { etagOf, sendJsonBytes } from '../../plugins/etag.js';
import { paginate } from '../../../contract/pagination.js';
import {
  ListProjectsQuery,
  presentProject,
  ProjectDeleted,
  ProjectList,
  ProjectParams,
} from '../../../contract/projects.js';
import { errorResponses } from '../../../contract/common.js';
import {
  presentProjectDetail,
  ProjectDetailEnvelope,
  ProjectSettingsBody,
} from '../../../contract/project-settings.js';
import { BatchEnvelope } from '../../../contract/batches/schemas.js';
import { presentBatch } from '../../../contract/batches/present.js';
import { restoreNulls } from '../../plugins/body.js';
import type { RouteDeps } from '../deps.js';
import { projectIssueRoutes } from './issues.js';

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
    async (request, reply) => {
      const actor = requireAuth(request);
      const query = projectsQueryFrom(request.query);
      const { page, perPage } = resolveProjectsQuery(query);
      const i = request.url.indexOf('?');
      const rawQuery = i === -1 ? '' : request.url.slice(i + 1);
      // the answer's bytes and ETag kept while the reports' version is current (docs/api.md,
      // "Kept answers"), sent as they are: the same JSON the schema's serialiser would write
      // (presentProject gives exactly the schema's fields)
      const kept = await services.projects.listAnswer(actor, query, {
        key: `api ${rawQuery}`,
        render: (result) => {
          const body = Buffer.from(
            JSON.stringify(
              paginate({
                items: result.items.map(presentProject),
                total: result.total,
                page,
                perPage,
                path: `${config.publicUrl}/api/v1/projects`,
                rawQuery,
              }),
            ),
          );
          return { body, etag: etagOf(body), bytes: body.byteLength };
        },
      });
      return sendJsonBytes(reply, kept.body, kept.etag);
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

  const notFoundConfig = { notFoundMessage: 'No such project.' };
  // a JSON null clears a setting (schedule, start_url, basic_auth): the parser's placeholder back to null
  const nulls = (request: { body: unknown }, _reply: unknown, done: () => void) => {
    restoreNulls(request.body);
    done();
  };

  app.get(
    '/projects/:project',
    {
      schema: {
        operationId: 'getProject',
        summary: 'Show a project: its latest crawl, site score, trend and settings',
        description:
          "The project with its report count, its latest crawl (the newest batch whose start URL is on the project's host), the site score (the mean of the audited pages' scores of its newest finished crawl; null without one) and band, its trend (its newest finished crawls, at most 30, oldest first: each one's site score, pages by band and findings, from the summary stored when it ended), and its settings. Secrets (header and cookie values, the basic-auth password) are never answered: only which are set.",
        tags,
        security,
        params: ProjectParams,
        response: { 200: ProjectDetailEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: notFoundConfig,
    },
    async (request) => {
      const actor = requireAuth(request);
      const detail = await services.projects.get(actor, request.params.project);
      return { data: presentProjectDetail(detail, config.publicUrl) };
    },
  );

  app.put(
    '/projects/:project',
    {
      schema: {
        operationId: 'putProject',
        summary: 'Create a project (a site) or replace its settings',
        description:
          'Creates the project (a site set up before its first report: 201 with Location) or replaces its settings (200): the settings left out take their defaults, and secrets left out are removed. Unknown fields and invalid values are 422 naming the field. Secrets need PAGEGRADE_SECRET_KEY (422 naming the field without it).',
        tags,
        security,
        consumes: ['application/json'],
        params: ProjectParams,
        body: ProjectSettingsBody,
        response: {
          200: ProjectDetailEnvelope,
          201: ProjectDetailEnvelope,
          ...errorResponses(400, 401, 404, 413, 415, 422, 429),
        },
      },
      preValidation: nulls,
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const { detail, created } = await services.projects.put(
        actor,
        request.params.project,
        request.body ?? {},
      );
      const data = presentProjectDetail(detail, config.publicUrl);
      if (created) reply.code(201).header('Location', `${config.publicUrl}/api/v1/projects/${data.project}`);
      return { data };
    },
  );

  app.patch(
    '/projects/:project',
    {
      schema: {
        operationId: 'patchProject',
        summary: "Change some of a project's settings",
        description:
          'Each field given replaces that setting whole (`headers` replaces every header; `null` clears `schedule`, `start_url` or `basic_auth`); the others stay. Unknown fields and invalid values are 422 naming the field.',
        tags,
        security,
        consumes: ['application/json'],
        params: ProjectParams,
        body: ProjectSettingsBody,
        response: { 200: ProjectDetailEnvelope, ...errorResponses(400, 401, 404, 413, 415, 422, 429) },
      },
      config: notFoundConfig,
      preValidation: nulls,
    },
    async (request) => {
      const actor = requireAuth(request);
      const detail = await services.projects.patch(actor, request.params.project, request.body ?? {});
      return { data: presentProjectDetail(detail, config.publicUrl) };
    },
  );

  app.post(
    '/projects/:project/crawls',
    {
      schema: {
        operationId: 'crawlProject',
        summary: 'Crawl a project now, with its settings',
        description:
          "Starts a batch with the project's settings (start_url, mode, urls, max_pages, max_depth, include, exclude, render; default_privacy as the batch's privacy): 202 with Location of the batch, the same body as POST /api/v1/batches. A project without a start_url is 422 under `errors.start_url`.",
        tags,
        security,
        params: ProjectParams,
        response: { 202: BatchEnvelope, ...errorResponses(401, 404, 422, 429) },
      },
      config: notFoundConfig,
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const batch = await services.projects.crawl(actor, request.params.project);
      const data = presentBatch(batch, config.publicUrl);
      return reply.code(202).header('Location', data.links.self).send({ data });
    },
  );

  // its issue states and ignore rules (./issues.ts)
  await projectIssueRoutes(app, { services, config });
};
