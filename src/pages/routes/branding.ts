// The branding page: GET /dashboard/branding (the signed-in user's PDF branding) and its
// forms — save (POST /dashboard/branding; errors beside their fields, in the service's words)
// and clear (POST /dashboard/branding/delete), Post/Redirect/Get. The rules are the services'
// (services.branding, the same as PUT /api/v1/account/branding).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { BrandingInput } from '../../services/branding/types.js';
import { bodyOf, rawQuery, str, type PageContext, type SignedIn } from '../context.js';
import { BRANDING_FORM, formErrors, unplacedErrors } from '../form-words.js';
import {
  BRANDING_FIELDS,
  brandingFormOf,
  brandingView,
  type BrandingFormState,
} from '../../views/branding.js';
import type { Flash } from '../../views/dashboard.js';

const DONE: Record<string, string> = {
  saved: 'The branding was saved: your PDFs show it from now on.',
  cleared: 'The branding was cleared: your PDFs have the plain Pagegrade look.',
};

/**
 * The branding form as sent (the organisation's and a project's alike): the form's values to
 * show again, and the service's input. An empty file field keeps the logo; the box removes it.
 */
export function readBrandingForm(body: Record<string, unknown>): {
  form: BrandingFormState;
  input: BrandingInput;
} {
  const form: BrandingFormState = {
    name: str(body.name),
    accent_color: str(body.accent_color),
    contact: str(body.contact),
    prepared_for: str(body.prepared_for),
    errors: {},
  };
  const input: BrandingInput = {
    name: form.name,
    accentColor: form.accent_color,
    contact: form.contact,
    preparedFor: form.prepared_for,
  };
  const logo = str(body.logo);
  if (str(body.remove_logo) === '1') input.logo = null;
  else if (logo !== '') input.logo = logo;
  return { form, input };
}

export function brandingPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    v: SignedIn,
    status: number,
    flash: Flash | null,
    form?: BrandingFormState,
  ) {
    const branding = await services.branding.get(v);
    const viewer = await ctx.viewerFor(request, reply);
    return ctx.send(
      reply,
      status,
      'PDF branding',
      viewer,
      brandingView({
        csrf: viewer.csrf ?? '',
        flash,
        branding,
        form: form ?? brandingFormOf(branding),
        pdfUnavailable: services.pdf.unavailable(),
      }),
    );
  }

  app.get('/dashboard/branding', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const done = rawQuery(request, ['done']).done;
    return render(request, reply, v, 200, done && DONE[done] ? { kind: 'success', text: DONE[done] } : null);
  });

  app.post('/dashboard/branding', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    const { form, input } = readBrandingForm(bodyOf(request));
    try {
      await services.branding.put(v, input);
      return reply.redirect('/dashboard/branding?done=saved', 303);
    } catch (err) {
      if (err instanceof AppError && err.status === 422 && err.fields) {
        // each message once, next to its field, in the form's words; the alert only for the rest
        form.errors = formErrors(BRANDING_FORM, err.fields);
        const rest = unplacedErrors(form.errors, BRANDING_FIELDS);
        return render(request, reply, v, 422, rest ? { kind: 'error', text: rest } : null, form);
      }
      if (err instanceof AppError && err.status === 403)
        return render(request, reply, v, 403, { kind: 'error', text: err.message }, form);
      throw err;
    }
  });

  app.post('/dashboard/branding/delete', async (request, reply) => {
    const v = await ctx.requireViewer(request, reply);
    if (!v) return reply;
    try {
      await services.branding.clear(v);
    } catch (err) {
      if (err instanceof AppError && err.status === 403)
        return render(request, reply, v, 403, { kind: 'error', text: err.message });
      throw err;
    }
    return reply.redirect('/dashboard/branding?done=cleared', 303);
  });
}
