// A project's own PDF branding from its page (docs/teams.md, "What a client sees"): save
// (POST /dashboard/projects/:project/branding; errors beside their fields, in the branding
// page's words) and clear (POST …/branding/delete), Post/Redirect/Get; both branding.write
// (admins and owners). The rules are services.branding's, as PUT/DELETE
// /api/v1/projects/{project}/branding.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { ProjectParams } from '../../contract/projects.js';
import { bodyOf, type PageContext } from '../context.js';
import { BRANDING_FORM, formErrors, unplacedErrors } from '../form-words.js';
import { BRANDING_FIELDS } from '../../views/branding.js';
import { renderProjectPage } from './project.js';
import { readBrandingForm } from './branding.js';

export function projectBrandingPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;
  const page = (project: string) => `/dashboard/projects/${encodeURIComponent(project)}`;

  app.post<{ Params: { project: string } }>(
    '/dashboard/projects/:project/branding',
    { schema: { params: ProjectParams }, attachValidation: true, config: { access: 'branding.write' } },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      const project = request.params.project;
      const { form, input } = readBrandingForm(bodyOf(request));
      try {
        await services.branding.putProject(v, project, input);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 422 || !err.fields) throw err;
        form.errors = formErrors(BRANDING_FORM, err.fields);
        const rest = unplacedErrors(form.errors, BRANDING_FIELDS);
        return renderProjectPage(ctx, request, reply, {
          v,
          project,
          status: 422,
          flash: {
            kind: 'error',
            text: rest || "The project's branding was not saved: see the fields marked below.",
          },
          brandingForm: form,
        });
      }
      return reply.redirect(`${page(project)}?done=project_branding_saved#branding`, 303);
    },
  );

  app.post<{ Params: { project: string } }>(
    '/dashboard/projects/:project/branding/delete',
    { schema: { params: ProjectParams }, attachValidation: true, config: { access: 'branding.write' } },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      await services.branding.clearProject(v, request.params.project);
      return reply.redirect(`${page(request.params.project)}?done=project_branding_cleared#branding`, 303);
    },
  );
}
