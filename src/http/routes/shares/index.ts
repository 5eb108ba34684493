// Share links (docs/teams.md "Share links"): POST /reports/{id}/shares and
// /projects/{project}/shares make a link that expires (expires_in_days, 1–90, default 7);
// GET /organization/shares lists the organisation's; DELETE /shares/{id} revokes one. Members
// and above (the access table's shares.*); a key limited to projects shares and sees only those.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAuth } from '../../plugins/auth.js';
import { errorResponses, withExample } from '../../../contract/common.js';
import { ReportParams } from '../../../contract/reports/requests.js';
import { ProjectParams } from '../../../contract/projects.js';
import {
  CreateShareBody,
  presentShare,
  ShareCreatedEnvelope,
  ShareParams,
  SharesEnvelope,
} from '../../../contract/shares.js';
import type { RouteDeps } from '../deps.js';

export const shareRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['shares'];
  const security = [{ bearerAuth: [] }];
  const created = (r: { share: Parameters<typeof presentShare>[0]; token: string }) => ({
    data: { ...presentShare(r.share), url: `${config.publicUrl}/s/${r.token}` },
  });

  app.post(
    '/reports/:id/shares',
    {
      config: { access: 'shares.write', projectScoped: true },
      schema: {
        operationId: 'shareReport',
        summary: 'Share a report by a link',
        description:
          'A read-only link to the report’s page (`/s/<token>`) for anyone who has it, without an account — also for a private or password-protected report — until it expires (`expires_in_days`, 1 to 90, default 7) or is revoked. The answer shows the link once.',
        tags,
        security,
        params: ReportParams,
        body: Type.Optional(withExample(CreateShareBody, { expires_in_days: 7 })),
        response: { 201: ShareCreatedEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const r = await services.shares.shareReport(
        requireAuth(request),
        request.params.id,
        request.body?.expires_in_days,
      );
      return reply.code(201).send(created(r));
    },
  );

  app.post(
    '/projects/:project/shares',
    {
      config: { access: 'shares.write', projectScoped: true },
      schema: {
        operationId: 'shareProject',
        summary: "Share a project's latest crawl by a link",
        description:
          'A read-only link to the project’s latest crawl (`/s/<token>`), as `POST /reports/{id}/shares`.',
        tags,
        security,
        params: ProjectParams,
        body: Type.Optional(withExample(CreateShareBody, { expires_in_days: 7 })),
        response: { 201: ShareCreatedEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const r = await services.shares.shareProject(
        requireAuth(request),
        request.params.project,
        request.body?.expires_in_days,
      );
      return reply.code(201).send(created(r));
    },
  );

  app.get(
    '/organization/shares',
    {
      config: { access: 'shares.read', projectScoped: true },
      schema: {
        operationId: 'listShares',
        summary: "List the organization's share links",
        description:
          'Every share link of the organisation, newest first, revoked and expired ones too (never their tokens).',
        tags,
        security,
        response: { 200: SharesEnvelope, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({ data: (await services.shares.list(requireAuth(request))).map(presentShare) }),
  );

  app.delete(
    '/shares/:id',
    {
      config: { access: 'shares.write', projectScoped: true },
      schema: {
        operationId: 'revokeShare',
        summary: 'Revoke a share link',
        description: 'The link stops working at once (its page is the same 404 as a missing one).',
        tags,
        security,
        params: ShareParams,
        response: { 204: Type.Null({ description: 'Revoked.' }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await services.shares.revoke(requireAuth(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
