// /api/v1/projects/{project}: its issue states across its crawls (GET …/issues) and its ignore
// rules one by one (GET, POST …/ignore-rules; DELETE …/ignore-rules/{rule_id}) — docs/sites.md,
// "Issue states and ignore rules". Registered by ./index.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { projectName } from '../../../analyzer/url.js';
import { requireAuth } from '../../plugins/auth.js';
import { paginate } from '../../../contract/pagination.js';
import { ProjectParams } from '../../../contract/projects.js';
import { errorResponses } from '../../../contract/common.js';
import { IgnoreRuleBody } from '../../../contract/project-settings.js';
import {
  IgnoreRuleEnvelope,
  IgnoreRuleParams,
  IgnoreRulesEnvelope,
  IssueList,
  ListIssuesQuery,
  presentIssue,
} from '../../../contract/project-issues.js';
import { restoreNulls } from '../../plugins/body.js';
import type { RouteDeps } from '../deps.js';

/** issues a page by default */
const PER_PAGE = 25;

export const projectIssueRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['projects'];
  const security = [{ bearerAuth: [] }];
  const notFoundConfig = { notFoundMessage: 'No such project.' };

  app.get(
    '/projects/:project/issues',
    {
      schema: {
        operationId: 'listProjectIssues',
        summary: "List a project's issues by state",
        description:
          "Every failed check of a page and every site finding of a page it names, with its state across the project's consecutive crawls (set when a crawl ends done): new (first seen in the newest crawl), persisting (seen in the crawl before too; `since_batch_id` is the first crawl of the run), fixed (in the crawl before, not in the newest), ignored (an ignore rule covers it). Ordered by kind, id and URL.",
        tags,
        security,
        params: ProjectParams,
        querystring: ListIssuesQuery,
        response: { 200: IssueList, ...errorResponses(401, 404, 422, 429) },
      },
      config: notFoundConfig,
    },
    async (request) => {
      const actor = requireAuth(request);
      const q = request.query;
      const page = q.page ?? 1;
      const perPage = q.per_page ?? PER_PAGE;
      const result = await services.projects.issues(actor, request.params.project, {
        state: q.state,
        kind: q.kind,
        page,
        perPage,
      });
      const i = request.url.indexOf('?');
      return paginate({
        items: result.items.map(presentIssue),
        total: result.total,
        page,
        perPage,
        path: `${config.publicUrl}/api/v1/projects/${projectName(request.params.project)}/issues`,
        rawQuery: i === -1 ? '' : request.url.slice(i + 1),
      });
    },
  );

  app.get(
    '/projects/:project/ignore-rules',
    {
      schema: {
        operationId: 'listIgnoreRules',
        summary: "A project's ignore rules and the log of their changes",
        description:
          'The rules (as in the settings, each with its rule_id), and the newest 100 changes — added, removed, or replaced by PUT/PATCH of the settings — with who made each (the API key, or the user in the dashboard) and when.',
        tags,
        security,
        params: ProjectParams,
        response: { 200: IgnoreRulesEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: notFoundConfig,
    },
    async (request) => {
      const actor = requireAuth(request);
      return { data: await services.projects.ignoreRules(actor, request.params.project) };
    },
  );

  app.post(
    '/projects/:project/ignore-rules',
    {
      schema: {
        operationId: 'addIgnoreRule',
        summary: 'Add an ignore rule to a project',
        description:
          'A check id or a site finding id, a url_pattern (a glob over the path and query, `/blog/*`, or over the whole URL; empty: every page), a reason and an optional expires_at (in the future). An ignored check is reported as not judged ("ignored by rule: <reason>") and does not count in the page\'s score; an ignored finding\'s pages are listed apart and not counted. It applies to the audits made from now on (a crawl running now: from its next crawl). 201 with the rule and its rule_id; 422 naming the field.',
        tags,
        security,
        consumes: ['application/json'],
        params: ProjectParams,
        body: IgnoreRuleBody,
        response: { 201: IgnoreRuleEnvelope, ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429) },
      },
      config: notFoundConfig,
      preValidation: (request, _reply, done) => {
        restoreNulls(request.body);
        done();
      },
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const rule = await services.projects.addIgnoreRule(actor, request.params.project, request.body);
      return reply.code(201).send({ data: rule });
    },
  );

  app.delete(
    '/projects/:project/ignore-rules/:rule_id',
    {
      schema: {
        operationId: 'removeIgnoreRule',
        summary: 'Remove an ignore rule of a project',
        description:
          'The change is logged with who made it. 204; 404 when the project or the rule does not exist.',
        tags,
        security,
        params: IgnoreRuleParams,
        response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses(401, 403, 404, 429) },
      },
      config: { notFoundMessage: 'No such ignore rule.' },
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      await services.projects.removeIgnoreRule(actor, request.params.project, request.params.rule_id);
      return reply.code(204).send(null);
    },
  );
};
