// GET /keys: the signed-in user's API keys, read-only (prefix, created, last used, revoked).
// Keys are created and revoked with the CLI for now; a full keys page (create, revoke, scopes)
// replaces this one at the same address.
import type { FastifyInstance } from 'fastify';
import type { PageContext } from '../context.js';
import { keysView } from '../views/keys.js';

export function keyPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  app.get('/keys', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const keys = await ctx.services.keys.list(v.userId);
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(reply, 200, 'API keys', viewer, keysView({ keys, currentKeyId: v.keyId }));
  });
}
