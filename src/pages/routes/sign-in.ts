// Sign in with an API key (GET/POST /login, throttled per IP) and sign out (GET/POST /logout).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyOf, rawQuery, safePath, str, type PageContext } from '../context.js';
import { blockedFor, LOGIN_RULE } from '../throttle.js';
import { loginView } from '../../views/forms.js';
import { logoutView } from '../../views/logout.js';

export function signInRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services, kit } = ctx;

  const showLogin = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    next: string,
    error: string | null,
  ) => {
    const csrf = kit.csrfToken(request, reply, null);
    return ctx.send(reply, status, 'Sign in', { name: null, csrf: null }, loginView({ csrf, next, error }), {
      mainClass: 'narrow',
    });
  };

  app.get('/login', async (request, reply) => {
    const next = safePath(rawQuery(request, ['next']).next ?? '', '/dashboard');
    if (await ctx.viewerOf(request)) return reply.redirect(next, 303);
    return showLogin(request, reply, 200, next, null);
  });

  app.post('/login', async (request, reply) => {
    const body = bodyOf(request);
    const next = safePath(str(body.next), '/dashboard');
    const key = `login:${request.ip}`;
    const wait = await blockedFor(ctx.attempts, key, LOGIN_RULE);
    if (wait !== null) return ctx.sendError(request, reply, 429, wait);
    const token = str(body.key).trim();
    const auth = token.length > 0 && token.length <= 512 ? await services.auth.authenticate(token) : null;
    if (!auth) {
      await ctx.attempts.hit(key, LOGIN_RULE.windowMs);
      return showLogin(request, reply, 401, next, 'That API key is not valid.');
    }
    kit.startSession(reply, auth.memberId, auth.keyId);
    return reply.redirect(next, 303);
  });

  app.get('/logout', async (request, reply) => {
    if (!(await ctx.viewerOf(request))) return reply.redirect('/login', 303);
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(reply, 200, 'Sign out', viewer, logoutView({ csrf: viewer.csrf ?? '' }), {
      mainClass: 'narrow',
    });
  });

  app.post('/logout', async (_request, reply) => {
    kit.endSession(reply);
    return reply.redirect('/login', 303);
  });
}
