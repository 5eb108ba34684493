// GET /metrics (Prometheus text format) when PAGEGRADE_METRICS=1, Bearer-protected when
// PAGEGRADE_METRICS_TOKEN is set; off, the path is a 404 like any other. Counts every request
// by route pattern and status (one onResponse hook, only when on).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../../errors.js';
import { httpDuration, httpRequests, registry } from '../../metrics.js';
import { bearerToken } from './auth.js';

export interface MetricsOptions {
  enabled: boolean;
  /** null: no token needed */
  token: string | null;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function registerMetrics(app: FastifyInstance, opts: MetricsOptions): void {
  if (!opts.enabled) return;
  app.addHook('onResponse', (request, reply, done) => {
    // the route's pattern (bounded label values); requests that matched no route are one label
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    if (opts.token !== null) {
      const token = bearerToken(request.headers.authorization);
      if (!token || !same(token, opts.token))
        throw unauthorized('Unauthenticated: send Authorization: Bearer <PAGEGRADE_METRICS_TOKEN>.');
    }
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}
