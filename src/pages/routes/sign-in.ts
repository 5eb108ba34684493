// Signing in and out (docs/teams.md "Signing in"): /login by email and password (an API key
// for scripts' sessions on the same page), the second factor's step, /logout, "Forgot
// password", the reset link's form and /signup. Throttled with the pages' attempt store
// (src/pages/throttle.ts): per address, per account, per person for codes. Every sign-in opens
// a new server-side session (a new id; the browser's old one ends): a planted cookie is never
// adopted.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { bodyOf, rawQuery, safePath, str, type PageContext } from '../context.js';
import { ACCOUNT_RULE, blockedFor, LOGIN_RULE, RESET_RULE, TOTP_RULE } from '../throttle.js';
import {
  forgotView,
  linkGoneView,
  loginView,
  resetView,
  secondFactorView,
  signupClosedView,
  signupView,
} from '../../views/sign-in.js';
import { logoutView } from '../../views/logout.js';
import type { NewSession } from '../../services/signin/types.js';

const NOTICES: Record<string, string> = {
  reset: 'Your new password is set: sign in with it.',
};

export function signInRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services, kit } = ctx;

  const narrow = { mainClass: 'narrow' };
  const anonymous = { name: null, csrf: null };

  const showLogin = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    next: string,
    errors: { error?: string; keyError?: string; email?: string } = {},
  ) => {
    const csrf = kit.csrfToken(request, reply, null);
    const notice = NOTICES[rawQuery(request, ['done']).done ?? ''] ?? null;
    const signup = (await services.signin.signupMode()) === 'open';
    const provider = services.sso.provider();
    const sso = provider && { name: provider.name, href: `/login/sso?next=${encodeURIComponent(next)}` };
    return ctx.send(
      reply,
      status,
      'Sign in',
      anonymous,
      loginView({ csrf, next, notice, signup, sso, ...errors }),
      narrow,
    );
  };

  /** a new session in this browser: whatever session it held ends (never adopted) */
  const begin = async (request: FastifyRequest, reply: FastifyReply, session: NewSession) => {
    const old = kit.readSession(request);
    if (old) await services.signin.signOut(old.token);
    kit.startSession(reply, session.userId, session.token);
  };

  const throttled = async (
    request: FastifyRequest,
    reply: FastifyReply,
    keys: [string, typeof LOGIN_RULE][],
  ) => {
    for (const [key, rule] of keys) {
      const wait = await blockedFor(ctx.attempts, key, rule);
      if (wait !== null) return ctx.sendError(request, reply, 429, wait);
    }
    return null;
  };

  app.get('/login', async (request, reply) => {
    const next = safePath(rawQuery(request, ['next']).next ?? '', '/dashboard');
    if (await ctx.viewerOf(request)) return reply.redirect(next, 303);
    return showLogin(request, reply, 200, next);
  });

  app.post('/login', async (request, reply) => {
    const body = bodyOf(request);
    const next = safePath(str(body.next), '/dashboard');
    const ipKey = `login:${request.ip}`;
    if ('key' in body) {
      const blocked = await throttled(request, reply, [[ipKey, LOGIN_RULE]]);
      if (blocked) return blocked;
      const token = str(body.key).trim();
      const session = token.length > 0 && token.length <= 512 ? await services.signin.withKey(token) : null;
      if (!session) {
        await ctx.attempts.hit(ipKey, LOGIN_RULE.windowMs);
        return showLogin(request, reply, 401, next, { keyError: 'That API key is not valid.' });
      }
      await begin(request, reply, session);
      return reply.redirect(next, 303);
    }
    const email = str(body.email).trim().toLowerCase().slice(0, 254);
    const accountKey = `login-account:${email}`;
    const blocked = await throttled(request, reply, [
      [ipKey, LOGIN_RULE],
      [accountKey, ACCOUNT_RULE],
    ]);
    if (blocked) return blocked;
    const outcome = await services.signin.withPassword(email, str(body.password));
    if (!outcome.ok) {
      await ctx.attempts.hit(ipKey, LOGIN_RULE.windowMs);
      await ctx.attempts.hit(accountKey, ACCOUNT_RULE.windowMs);
      const error =
        outcome.reason === 'no_organization'
          ? 'Your account is not a member of any organization: ask the instance administrator.'
          : 'That email and password do not match an account.';
      return showLogin(request, reply, 401, next, { error, email });
    }
    await ctx.attempts.reset(accountKey);
    await begin(request, reply, outcome);
    if (outcome.stage === 'totp')
      return reply.redirect(`/login/second-factor?next=${encodeURIComponent(next)}`, 303);
    return reply.redirect(next, 303);
  });

  const pendingOf = async (request: FastifyRequest) => {
    const s = kit.readSession(request);
    return s ? { token: s.token, pending: await services.signin.pending(s.token) } : null;
  };

  app.get('/login/second-factor', async (request, reply) => {
    const next = safePath(rawQuery(request, ['next']).next ?? '', '/dashboard');
    const p = await pendingOf(request);
    if (!p?.pending) return reply.redirect(`/login?next=${encodeURIComponent(next)}`, 303);
    const csrf = kit.csrfToken(request, reply, null);
    return ctx.send(reply, 200, 'Second factor', anonymous, secondFactorView({ csrf, next }), narrow);
  });

  app.post('/login/second-factor', async (request, reply) => {
    const body = bodyOf(request);
    const next = safePath(str(body.next), '/dashboard');
    const p = await pendingOf(request);
    if (!p?.pending) return reply.redirect(`/login?next=${encodeURIComponent(next)}`, 303);
    const ipKey = `login:${request.ip}`;
    const personKey = `totp:${p.pending.userId}`;
    const blocked = await throttled(request, reply, [
      [ipKey, LOGIN_RULE],
      [personKey, TOTP_RULE],
    ]);
    if (blocked) return blocked;
    const session = await services.signin.secondFactor(p.token, str(body.code).slice(0, 64));
    if (!session) {
      await ctx.attempts.hit(ipKey, LOGIN_RULE.windowMs);
      await ctx.attempts.hit(personKey, TOTP_RULE.windowMs);
      const csrf = kit.csrfToken(request, reply, null);
      const error = 'That code is not right (or was already used).';
      return ctx.send(
        reply,
        401,
        'Second factor',
        anonymous,
        secondFactorView({ csrf, next, error }),
        narrow,
      );
    }
    kit.startSession(reply, session.userId, session.token);
    return reply.redirect(next, 303);
  });

  app.get('/logout', async (request, reply) => {
    if (!(await ctx.viewerOf(request))) return reply.redirect('/login', 303);
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(reply, 200, 'Sign out', viewer, logoutView({ csrf: viewer.csrf ?? '' }), narrow);
  });

  app.post('/logout', async (request, reply) => {
    const s = kit.readSession(request);
    if (s) await services.signin.signOut(s.token);
    kit.endSession(reply);
    return reply.redirect('/login', 303);
  });

  // --- a forgotten password ----------------------------------------------------------------

  app.get('/forgot-password', async (request, reply) => {
    const csrf = kit.csrfToken(request, reply, null);
    const email = services.mail.configured();
    return ctx.send(
      reply,
      200,
      'Forgot password',
      anonymous,
      forgotView({ csrf, sent: false, email }),
      narrow,
    );
  });

  app.post('/forgot-password', async (request, reply) => {
    const ipKey = `reset:${request.ip}`;
    const blocked = await throttled(request, reply, [[ipKey, RESET_RULE]]);
    if (blocked) return blocked;
    await ctx.attempts.hit(ipKey, RESET_RULE.windowMs);
    const email = services.mail.configured();
    // the same answer whether an account has this email or not
    if (email)
      await services.mail.sendResetLink(str(bodyOf(request).email)).catch((err: unknown) => {
        request.log.warn({ err: (err as Error).message }, 'the reset link could not be sent');
      });
    const csrf = kit.csrfToken(request, reply, null);
    return ctx.send(
      reply,
      200,
      'Forgot password',
      anonymous,
      forgotView({ csrf, sent: true, email }),
      narrow,
    );
  });

  app.get<{ Params: { token: string } }>('/reset-password/:token', async (request, reply) => {
    const state = await services.signin.checkReset(request.params.token);
    if (state !== 'ok')
      return ctx.send(reply, 410, 'Reset link not valid', anonymous, linkGoneView(state), narrow);
    const csrf = kit.csrfToken(request, reply, null);
    return ctx.send(
      reply,
      200,
      'Set a new password',
      anonymous,
      resetView({ csrf, token: request.params.token }),
      narrow,
    );
  });

  app.post<{ Params: { token: string } }>('/reset-password/:token', async (request, reply) => {
    const { token } = request.params;
    let done: boolean;
    try {
      done = await services.signin.resetPassword(token, str(bodyOf(request).password));
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 422) throw err;
      const csrf = kit.csrfToken(request, reply, null);
      return ctx.send(
        reply,
        422,
        'Set a new password',
        anonymous,
        resetView({ csrf, token, error: err.message }),
        narrow,
      );
    }
    if (!done) {
      const state = await services.signin.checkReset(token);
      return ctx.send(reply, 410, 'Reset link not valid', anonymous, linkGoneView(state), narrow);
    }
    // whatever session this browser held ended with the reset (every session of the person did)
    kit.endSession(reply);
    return reply.redirect('/login?done=reset', 303);
  });

  // --- sign-up -----------------------------------------------------------------------------

  app.get('/signup', async (request, reply) => {
    const mode = await services.signin.signupMode();
    if (mode !== 'open')
      return ctx.send(reply, 403, 'Sign-up is closed', anonymous, signupClosedView(mode), narrow);
    const csrf = kit.csrfToken(request, reply, null);
    return ctx.send(reply, 200, 'Create an account', anonymous, signupView({ csrf }), narrow);
  });

  app.post('/signup', async (request, reply) => {
    const mode = await services.signin.signupMode();
    if (mode !== 'open')
      return ctx.send(reply, 403, 'Sign-up is closed', anonymous, signupClosedView(mode), narrow);
    const ipKey = `signup:${request.ip}`;
    const blocked = await throttled(request, reply, [[ipKey, RESET_RULE]]);
    if (blocked) return blocked;
    await ctx.attempts.hit(ipKey, RESET_RULE.windowMs);
    const body = bodyOf(request);
    const input = {
      email: str(body.email).slice(0, 254),
      name: str(body.name).slice(0, 64),
      password: str(body.password),
    };
    try {
      const session = await services.signin.signUp(input);
      await begin(request, reply, session);
      return reply.redirect('/dashboard', 303);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 422 || !err.fields) throw err;
      const csrf = kit.csrfToken(request, reply, null);
      const values = { email: input.email, name: input.name };
      return ctx.send(
        reply,
        422,
        'Create an account',
        anonymous,
        signupView({ csrf, errors: err.fields, values }),
        narrow,
      );
    }
  });
}
