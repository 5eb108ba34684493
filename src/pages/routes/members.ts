// The members page: GET /dashboard/members (members.read: admins and owners), change a
// member's role and projects (POST /dashboard/members/:user_id) and remove one
// (POST /dashboard/members/:user_id/remove), both members.write, Post/Redirect/Get. The rules
// are the organisations service's, as PATCH/DELETE /api/v1/organization/members/{user_id}: an
// admin never makes, changes or removes an owner (403), the last owner stays one (422), only a
// viewer is limited to projects (422) — each refusal is the page again with its reason.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import type { Role } from '../../services/accounts/types.js';
import { bodyOf, rawQuery, str, type PageContext, type SignedIn } from '../context.js';
import type { Flash } from '../../views/dashboard.js';
import { canOf } from '../../views/layout.js';
import { membersView } from '../../views/members.js';

const MemberParams = Type.Object({ user_id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });
const InvitationParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });

const DONE: Record<string, string> = {
  changed: "The member's role and projects were saved; their API keys follow at once.",
  removed: 'The member was removed; their API keys in this organisation stopped working.',
  revoked: 'The invitation was revoked: its link no longer works.',
};

/** the projects field: names separated by commas or spaces; empty lifts the limit (null) */
const projectsOf = (value: string): string[] | null => {
  const names = value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length ? names : null;
};

export function memberPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    flash: Flash | null,
    made: { url: string; email: string; emailed: boolean } | null = null,
  ) {
    const [members, org] = await Promise.all([
      services.organizations.members(v),
      services.organizations.show(v),
    ]);
    const viewer = await ctx.viewerFor(request, reply);
    const invitations = canOf(viewer)('invitations.read')
      ? { pending: await services.invitations.pending(v), made }
      : undefined;
    return ctx.send(
      reply,
      status,
      'Members',
      viewer,
      membersView({
        csrf: viewer.csrf ?? '',
        can: canOf(viewer),
        me: v.memberId,
        organization: org.name,
        flash,
        members,
        invitations,
      }),
    );
  }

  /** the service's refusal (422: a rule of the members; 403: an owner's row) as the page's alert */
  async function refused(request: FastifyRequest, reply: FastifyReply, v: SignedIn, err: unknown) {
    if (err instanceof AppError && (err.status === 422 || err.status === 403)) {
      const text = err.fields ? Object.values(err.fields).flat().join(' ') : err.message;
      return render(request, reply, v, err.status, { kind: 'error', text: `Not changed: ${text}` });
    }
    throw err;
  }

  app.get('/dashboard/members', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const done = rawQuery(request, ['done']).done;
    return render(request, reply, v, 200, done && DONE[done] ? { kind: 'success', text: DONE[done] } : null);
  });

  app.post<{ Params: { user_id: number } }>(
    '/dashboard/members/:user_id',
    { schema: { params: MemberParams }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      const body = bodyOf(request);
      try {
        await services.organizations.setMember(v, request.params.user_id, {
          role: (str(body.role) || undefined) as Role | undefined,
          projects: projectsOf(str(body.projects)),
        });
      } catch (err) {
        return refused(request, reply, v, err);
      }
      return reply.redirect('/dashboard/members?done=changed', 303);
    },
  );

  app.post<{ Params: { user_id: number } }>(
    '/dashboard/members/:user_id/remove',
    { schema: { params: MemberParams }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      try {
        await services.organizations.removeMember(v, request.params.user_id);
      } catch (err) {
        return refused(request, reply, v, err);
      }
      return reply.redirect('/dashboard/members?done=removed', 303);
    },
  );

  // invitations (docs/teams.md "Invitations"): the link is shown on the page that made it
  app.post(
    '/dashboard/members/invitations',
    { config: { access: 'invitations.write' } },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      const body = bodyOf(request);
      try {
        const r = await services.invitations.create(v, {
          email: str(body.email).slice(0, 254),
          role: str(body.role),
          projects: projectsOf(str(body.projects)),
        });
        return await render(request, reply, v, 200, null, {
          url: r.url,
          email: r.invitation.email,
          emailed: r.emailed,
        });
      } catch (err) {
        return refused(request, reply, v, err);
      }
    },
  );

  app.post<{ Params: { id: number } }>(
    '/dashboard/members/invitations/:id/revoke',
    { config: { access: 'invitations.write' }, schema: { params: InvitationParams }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      try {
        await services.invitations.revoke(v, request.params.id);
      } catch (err) {
        return refused(request, reply, v, err);
      }
      return reply.redirect('/dashboard/members?done=revoked', 303);
    },
  );
}
