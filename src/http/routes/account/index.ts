// GET /api/v1/account: the calling key's user (with the counts the key can see) and the key.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAuth } from '../../plugins/auth.js';
import { presentAccount } from '../../../contract/account.js';
import { AccountEnvelope } from '../../../contract/account.js';
import { errorResponses } from '../../../contract/common.js';
import type { RouteDeps } from '../deps.js';

// every valid key may read its account: no 403
const { 403: _forbidden, ...errors } = errorResponses(401, 429);

export const accountRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services }) => {
  app.get(
    '/account',
    {
      schema: {
        operationId: 'showAccount',
        summary: "Show the key's account",
        description:
          'The user of the API key (id, name, created date; report and project counts as far as the key can see) and the key itself (id, prefix, scopes, projects, created, last used, expiry). Any valid key may call it, whatever its scopes.',
        tags: ['account'],
        security: [{ bearerAuth: [] }],
        response: { 200: AccountEnvelope, ...errors },
      },
    },
    async (request) => {
      const account = await services.account.show(requireAuth(request));
      return { data: presentAccount(account) };
    },
  );
};
