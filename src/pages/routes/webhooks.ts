// The webhooks page: GET /dashboard/webhooks (the signed-in user's webhooks, each with its
// state and latest deliveries), and its forms — add one (the answer shows the signing secret,
// once), send a test, disable, enable, delete (Post/Redirect/Get). The rules are the
// services' (services.webhooks), as for the API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { Principal } from '../../services/accounts/types.js';
import type { Webhook, WebhookEvent } from '../../services/webhooks/types.js';
import { fieldErrors } from '../../web/field-errors.js';
import { formErrors, unplacedErrors, WEBHOOK_FORM } from '../form-words.js';

/** The fields the webhook form shows (their errors are shown next to them). */
const WEBHOOK_FORM_FIELDS = ['url', 'events', 'description'];
import { CreateWebhookBody, WebhookParams } from '../../contract/webhooks/requests.js';
import { bodyOf, rawQuery, str, type PageContext, type SignedIn } from '../context.js';
import type { Flash } from '../../views/dashboard.js';
import { webhooksView, type WebhookFormState } from '../../views/webhooks.js';

/** Deliveries shown per webhook. */
const LATEST = 5;

const NOTICES: Record<string, string> = {
  tested: 'A test delivery was queued.',
  disabled: 'The webhook was disabled.',
  enabled: 'The webhook was enabled.',
  deleted: 'The webhook was deleted.',
};

const emptyForm = (): WebhookFormState => ({ url: '', events: [], description: '', errors: {} });

const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

export function webhookPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    flash: Flash | null,
    form: WebhookFormState,
    created: { webhook: Webhook; secret: string } | null = null,
  ) {
    const page = await services.webhooks.list(v, { page: 1, perPage: 100 });
    const rows = await Promise.all(
      page.items.map(async (webhook) => ({
        webhook,
        deliveries: (await services.webhooks.deliveries(v, webhook.id, { page: 1, perPage: LATEST })).items,
      })),
    );
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      status,
      'Webhooks',
      viewer,
      webhooksView({ csrf: viewer.csrf ?? '', flash, created, form, rows }),
    );
  }

  app.get('/dashboard/webhooks', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const done = rawQuery(request, ['done']).done;
    const flash: Flash | null = done && NOTICES[done] ? { kind: 'success', text: NOTICES[done]! } : null;
    return render(request, reply, v, 200, flash, emptyForm());
  });

  app.post(
    '/dashboard/webhooks',
    { schema: { body: CreateWebhookBody }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      const body = bodyOf(request);
      const form: WebhookFormState = {
        url: str(body.url),
        events: list(body.events),
        description: str(body.description),
        errors: {},
      };
      // each error in the form's words next to its field; the alert only for what has no field
      const refused = (fields: Record<string, string[]>) => {
        form.errors = formErrors(WEBHOOK_FORM, fields);
        const rest = unplacedErrors(form.errors, WEBHOOK_FORM_FIELDS);
        return render(request, reply, v, 422, rest ? { kind: 'error', text: rest } : null, form);
      };
      if (request.validationError) return refused(fieldErrors(request.validationError.validation));
      try {
        const created = await services.webhooks.create(v, {
          url: form.url,
          events: form.events as WebhookEvent[],
          ...(form.description ? { description: form.description } : {}),
        });
        return render(
          request,
          reply,
          v,
          201,
          { kind: 'success', text: 'The webhook was added.' },
          emptyForm(),
          created,
        );
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 422 || !err.fields) throw err;
        return refused(err.fields);
      }
    },
  );

  const action = (path: string, done: string, run: (who: Principal, id: number) => Promise<unknown>) =>
    app.post<{ Params: { id: number } }>(
      `/dashboard/webhooks/:id/${path}`,
      { schema: { params: WebhookParams }, attachValidation: true },
      async (request, reply) => {
        const v = await ctx.requireViewer(request, reply);
        if (!v) return reply;
        if (request.validationError) return ctx.notFoundPage(request, reply);
        try {
          await run(v, request.params.id);
        } catch (err) {
          if (err instanceof AppError && err.status === 404) return ctx.notFoundPage(request, reply);
          if (err instanceof AppError && err.status === 422)
            return render(request, reply, v, 422, { kind: 'error', text: err.message }, emptyForm());
          throw err;
        }
        return reply.redirect(`/dashboard/webhooks?done=${done}`, 303);
      },
    );

  action('test', 'tested', (who, id) => services.webhooks.test(who, id));
  action('disable', 'disabled', (who, id) => services.webhooks.update(who, id, { enabled: false }));
  action('enable', 'enabled', (who, id) => services.webhooks.update(who, id, { enabled: true }));
  action('delete', 'deleted', (who, id) => services.webhooks.delete(who, id));
}
