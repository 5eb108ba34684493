// The signed-in person's own security (access `security.own`; docs/teams.md "Signing in"):
// /dashboard/account (email and password, the TOTP second factor) and the header's
// organisation switcher (POST /dashboard/organization). The rules are the services'
// (src/services/signin).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { accountView, type AccountPage } from '../../views/account.js';
import { bodyOf, rawQuery, str, type PageContext, type SignedIn } from '../context.js';

const NOTICES: Record<string, string> = {
  password: 'Your password is saved; your other sessions have ended.',
  totp_off: 'The second factor is off.',
  switched: 'You now act in the organization you chose.',
};

const access = { config: { access: 'security.own' as const } };

export function accountPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services, kit } = ctx;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    extra: Partial<AccountPage> = {},
  ) {
    const viewer = await ctx.viewerFor(request, reply);
    const orgs = await services.signin.organizationsOf(v.memberId);
    const page: AccountPage = {
      csrf: viewer.csrf ?? '',
      name: v.name,
      email: v.email,
      hasPassword: v.hasPassword,
      totpEnabled: v.totpEnabled,
      keySession: v.keyId !== null,
      organization: orgs.find((o) => o.id === v.orgId)?.name ?? '',
      role: v.role,
      notice: NOTICES[rawQuery(request, ['done']).done ?? ''] ?? null,
      ...extra,
    };
    return ctx.send(reply, status, 'Your account', viewer, accountView(page));
  }

  /** a 422 of the services shown on the page, anything else thrown on */
  const fieldErrors = (err: unknown): Record<string, string[]> => {
    if (err instanceof AppError && err.status === 422 && err.fields) return err.fields;
    throw err;
  };

  app.get('/dashboard/account', access, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    return render(request, reply, v, 200);
  });

  app.post('/dashboard/account/password', access, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const body = bodyOf(request);
    const token = kit.readSession(request)!.token;
    try {
      await services.signin.changePassword(
        token,
        v.hasPassword ? str(body.current) : null,
        str(body.password),
        v.email === null ? str(body.email).slice(0, 254) : null,
      );
    } catch (err) {
      return render(request, reply, v, 422, { errors: fieldErrors(err) });
    }
    return reply.redirect('/dashboard/account?done=password', 303);
  });

  app.post('/dashboard/account/totp', access, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    try {
      const enrol = await services.signin.totpBegin(v.memberId);
      return await render(request, reply, v, 200, { enrol });
    } catch (err) {
      return render(request, reply, v, 422, { errors: fieldErrors(err) });
    }
  });

  app.post('/dashboard/account/totp/confirm', access, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const key = `totp-enrol:${v.memberId}`;
    const blocked = await ctx.attempts.peek(key);
    if (blocked && blocked.count >= 5)
      return ctx.sendError(request, reply, 429, Math.ceil(blocked.resetMs / 1000));
    try {
      const recoveryCodes = await services.signin.totpConfirm(
        v.memberId,
        str(bodyOf(request).code).slice(0, 16),
      );
      return await render(request, reply, v, 200, { recoveryCodes, totpEnabled: true });
    } catch (err) {
      const errors = fieldErrors(err);
      await ctx.attempts.hit(key, 5 * 60_000);
      return render(request, reply, v, 422, { errors });
    }
  });

  app.post('/dashboard/account/totp/disable', access, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    await services.signin.totpDisable(v.memberId);
    return reply.redirect('/dashboard/account?done=totp_off', 303);
  });

  app.post('/dashboard/organization', access, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const org = Number(str(bodyOf(request).org));
    try {
      await services.signin.switchOrganization(kit.readSession(request)!.token, org);
    } catch (err) {
      if (err instanceof AppError && err.status === 422)
        return render(request, reply, v, 422, { errors: { org: err.fields?.org ?? [err.message] } });
      throw err;
    }
    return reply.redirect('/dashboard', 303);
  });
}
