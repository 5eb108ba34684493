// The API keys page: GET /dashboard/keys (the signed-in user's keys), create one (the answer
// shows the secret, once) and revoke one (Post/Redirect/Get). The rules are the services'
// (services.keys.createOwn/revokeOwn: a write key for every project manages keys).
import { formErrors, KEY_FORM, unplacedErrors } from '../form-words.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import type { ApiKeyInfo } from '../../services/accounts/types.js';
import { bodyOf, rawQuery, str, type PageContext, type SignedIn } from '../context.js';
import type { Flash } from '../../views/dashboard.js';
import { canOf } from '../../views/layout.js';
import { EXPIRY_CHOICES, keysView, type KeyFormState } from '../../views/keys.js';

const KeyParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const emptyForm = (): KeyFormState => ({ scope: 'write', projects: '', expires: 'never', errors: {} });

export function keyPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    flash: Flash | null,
    form: KeyFormState,
    created: { info: ApiKeyInfo; key: string } | null = null,
  ) {
    const keys = await services.keys.listOwn(v);
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      status,
      'API keys',
      viewer,
      keysView({
        csrf: viewer.csrf ?? '',
        flash,
        currentKeyId: v.keyId,
        created,
        form,
        keys,
        canWrite: canOf(viewer)('keys.own'),
      }),
    );
  }

  app.get('/dashboard/keys', { config: { access: 'account.read' } }, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const done = rawQuery(request, ['done']).done;
    const flash: Flash | null = done === 'revoked' ? { kind: 'success', text: 'The key was revoked.' } : null;
    return render(request, reply, v, 200, flash, emptyForm());
  });

  app.post('/dashboard/keys', { config: { access: 'keys.own' } }, async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const body = bodyOf(request);
    const form: KeyFormState = {
      scope: str(body.scope) || 'write',
      projects: str(body.projects),
      expires: str(body.expires) || 'never',
      errors: {},
    };
    const choice = EXPIRY_CHOICES.find((c) => c.value === form.expires);
    if (!choice) {
      form.errors.expires_at = [
        `The expires must be one of: ${EXPIRY_CHOICES.map((c) => c.value).join(', ')}.`,
      ];
      form.errors = formErrors(KEY_FORM, form.errors);
      return render(request, reply, v, 422, null, form);
    }
    try {
      const created = await services.keys.createOwn(v, {
        scope: form.scope as 'read' | 'write',
        projects: form.projects
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p !== ''),
        expiresAt: choice.days ? new Date(Date.now() + choice.days * 86_400_000).toISOString() : null,
      });
      return render(
        request,
        reply,
        v,
        201,
        { kind: 'success', text: 'The key was created.' },
        emptyForm(),
        created,
      );
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 422 || !err.fields) throw err;
      // each error in the form's words next to its field; the alert only for what has no field
      form.errors = formErrors(KEY_FORM, err.fields);
      const rest = unplacedErrors(form.errors, ['scope', 'projects', 'expires_at']);
      return render(request, reply, v, 422, rest ? { kind: 'error', text: rest } : null, form);
    }
  });

  app.post<{ Params: { id: number } }>(
    '/dashboard/keys/:id/revoke',
    { schema: { params: KeyParams }, attachValidation: true, config: { access: 'keys.own' } },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      await services.keys.revokeOwn(v, request.params.id);
      return reply.redirect('/dashboard/keys?done=revoked', 303);
    },
  );
}
