// /api/v1/account/branding: the PDF reports' branding of the key's organisation (docs/rendering.md,
// "Branded PDFs"). Registered outside the project-scoped routes: branding belongs to the whole
// account, so a project-limited key gets 403 (and a read-only key may only read it).
// /api/v1/projects/{project}/branding: a project's own, over the organisation's on its PDFs
// (a project-limited key reaches its own projects' only; others 404).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { brandingInputOf } from '../../../web/branding.js';
import { restoreNulls } from '../../plugins/body.js';
import { requireAuth } from '../../plugins/auth.js';
import {
  BrandingDeleted,
  BrandingEnvelope,
  branding as brandingExample,
  presentBranding,
  PutBrandingBody,
} from '../../../contract/branding.js';
import { errorResponses, withExample } from '../../../contract/common.js';
import { ProjectParams } from '../../../contract/projects.js';
import type { RouteDeps } from '../deps.js';

const BODY_TYPES = ['application/x-www-form-urlencoded', 'application/json'];

export const brandingRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services }) => {
  const tags = ['account'];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/account/branding',
    {
      config: { access: 'branding.read' },
      schema: {
        operationId: 'showBranding',
        summary: "Show the account's PDF branding",
        description:
          'The name, logo, accent colour, contact and "prepared for" lines printed on the PDFs of your reports (GET /reports/{id}/pdf). Every field is null until set.',
        tags,
        security,
        response: { 200: BrandingEnvelope, ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const branding = await services.branding.get(requireAuth(request));
      return { data: presentBranding(branding) };
    },
  );

  app.put(
    '/account/branding',
    {
      config: { access: 'branding.write' },
      preValidation: (request, _reply, done) => {
        restoreNulls(request.body);
        done();
      },
      schema: {
        operationId: 'updateBranding',
        summary: "Set the account's PDF branding",
        description:
          'Fields sent replace the stored ones; an empty string or null clears a field; fields left out stay. The logo is a PNG, JPEG or SVG image of at most 256 KB, sent as a data: URL or base64 (its type is read from the image). Invalid fields answer 422 naming each one and what it allows.',
        tags,
        security,
        consumes: BODY_TYPES,
        body: withExample(PutBrandingBody, {
          name: brandingExample.name,
          accent_color: brandingExample.accent_color,
          contact: brandingExample.contact,
          prepared_for: brandingExample.prepared_for,
          logo: brandingExample.logo.data_url,
        }),
        response: { 200: BrandingEnvelope, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const branding = await services.branding.put(requireAuth(request), brandingInputOf(request.body));
      return { data: presentBranding(branding) };
    },
  );

  app.delete(
    '/account/branding',
    {
      config: { access: 'branding.write' },
      schema: {
        operationId: 'deleteBranding',
        summary: "Clear the account's PDF branding",
        description: 'Removes every field and the logo: PDFs go back to the plain Pagegrade look.',
        tags,
        security,
        response: { 200: BrandingDeleted, ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      await services.branding.clear(requireAuth(request));
      return { object: 'branding' as const, deleted: true as const };
    },
  );

  // ── a project's own branding (docs/teams.md, "What a client sees") ──
  const putBody = withExample(PutBrandingBody, {
    name: brandingExample.name,
    prepared_for: 'Example Gardens Ltd',
    logo: brandingExample.logo.data_url,
  });

  app.get(
    '/projects/:project/branding',
    {
      config: { access: 'branding.read' },
      schema: {
        operationId: 'showProjectBranding',
        summary: "Show a project's own PDF branding",
        description:
          "The branding set on this project alone: each field it sets replaces the organisation's (GET /account/branding) on the PDFs of the project's reports; a field left null falls back to the organisation's. Every field is null until set. Another organisation's project, or one the key does not see, is 404.",
        tags: ['projects'],
        security,
        params: ProjectParams,
        response: { 200: BrandingEnvelope, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const branding = await services.branding.getProject(requireAuth(request), request.params.project);
      return { data: presentBranding(branding) };
    },
  );

  app.put(
    '/projects/:project/branding',
    {
      config: { access: 'branding.write' },
      preValidation: (request, _reply, done) => {
        restoreNulls(request.body);
        done();
      },
      schema: {
        operationId: 'updateProjectBranding',
        summary: "Set a project's own PDF branding",
        description:
          "As PUT /account/branding, for one project (an agency's client: their name on \"prepared for\", their logo): fields sent replace the project's stored ones, an empty string or null clears one (the organisation's shows again), fields left out stay. 422 names each invalid field.",
        tags: ['projects'],
        security,
        consumes: BODY_TYPES,
        params: ProjectParams,
        body: putBody,
        response: { 200: BrandingEnvelope, ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const branding = await services.branding.putProject(
        requireAuth(request),
        request.params.project,
        brandingInputOf(request.body),
      );
      return { data: presentBranding(branding) };
    },
  );

  app.delete(
    '/projects/:project/branding',
    {
      config: { access: 'branding.write' },
      schema: {
        operationId: 'deleteProjectBranding',
        summary: "Clear a project's own PDF branding",
        description:
          "Removes the project's own fields and logo: its PDFs show the organisation's branding again.",
        tags: ['projects'],
        security,
        params: ProjectParams,
        response: { 200: BrandingDeleted, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      await services.branding.clearProject(requireAuth(request), request.params.project);
      return { object: 'branding' as const, deleted: true as const };
    },
  );
};
