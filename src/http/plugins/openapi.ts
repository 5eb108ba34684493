// The OpenAPI 3.1 document, generated from the route schemas, at GET /api/v1/openapi.json, and
// the interactive reference at /docs (swagger-ui's own bundled assets, no CDN).
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { openApiWebhooks } from '../../contract/webhooks/schemas.js';

export const OPENAPI_PATH = '/api/v1/openapi.json';

/** Call before the routes are registered (the document collects them as they are). */
export async function registerOpenApi(
  app: FastifyInstance,
  opts: { publicUrl: string; version: string },
): Promise<void> {
  await app.register(swagger, {
    // the document is the JSON API's (and the health check's): the HTML pages are not in it
    transform: ({ schema, url }) => ({
      schema: url.startsWith('/api/') || url === '/healthz' ? schema : { ...schema, hide: true },
      url,
    }),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pagegrade API',
        version: opts.version,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Audit web pages and keep the reports. Every /api/v1 request carries `Authorization: Bearer <API key>`. ' +
          'Bodies may be application/x-www-form-urlencoded or application/json. Errors are `{message, errors?}`.',
      },
      servers: [{ url: opts.publicUrl }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key.' } },
      },
      tags: [
        { name: 'reports', description: 'Audit reports' },
        { name: 'projects', description: 'Reports grouped by site' },
        { name: 'account', description: 'The API key and its user' },
        { name: 'organization', description: 'The organisation, its members and their roles' },
        { name: 'shares', description: 'Read-only links to a report or a project’s latest crawl, expiring and revocable' },
        { name: 'builds', description: 'CI builds (`pagegrade ci --upload`) compared with their base build' },
        { name: 'operations', description: 'Health' },
        { name: 'webhooks', description: 'Signed event deliveries (Standard Webhooks)' },
        { name: 'schedules', description: 'Scheduled re-audits of reports' },
      ],
      // the payloads Pagegrade POSTs to webhooks, one per event (OpenAPI 3.1 `webhooks`)
      webhooks: openApiWebhooks(),
    },
  });
}

const PAGEGRADE_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 40" width="240" height="40"><rect width="40" height="40" rx="9" fill="#1d4ed8"/><path d="M11 21l6 6 12-14" stroke="#fff" stroke-width="5" fill="none" stroke-linecap="round" stroke-linejoin="round"/><text x="52" y="28" font-family="system-ui, sans-serif" font-size="22" font-weight="700" fill="#fff">Pagegrade API</text></svg>`;

/** Call after the routes: serves the document and the UI. */
export async function registerOpenApiRoutes(app: FastifyInstance): Promise<void> {
  app.get(OPENAPI_PATH, { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
  // Pagegrade's name on the page (its <title> and the top bar), not the framework's
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true },
    theme: { title: 'Pagegrade API reference' },
    logo: {
      type: 'image/svg+xml',
      content: Buffer.from(PAGEGRADE_LOGO),
      href: '/dashboard',
      target: '_self',
    },
  });
}
