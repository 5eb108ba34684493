// Accepting an invitation (docs/teams.md "Invitations"): GET /invite/<token> shows the
// organisation and the role — for a new person a form (name, password) that makes the account,
// the membership and a new session; for the person who has the email, "Sign in to accept" and
// then Accept (the membership, and the session switches to that organisation). An accepted,
// revoked, expired or unknown link is a 410 page and changes nothing. Every form carries the
// CSRF token (the CSRF plugin); the POSTs are throttled as sign-ups (5 in 15 min per address).
// Invitations work whatever the sign-up mode: they are how people join a closed instance.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { bodyOf, str, type PageContext } from '../context.js';
import { blockedFor, RESET_RULE } from '../throttle.js';
import { inviteGoneView, inviteView, type InviteData } from '../../views/invite.js';

type Req = FastifyRequest<{ Params: { token: string } }>;

export function invitePageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services, kit } = ctx;
  const narrow = { mainClass: 'narrow' };
  const anonymous = { name: null, csrf: null };

  const gone = (reply: FastifyReply, state: 'ok' | 'accepted' | 'revoked' | 'expired' | null) =>
    ctx.send(
      reply,
      410,
      'Invitation not valid',
      anonymous,
      inviteGoneView(state === 'ok' ? null : state),
      narrow,
    );

  /** the page for a live invitation (null: gone, sent) */
  async function show(
    request: Req,
    reply: FastifyReply,
    status: number,
    extra: Pick<InviteData, 'errors' | 'name'> = {},
  ) {
    const { token } = request.params;
    const found = await services.invitations.check(token);
    if (!found || found.state !== 'ok') return gone(reply, found?.state ?? null);
    const inv = found.invitation;
    const viewer = await ctx.viewerOf(request);
    const person = viewer && viewer.keyId === null ? viewer : null;
    const mode: InviteData['mode'] = !found.personExists
      ? 'new'
      : person?.email === inv.email
        ? 'accept'
        : viewer
          ? 'other'
          : 'sign-in';
    const csrf = kit.csrfToken(request, reply, viewer?.memberId ?? null);
    return ctx.send(
      reply,
      status,
      `Join ${inv.orgName}`,
      anonymous,
      inviteView({
        csrf,
        path: `/invite/${token}`,
        orgName: inv.orgName,
        role: inv.role,
        email: inv.email,
        projects: inv.projects,
        mode,
        signedInAs: viewer?.email ?? viewer?.name ?? null,
        ...extra,
      }),
      narrow,
    );
  }

  app.get<{ Params: { token: string } }>('/invite/:token', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return show(request, reply, 200);
  });

  app.post<{ Params: { token: string } }>('/invite/:token', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const ipKey = `signup:${request.ip}`;
    const wait = await blockedFor(ctx.attempts, ipKey, RESET_RULE);
    if (wait !== null) return ctx.sendError(request, reply, 429, wait);
    await ctx.attempts.hit(ipKey, RESET_RULE.windowMs);
    const { token } = request.params;
    const body = bodyOf(request);
    try {
      if (str(body.action) === 'join') {
        const viewer = await ctx.viewerOf(request);
        const session = kit.readSession(request);
        if (!viewer || viewer.keyId !== null || !session)
          return reply.redirect(`/login?next=${encodeURIComponent(`/invite/${token}`)}`, 303);
        const joined = await services.invitations.acceptAsPerson(token, viewer.memberId);
        if (!joined) return gone(reply, (await services.invitations.check(token))?.state ?? null);
        await services.signin.switchOrganization(session.token, joined.orgId);
        return reply.redirect('/dashboard', 303);
      }
      const created = await services.invitations.acceptAsNew(token, {
        name: str(body.name).slice(0, 64),
        password: str(body.password),
      });
      if (!created) return gone(reply, (await services.invitations.check(token))?.state ?? null);
      // a new session: whatever this browser held ends (never adopted)
      const old = kit.readSession(request);
      if (old) await services.signin.signOut(old.token);
      kit.startSession(reply, created.userId, created.token);
      return reply.redirect('/dashboard', 303);
    } catch (err) {
      if (err instanceof AppError && err.status === 422 && err.fields)
        return show(request, reply, 422, { errors: err.fields, name: str(body.name).slice(0, 64) });
      if (err instanceof AppError && err.status === 403)
        return ctx.sendError(request, reply, 403, null, err.message);
      throw err;
    }
  });
}
