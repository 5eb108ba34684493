// /api/v1/builds (issue 23 §2; docs/ci.md "Builds"): `pagegrade ci --upload` sends a build, answered
// 201 with its comparison with the base build; show a build; list a project's builds (per
// branch, paged). Members send builds, viewers read them (the access table's builds.*); a key
// limited to projects sends and sees only its projects' builds.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { requireAuth } from '../../plugins/auth.js';
import { restoreNulls } from '../../plugins/body.js';
import { paginate } from '../../../contract/pagination.js';
import { errorResponses } from '../../../contract/common.js';
import { ProjectParams } from '../../../contract/projects.js';
import {
  BuildEnvelope,
  BuildList,
  BuildParams,
  CreateBuildBody,
  ListBuildsQuery,
  presentBuild,
  presentBuildView,
} from '../../../contract/builds.js';
import type { RouteDeps } from '../deps.js';

/** a build of 500 URLs with their full reports: more than the API's usual 1 MB */
const BUILD_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * The build's body is checked without the API's type coercion: a report's `"passed": null` (an
 * inconclusive check) or a figure's `null` (not measured) would otherwise be read as false or 0
 * — the validator coerces the first type of a choice — and stored so. Every error, as the API's.
 */
const exact = new Ajv({ allErrors: true, verbose: true, coerceTypes: false, useDefaults: false, strict: false });
addFormats.default(exact);

const rawQuery = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
};

export const buildRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['builds'];
  const security = [{ bearerAuth: [] }];

  app.post(
    '/builds',
    {
      bodyLimit: BUILD_BODY_LIMIT,
      validatorCompiler: ({ schema }) => exact.compile(schema),
      // null is "none" for the optional fields (base_branch, ancestor_sha, author, message, run_url)
      preValidation: (request, _reply, done) => {
        restoreNulls(request.body);
        done();
      },
      config: { access: 'builds.write', projectScoped: true },
      schema: {
        operationId: 'createBuild',
        summary: 'Upload a CI build',
        description:
          "What `pagegrade ci --upload` sends: the commit, its branch, the base branch and the ancestor commit, and each URL's audit. Each URL's result becomes a run (source `build`) of that page's report in the project — a new report, with the project's default_privacy, for a page it has none of; an existing report's privacy and password are never changed. The build is compared with its base build (the base branch's build of `ancestor_sha`, else the base branch's newest build before this one): 201 with `Location` and the comparison. The branch's builds past the newest PAGEGRADE_BUILDS_KEEP_PER_BRANCH (20) are pruned unless some build names the branch as its base.",
        tags,
        security,
        body: CreateBuildBody,
        response: { 201: BuildEnvelope, ...errorResponses(400, 401, 403, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const v = await services.builds.create(requireAuth(request), {
        project: b.project,
        commitSha: b.commit_sha,
        branch: b.branch,
        baseBranch: b.base_branch ?? null,
        ancestorSha: b.ancestor_sha ?? null,
        author: b.author ?? null,
        message: b.message ?? null,
        runUrl: b.run_url ?? null,
        pages: b.pages.map((p) => ({
          url: p.url,
          report: { ...p.report, project: b.project } as never,
          ...(p.figures !== undefined ? { figures: p.figures } : {}),
          ...(p.assertions !== undefined ? { assertions: p.assertions as never } : {}),
        })),
      });
      return reply
        .code(201)
        .header('location', `${config.publicUrl}/api/v1/builds/${v.build.id}`)
        .send(presentBuildView(v, config.publicUrl));
    },
  );

  app.get(
    '/builds/:id',
    {
      config: { access: 'builds.read', projectScoped: true, notFoundMessage: 'No such build.' },
      schema: {
        operationId: 'showBuild',
        summary: 'Show a build',
        description: "The build, each URL's report and run, and its comparison with its base build.",
        tags,
        security,
        params: BuildParams,
        response: { 200: BuildEnvelope, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) =>
      presentBuildView(await services.builds.get(requireAuth(request), request.params.id), config.publicUrl),
  );

  app.get(
    '/projects/:project/builds',
    {
      config: { access: 'builds.read', projectScoped: true },
      schema: {
        operationId: 'listBuilds',
        summary: "List a project's builds",
        description: 'Newest first; `branch` keeps one branch’s.',
        tags,
        security,
        params: ProjectParams,
        querystring: ListBuildsQuery,
        response: { 200: BuildList, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      const p = { page: q.page ?? 1, perPage: q.per_page ?? 10 };
      const r = await services.builds.list(requireAuth(request), request.params.project, {
        ...(q.branch !== undefined ? { branch: q.branch } : {}),
        ...p,
      });
      return paginate({
        items: r.items.map((b) => presentBuild(b, config.publicUrl)),
        total: r.total,
        ...p,
        path: `${config.publicUrl}/api/v1/projects/${encodeURIComponent(request.params.project)}/builds`,
        rawQuery: rawQuery(request.url),
      });
    },
  );
};
