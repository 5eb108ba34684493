// Single sign-on with OpenID Connect (docs/teams.md "Single sign-on"): `/login/sso` starts the
// authorization code flow at the identity provider (the services make the state, nonce and
// PKCE verifier and keep them; this browser keeps the state in a signed cookie of 10 minutes,
// path /login/sso), `/login/sso/callback` finishes it in that browser only: a new session
// (whatever session the browser held ends: never adopted), or a page saying why not — 400 for
// an answer that fails a check (state, replay, issuer, nonce…), 403 when nobody may sign in
// with that identity, 503 when the provider cannot be reached. Public pages, as /login is.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rawQuery, safePath, type PageContext } from '../context.js';
import { blockedFor, type ThrottleRule } from '../throttle.js';
import { ssoRefusedView } from '../../views/sso.js';
import type { SsoRefusal } from '../../services/sso/types.js';

const ANSWERS: Record<SsoRefusal, { status: number; title: string }> = {
  unavailable: { status: 503, title: 'The identity provider cannot be reached' },
  state: { status: 400, title: 'Sign-in not completed' },
  used: { status: 400, title: 'Sign-in not completed' },
  provider: { status: 400, title: 'Sign-in not completed' },
  denied: { status: 403, title: 'Sign-in not completed' },
  unverified: { status: 403, title: 'Email not verified' },
  no_account: { status: 403, title: 'No account' },
  disabled: { status: 403, title: 'Account disabled' },
  no_organization: { status: 403, title: 'No organization' },
};

/** Single sign-on starts: 30 a minute per address (each keeps a row for 10 minutes; a shared office address signs many in). */
const SSO_RULE: ThrottleRule = { limit: 30, windowMs: 60_000 };

export function ssoRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services, kit } = ctx;
  const anonymous = { name: null, csrf: null };

  const refuse = (
    request: FastifyRequest,
    reply: FastifyReply,
    refusal: { reason: SsoRefusal; detail: string },
    next: string,
  ) => {
    const answer = ANSWERS[refusal.reason];
    request.log.warn({ reason: refusal.reason, detail: refusal.detail }, 'single sign-on refused');
    return ctx.send(
      reply,
      answer.status,
      answer.title,
      anonymous,
      ssoRefusedView({ ...answer, ...refusal, next }),
      {
        mainClass: 'narrow',
      },
    );
  };

  app.get('/login/sso', async (request, reply) => {
    const next = safePath(rawQuery(request, ['next']).next ?? '', '/dashboard');
    if (!services.sso.provider()) return ctx.notFoundPage(request, reply);
    const wait = await blockedFor(ctx.attempts, `sso:${request.ip}`, SSO_RULE);
    if (wait !== null) return ctx.sendError(request, reply, 429, wait);
    await ctx.attempts.hit(`sso:${request.ip}`, SSO_RULE.windowMs);
    const started = await services.sso.begin(next);
    if (!started.ok) return refuse(request, reply, started, next);
    kit.startSso(reply, started.state);
    return reply.redirect(started.url, 303);
  });

  app.get('/login/sso/callback', async (request, reply) => {
    if (!services.sso.provider()) return ctx.notFoundPage(request, reply);
    const browserState = kit.readSso(request);
    // the cookie is spent whatever happens: one callback per start
    kit.endSso(reply);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const outcome = await services.sso.finish(browserState, query);
    if (!outcome.ok) return refuse(request, reply, outcome, '/dashboard');
    const old = kit.readSession(request);
    if (old) await services.signin.signOut(old.token);
    kit.startSession(reply, outcome.userId, outcome.token);
    return reply.redirect(safePath(outcome.next, '/dashboard'), 303);
  });
}
