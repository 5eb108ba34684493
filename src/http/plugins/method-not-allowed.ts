// 405 with `Allow` for a known path with a method it does not take (SPEC §4). The routes of a
// scope are collected as they are registered; `addMethodNotAllowedRoutes` then answers every
// other method on those paths (hidden from the OpenAPI document, no key needed, not rate limited).
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { methodNotAllowed } from '../../errors.js';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function collectRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.config?.methodNotAllowed) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = seen.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m.toUpperCase());
    seen.set(route.url, set);
  });
  return seen;
}

/** `prefix` is the scope's prefix, stripped from the collected (full) URLs. */
export function addMethodNotAllowedRoutes(
  app: FastifyInstance,
  seen: Map<string, Set<string>>,
  prefix: string,
): void {
  for (const [url, methods] of [...seen]) {
    const allow = METHODS.filter((m) => methods.has(m));
    const missing = METHODS.filter((m) => !methods.has(m));
    if (missing.length === 0) continue;
    app.route({
      method: missing,
      url: url.slice(prefix.length),
      exposeHeadRoute: false,
      schema: { hide: true },
      config: { public: true, methodNotAllowed: true, rateLimit: false },
      handler: async () => {
        throw methodNotAllowed(allow);
      },
    });
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    methodNotAllowed?: boolean;
  }
}
