// GET / (the dashboard or sign-in) and every other GET outside /api: the HTML 404 page.
import type { FastifyInstance } from 'fastify';
import { isApiPath } from '../../web/errors.js';
import type { PageContext } from '../context.js';

export function homeRoutes(app: FastifyInstance, ctx: PageContext): void {
  app.get('/', async (request, reply) =>
    reply.redirect((await ctx.viewerOf(request)) ? '/dashboard' : '/login', 303),
  );

  app.get('/*', async (request, reply) => {
    if (isApiPath(request.url)) return reply.callNotFound();
    return ctx.notFoundPage(request, reply);
  });
}
