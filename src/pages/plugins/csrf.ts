// A page's POST must come with the CSRF token of this browser (and its signed-in user), and
// not from another site (Sec-Fetch-Site).
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { bodyOf, str, type PageContext } from '../context.js';
import { CSRF_FIELD } from '../../views/forms.js';

export function registerCsrf(app: FastifyInstance, ctx: PageContext): void {
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'POST') return;
    if (request.headers['sec-fetch-site'] === 'cross-site')
      throw new AppError(403, 'csrf', 'Cross-site form.');
    const token = str(bodyOf(request)[CSRF_FIELD]);
    const viewer = await ctx.viewerOf(request);
    let ok = ctx.kit.checkCsrf(request, token, viewer?.memberId ?? null);
    // signing out still works with a page rendered before the session's key was revoked
    const signed = request.routeOptions.url === '/logout' ? ctx.kit.readSession(request) : null;
    if (!ok && signed) ok = ctx.kit.checkCsrf(request, token, signed.userId);
    if (!ok) throw new AppError(403, 'csrf', 'The form has expired.');
  });
}
