// The project page's ignore rule forms (docs/sites.md, "Issue states and ignore rules"): add a
// rule, remove one. The same service functions as POST/DELETE /api/v1/projects/{project}/
// ignore-rules, so the same checks (a known check or finding id, a glob, a date) and the same
// change log, recorded as made from the dashboard with the session's key.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { ProjectParams } from '../../contract/projects.js';
import { bodyOf, str, type PageContext } from '../context.js';
import type { IgnoreRuleFormState } from '../../views/ignore-rules.js';
import { renderProjectPage } from './project.js';

const RuleParams = Type.Object({
  project: ProjectParams.properties.project,
  rule: Type.String({ minLength: 1, maxLength: 64 }),
});

/** `YYYY-MM-DD` from the date input: the rule applies until the end of that day (UTC). */
const untilEndOf = (day: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T23:59:59Z` : day);

export function ignoreRulePageRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { services } = ctx;
  const projectPage = (project: string) => `/dashboard/projects/${encodeURIComponent(project)}`;

  app.post<{ Params: { project: string } }>(
    '/dashboard/projects/:project/ignore-rules',
    { schema: { params: ProjectParams }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      const project = request.params.project;
      const body = bodyOf(request);
      const form: IgnoreRuleFormState = {
        id: str(body.id).trim(),
        url_pattern: str(body.url_pattern).trim(),
        reason: str(body.reason).trim(),
        expires_at: str(body.expires_at).trim(),
        errors: {},
      };
      try {
        await services.projects.addIgnoreRule(v, project, {
          id: form.id,
          url_pattern: form.url_pattern,
          reason: form.reason,
          ...(form.expires_at ? { expires_at: untilEndOf(form.expires_at) } : {}),
        });
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 422 || !err.fields) throw err;
        form.errors = err.fields;
        const text = `The rule was not added: ${Object.values(err.fields).flat().join(' ')}`;
        return renderProjectPage(ctx, request, reply, {
          v,
          project,
          status: 422,
          flash: { kind: 'error', text },
          ignoreForm: form,
        });
      }
      return reply.redirect(`${projectPage(project)}?done=ignore_added#ignore-title`, 303);
    },
  );

  app.post<{ Params: { project: string; rule: string } }>(
    '/dashboard/projects/:project/ignore-rules/:rule/delete',
    { schema: { params: RuleParams }, attachValidation: true },
    async (request, reply) => {
      const v = await ctx.requireViewer(request, reply);
      if (!v) return reply;
      if (request.validationError) return ctx.notFoundPage(request, reply);
      // a rule that is not there (removed already, another project's): the not-found page
      await services.projects.removeIgnoreRule(v, request.params.project, request.params.rule);
      return reply.redirect(`${projectPage(request.params.project)}?done=ignore_removed#ignore-title`, 303);
    },
  );
}
