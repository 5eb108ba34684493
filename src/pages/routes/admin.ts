// The instance admin's page (access `instance.read` / `instance.write`: the instance admin
// only; docs/teams.md "The instance admin"): people and organisations with their usage,
// disable/enable a person, reset a second factor, the sign-up mode, and the instance log.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { SIGNUP_MODES } from '../../services/signin/types.js';
import { adminView } from '../../views/admin.js';
import { bodyOf, rawQuery, str, type PageContext, type SignedIn } from '../context.js';

const NOTICES: Record<string, string> = {
  disabled: 'The person is disabled: their sessions and keys stopped.',
  enabled: 'The person is enabled again.',
  totp_reset: "The person's second factor is off: they can set it up again.",
  signup: 'The sign-up mode is saved.',
};

const UserParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const read = { config: { access: 'instance.read' as const } };
const write = { config: { access: 'instance.write' as const }, schema: { params: UserParams } };

export function adminPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    error: string | null = null,
  ) {
    const viewer = await ctx.viewerFor(request, reply);
    const [users, organizations, signupMode, log] = await Promise.all([
      services.admin.users(),
      services.admin.organizations(),
      services.signin.signupMode(),
      services.admin.log(),
    ]);
    const notice = NOTICES[rawQuery(request, ['done']).done ?? ''] ?? null;
    const page = {
      csrf: viewer.csrf ?? '',
      users,
      organizations,
      signupMode,
      log,
      modes: SIGNUP_MODES,
      selfId: v.memberId,
      notice,
      error,
    };
    return ctx.send(reply, status, 'Instance admin', viewer, adminView(page));
  }

  app.get('/dashboard/admin', read, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    return render(request, reply, v, 200);
  });

  const userAction = (path: string, done: string, act: (id: number) => Promise<unknown>) =>
    app.post<{ Params: { id: number } }>(
      `/dashboard/admin/users/:id/${path}`,
      write,
      async (request, reply) => {
        const v = await ctx.requireViewer(request, reply);
        if (!v) return reply;
        try {
          await act(request.params.id);
        } catch (err) {
          if (err instanceof AppError && err.status === 422)
            return render(request, reply, v, 422, err.message);
          throw err;
        }
        return reply.redirect(`/dashboard/admin?done=${done}`, 303);
      },
    );
  userAction('disable', 'disabled', (id) => services.admin.setDisabled(id, true));
  userAction('enable', 'enabled', (id) => services.admin.setDisabled(id, false));
  userAction('totp-reset', 'totp_reset', (id) => services.admin.resetSecondFactor(id));

  app.post('/dashboard/admin/signup', { config: { access: 'instance.write' } }, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    try {
      await services.signin.setSignupMode(str(bodyOf(request).mode));
    } catch (err) {
      if (err instanceof AppError && err.status === 422) return render(request, reply, v, 422, err.message);
      throw err;
    }
    return reply.redirect('/dashboard/admin?done=signup', 303);
  });
}
