// Invitations (docs/teams.md "Invitations"): GET /organization/invitations lists the
// organisation's (paged, never a token), POST invites an email with a role (201 with the link
// `url`, shown once; emailed when SMTP is configured), DELETE /organization/invitations/{id}
// revokes a pending one. Admins and owners (the access table's invitations.*); an owner is
// invited by an owner only (the service's rule).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAuth } from '../../plugins/auth.js';
import { restoreNulls } from '../../plugins/body.js';
import { errorResponses, withExample } from '../../../contract/common.js';
import { paginate, paginated } from '../../../contract/pagination.js';
import {
  CreateInvitationBody,
  InvitationCreatedEnvelope,
  InvitationParams,
  InvitationSchema,
  InvitationsQuery,
  invitationsExample,
  presentInvitation,
} from '../../../contract/invitations.js';
import type { RouteDeps } from '../deps.js';

const rawQuery = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
};

export const invitationRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['organization'];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/organization/invitations',
    {
      config: { access: 'invitations.read' },
      schema: {
        operationId: 'listInvitations',
        summary: "List the organization's invitations",
        description:
          'Every invitation of the organisation, newest first, with its state (`pending`, `accepted`, `revoked`, `expired`); never its link. Admins and owners.',
        tags,
        security,
        querystring: InvitationsQuery,
        response: {
          200: withExample(paginated(InvitationSchema), invitationsExample),
          ...errorResponses(401, 403, 422, 429),
        },
      },
    },
    async (request) => {
      const p = { page: request.query.page ?? 1, perPage: request.query.per_page ?? 10 };
      const result = await services.invitations.list(requireAuth(request), p);
      const now = new Date();
      return paginate({
        items: result.items.map((i) => presentInvitation(i, now)),
        total: result.total,
        ...p,
        path: `${config.publicUrl}/api/v1/organization/invitations`,
        rawQuery: rawQuery(request.url),
      });
    },
  );

  app.post(
    '/organization/invitations',
    {
      config: { access: 'invitations.write' },
      preValidation: (request, _reply, done) => {
        restoreNulls(request.body);
        done();
      },
      schema: {
        operationId: 'createInvitation',
        summary: 'Invite someone by email',
        description:
          'Invites an email address with a role (a viewer optionally limited to `projects`). The answer carries the link (`url`, `/invite/<token>`, 7 days, single use), shown this once; with SMTP configured it is also emailed. A pending invitation for the same email is replaced (revoked). An existing member is refused (422 `email`); inviting an `owner` takes an owner (403). Admins and owners.',
        tags,
        security,
        body: withExample(CreateInvitationBody, {
          email: 'client@example.com',
          role: 'viewer',
          projects: ['example.com'],
        }),
        response: {
          201: InvitationCreatedEnvelope,
          ...errorResponses(400, 401, 403, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const r = await services.invitations.create(requireAuth(request), request.body);
      return reply.code(201).send({
        data: { ...presentInvitation(r.invitation, new Date()), url: r.url, email_sent: r.emailed },
      });
    },
  );

  app.delete(
    '/organization/invitations/:id',
    {
      config: { access: 'invitations.write' },
      schema: {
        operationId: 'revokeInvitation',
        summary: 'Revoke an invitation',
        description:
          'The link stops working at once (its page answers 410). Another organisation’s invitation is the same 404 as a missing one; one no longer pending is 422.',
        tags,
        security,
        params: InvitationParams,
        response: { 204: Type.Null({ description: 'Revoked.' }), ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await services.invitations.revoke(requireAuth(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
