// Bearer API keys (SPEC §1): a missing, malformed, unknown, revoked or expired key answers 401
// with `WWW-Authenticate: Bearer`. The key's Actor {userId, keyId, scopes, projects} goes on
// request.auth; handlers pass it to the services, which apply its scopes and projects
// (src/services/access/rules.ts). Two backstops here for routes whose services do not know of keys:
// a read-only key gets 403 on any method but GET/HEAD, and a project-limited key gets 403 on a
// route not marked `projectScoped` (routes whose services apply the key's projects).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../errors.js';
import { denial, operationOf, type Operation } from '../../services/access/table.js';
import { actingAs } from '../../services/shared/audit-log.js';
import type { AuthContext } from '../../services/accounts/types.js';
import type { Services } from '../../services/types.js';

/** A route and the operation of the access table it is checked against (null: refused). */
export interface AccessRoute {
  method: string;
  url: string;
  operation: Operation | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** every API route and dashboard page with its operation (src/app.ts; the role matrix test reads it) */
    accessRoutes: AccessRoute[];
  }
  interface FastifyContextConfig {
    /** true: the route needs no API key */
    public?: boolean;
    /** true: the route's services apply a project-limited key's projects (else such keys get 403) */
    projectScoped?: boolean;
    /** the access table's operation, when not its tag's read/write (src/services/access/table.ts) */
    access?: Operation;
    /** set when the route is registered: the operation the access table checks (null: refused) */
    operation?: Operation | null;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]{1,512}=*) *$/i;

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/** The user of the request's key; throws 401 without a valid one. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

export function registerAuth(app: FastifyInstance, services: Services): void {
  if (!app.hasRequestDecorator('auth')) app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public) return;
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Unauthenticated: send Authorization: Bearer <API key>.');
    const token = bearerToken(header);
    if (!token) throw unauthorized('Unauthenticated: the Authorization header must be Bearer <API key>.');
    const auth = await services.auth.authenticate(token);
    if (!auth) throw unauthorized('Unauthenticated: the API key is unknown or revoked.');
    request.auth = auth;
  });
}

/**
 * The backstops (403), after the rate limit and the body (preValidation: the request counts),
 * before the parameters are checked.
 */
export function registerKeyBackstop(app: FastifyInstance, recorded: AccessRoute[] = []): void {
  // every route's operation, from its OpenAPI tag and method or the one it names
  app.addHook('onRoute', (route) => {
    const method = (Array.isArray(route.method) ? route.method[0] : route.method) ?? 'GET';
    const tags = (route.schema as { tags?: string[] } | undefined)?.tags;
    const operation = operationOf(method, tags?.[0], route.config?.access);
    route.config = { ...route.config, operation };
    if (!route.config.public) recorded.push({ method, url: route.url, operation });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const auth = request.auth;
    if (!auth) return done();
    // the access table: the member's role and the key's scope (an operation it lacks: refused)
    const refused = denial(auth, request.routeOptions.config.operation ?? null);
    if (refused !== null) return done(forbidden(refused));
    if (request.method !== 'GET' && request.method !== 'HEAD' && !auth.scopes.includes('write'))
      return done(
        forbidden(`Forbidden: this API key lacks the write scope (it has: ${auth.scopes.join(', ')}).`),
      );
    if (auth.projects !== null && !request.routeOptions.config.projectScoped)
      return done(
        forbidden(
          `Forbidden: this API key is limited to projects (${auth.projects.join(', ')}); this operation needs a key for every project.`,
        ),
      );
    // the audit log's requester for what this request changes: the key, its member, the address
    actingAs({ actor: 'key', userId: auth.memberId, keyId: auth.keyId, ip: request.ip }, done);
  });
}
