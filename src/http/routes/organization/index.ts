// The organisation of the calling key (docs/teams.md): GET /organization, and its members —
// list (admins), change a role or a viewer's projects, remove. Who may is the access table's
// (src/services/access/table.ts); the owners' rules are the service's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAuth } from '../../plugins/auth.js';
import { restoreNulls } from '../../plugins/body.js';
import { errorResponses, withExample } from '../../../contract/common.js';
import {
  MemberEnvelope,
  MemberParams,
  MembersEnvelope,
  OrganizationEnvelope,
  PatchMemberBody,
  presentMember,
  presentOrganization,
} from '../../../contract/organization.js';
import type { RouteDeps } from '../deps.js';

export const organizationRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services }) => {
  const tags = ['organization'];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/organization',
    {
      schema: {
        operationId: 'showOrganization',
        summary: "Show the key's organization",
        description:
          'The organisation the API key acts in, and its member’s role there (what the key may do at most).',
        tags,
        security,
        response: { 200: OrganizationEnvelope, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({
      data: presentOrganization(await services.organizations.show(requireAuth(request))),
    }),
  );

  app.get(
    '/organization/members',
    {
      config: { access: 'members.read' },
      schema: {
        operationId: 'listMembers',
        summary: 'List the members',
        description:
          'Every member of the organisation with their role and, for a viewer limited to projects, those projects. Admins and owners.',
        tags,
        security,
        response: { 200: MembersEnvelope, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({
      data: (await services.organizations.members(requireAuth(request))).map(presentMember),
    }),
  );

  app.patch(
    '/organization/members/:user_id',
    {
      config: { access: 'members.write' },
      // `projects: null` lifts a viewer's limit
      preValidation: (request, _reply, done) => {
        restoreNulls(request.body);
        done();
      },
      schema: {
        operationId: 'updateMember',
        summary: "Change a member's role or projects",
        description:
          "Admins change roles up to admin and a viewer's projects; making, changing or unmaking an owner takes an owner (403); the last owner stays one (422). Only a viewer can be limited to projects (422 otherwise). The member's API keys follow at their next request.",
        tags,
        security,
        params: MemberParams,
        body: withExample(PatchMemberBody, { role: 'viewer', projects: ['example.com'] }),
        response: { 200: MemberEnvelope, ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const m = await services.organizations.setMember(
        requireAuth(request),
        request.params.user_id,
        request.body,
      );
      return { data: presentMember(m) };
    },
  );

  app.delete(
    '/organization/members/:user_id',
    {
      config: { access: 'members.write' },
      schema: {
        operationId: 'removeMember',
        summary: 'Remove a member',
        description:
          'The member leaves the organisation and their keys in it stop working at once. Removing an owner takes an owner (403); the last owner cannot leave (422).',
        tags,
        security,
        params: MemberParams,
        response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await services.organizations.removeMember(requireAuth(request), request.params.user_id);
      return reply.code(204).send(null);
    },
  );
};
