// Bearer API keys (SPEC §1): a missing, malformed, unknown or revoked key answers 401 with
// `WWW-Authenticate: Bearer`. The owner goes on request.auth; handlers pass its userId on.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.js';
import type { AuthContext, Services } from '../../services/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** true: the route needs no API key */
    public?: boolean;
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
