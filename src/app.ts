// buildApp(config, deps): the Fastify application — plugins, routes, pages. It never listens:
// src/server.ts does, and the tests inject requests into it (or listen on port 0).
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Services } from './services/types.js';
import { RequestLog, genReqId } from './http/logger.js';
import { loggerOptions } from './logger.js';
import { BODY_LIMIT, registerBodyParsers } from './http/plugins/body.js';
import { registerErrorHandlers, sendError } from './http/plugins/errors.js';
import { badRequest, notFound } from './errors.js';
import { registerAuth, registerKeyBackstop, type AccessRoute } from './http/plugins/auth.js';
import { registerRateLimit } from './http/plugins/rate-limit.js';
import { addMethodNotAllowedRoutes, collectRoutes } from './http/plugins/method-not-allowed.js';
import { registerOpenApi, registerOpenApiRoutes } from './http/plugins/openapi.js';
import { registerHealth } from './http/routes/health/index.js';
import { reportRoutes } from './http/routes/reports/index.js';
import { projectRoutes } from './http/routes/projects/index.js';
import { runRoutes } from './http/routes/history/index.js';
import { webhookRoutes } from './http/routes/webhooks/index.js';
import { accountRoutes } from './http/routes/account/index.js';
import { organizationRoutes } from './http/routes/organization/index.js';
import { auditLogRoutes } from './http/routes/audit-log/index.js';
import { shareRoutes } from './http/routes/shares/index.js';
import { buildRoutes } from './http/routes/builds/index.js';
import { invitationRoutes } from './http/routes/invitations/index.js';
import { scheduleRoutes } from './http/routes/schedules/index.js';
import { batchRoutes } from './http/routes/batches/index.js';
import { brandingRoutes } from './http/routes/branding/index.js';
import { pagesPlugin } from './pages/plugin.js';
import { mcpRoutes } from './mcp/http.js';
import { registerMetrics } from './http/plugins/metrics.js';
import { registerEtags } from './http/plugins/etag.js';
import { registerFiniteNumbers } from './http/plugins/finite.js';
import { sources, type PoolStats } from './metrics.js';
import type { Queue } from './contract/jobs.js';

export const API_PREFIX = '/api/v1';
export const VERSION = '0.1.0';

export interface AppDeps {
  services: Services;
  /** GET /healthz runs this (a trivial database query); it throws when not ready */
  healthCheck: () => Promise<void>;
  /** a pino logger to use (tests capture logs with one); default: JSON at config.logLevel */
  logger?: FastifyBaseLogger;
  /** shared rate-limit counters when config.redisUrl is set; default: in memory */
  redis?: Redis | null;
  /** rate-limit window in ms (default one minute; tests shorten it) */
  rateLimitWindowMs?: number;
  /** what GET /metrics reads when scraped: the database pool, the job queue */
  metricsSources?: { dbPool?: (() => PoolStats) | undefined; queue?: Queue | undefined };
}

export type App = FastifyInstance;

const DIGITS = /^[0-9]+$/;

export async function buildApp(
  config: Pick<Config, 'publicUrl' | 'rateLimit' | 'logLevel'> &
    Partial<Pick<Config, 'trustProxy' | 'metrics' | 'metricsToken'>>,
  deps: AppDeps,
): Promise<App> {
  const app = Fastify({
    // behind a load balancer: the client address from X-Forwarded-For (PAGEGRADE_TRUST_PROXY)
    trustProxy: config.trustProxy ?? false,
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config.logLevel) }),
    genReqId,
    // one log line per request (when answered), not Fastify's incoming/completed pair
    logController: new RequestLog(),
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    return503OnClosing: true,
    // a URL that cannot be decoded (bad percent-encoding) names nothing: 404, JSON under /api
    frameworkErrors: (error, request, reply) => {
      if (error.code === 'FST_ERR_BAD_URL') return sendError(request, reply, notFound());
      return sendError(request, reply, badRequest(error.message));
    },
    ajv: {
      // every invalid field is reported (422 errors: {field: [...]}); verbose gives each error
      // its field's schema, from which the message names the allowed values
      customOptions: {
        allErrors: true,
        verbose: true,
        coerceTypes: 'array',
        useDefaults: false,
        removeAdditional: false,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Responses are plain JSON.stringify: the response schemas document them (OpenAPI) and the
  // tests check the real output against them, rather than a serializer reshaping it silently.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // Hooks that run on every request are callback-style (no promise per hook and request).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    done();
  });

  // Graceful close: requests in flight finish, and their connections close after the answer
  // (keep-alive would otherwise hold app.close() open for the keep-alive timeout).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    app.server.closeIdleConnections?.();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });

  registerErrorHandlers(app);
  if (config.metrics) {
    sources.dbPool = deps.metricsSources?.dbPool ?? null;
    sources.queue = deps.metricsSources?.queue ?? null;
  }
  registerMetrics(app, { enabled: config.metrics ?? false, token: config.metricsToken ?? null });
  // An id in a path is decimal digits: the validator would otherwise coerce `0x1`, `1e0`, `+1`,
  // ` 1` or `1.0` to report 1. Anything else names nothing (404: JSON under /api, HTML elsewhere).
  app.addHook('preValidation', (request, _reply, done) => {
    const id = (request.params as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' && !DIGITS.test(id)) {
      return done(notFound(request.routeOptions.config.notFoundMessage));
    }
    done();
  });
  await registerBodyParsers(app);
  await registerOpenApi(app, { publicUrl: config.publicUrl, version: VERSION });

  registerHealth(app, deps.healthCheck);
  // every route's operation of the access table, as registered (API routes and dashboard pages)
  app.decorate('accessRoutes', [] as AccessRoute[]);

  // The JSON API: Bearer keys, a per-key rate limit, 405 for known paths with other methods.
  await app.register(
    async (api) => {
      const seen = collectRoutes(api);
      registerFiniteNumbers(api);
      registerAuth(api, deps.services);
      await registerRateLimit(api, {
        max: config.rateLimit,
        ...(deps.rateLimitWindowMs ? { timeWindow: deps.rateLimitWindowMs } : {}),
        redis: deps.redis ?? null,
      });
      registerKeyBackstop(api, app.accessRoutes);
      registerEtags(api);
      const routeDeps = { services: deps.services, config };
      // routes whose services apply a project-limited key's projects (src/services/access/rules.ts);
      // a route registered outside this scope refuses such keys (403) until its services do
      await api.register(async (scoped) => {
        scoped.addHook('onRoute', (route) => {
          route.config = { ...route.config, projectScoped: true };
        });
        await scoped.register(reportRoutes, routeDeps);
        await scoped.register(projectRoutes, routeDeps);
        await scoped.register(runRoutes, routeDeps);
        await scoped.register(webhookRoutes, routeDeps);
        await scoped.register(accountRoutes, routeDeps);
      });
      // schedules and batches: their services take a user id (a project-limited key gets 403 here)
      await api.register(scheduleRoutes, routeDeps);
      await api.register(batchRoutes, routeDeps);
      // branding belongs to the whole account (a project-limited key gets 403)
      await api.register(brandingRoutes, routeDeps);
      // the organisation and its members (a project-limited key gets 403)
      await api.register(organizationRoutes, routeDeps);
      await api.register(auditLogRoutes, routeDeps);
      await api.register(shareRoutes, routeDeps);
      await api.register(buildRoutes, routeDeps);
      await api.register(invitationRoutes, routeDeps);
      addMethodNotAllowedRoutes(api, seen, API_PREFIX);
    },
    { prefix: API_PREFIX },
  );

  // MCP over streamable HTTP (docs/mcp.md): the API's Bearer keys and per-key rate limit in
  // front; each tool call is checked against the access table by the MCP server itself
  await app.register(async (mcp) => {
    registerAuth(mcp, deps.services);
    await registerRateLimit(mcp, {
      max: config.rateLimit,
      ...(deps.rateLimitWindowMs ? { timeWindow: deps.rateLimitWindowMs } : {}),
      redis: deps.redis ?? null,
    });
    await mcp.register(mcpRoutes, { services: deps.services, publicUrl: config.publicUrl });
  });

  await registerOpenApiRoutes(app);

  // ── Report pages (GET /reports/:id, /login, /logout, /dashboard) ──────────────────────
  // Register the pages plugin here, e.g. `await app.register(pagesPlugin, { services, config })`.
  // The root not-found and error handlers answer JSON under /api and a minimal HTML page
  // elsewhere (src/http/html-error.ts); the pages plugin may set its own error handler in its
  // scope for richer HTML pages.
  await app.register(pagesPlugin, { services: deps.services, config, redis: deps.redis ?? null });

  return app;
}
