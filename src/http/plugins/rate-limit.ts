// Per-key rate limit (SPEC §7) with @fastify/rate-limit: keyed by the API key's id (so a key's
// budget is the same whatever address it comes from), counted after authentication (the
// preParsing hook, so bad bodies count too), X-RateLimit-Limit / X-RateLimit-Remaining on
// every answer and 429 + Retry-After (seconds) in the API's error shape. The counters live in
// memory, or in Redis when a client is given (shared by every instance).
import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { tooManyRequests } from '../../errors.js';
import { rateLimitRefusals } from '../../metrics.js';

export interface RateLimitOptions {
  /** requests per window per key; 0 = off */
  max: number;
  /** ms, default one minute */
  timeWindow?: number;
  redis?: Redis | null;
}

export async function registerRateLimit(app: FastifyInstance, opts: RateLimitOptions): Promise<void> {
  if (opts.max <= 0) return;
  await app.register(rateLimit, {
    global: true,
    hook: 'preParsing',
    max: opts.max,
    timeWindow: opts.timeWindow ?? 60_000,
    // the client's keyPrefix (PAGEGRADE_REDIS_PREFIX) goes in front of this name space; while
    // Redis is unreachable requests are let through rather than failed
    ...(opts.redis ? { redis: opts.redis, nameSpace: 'ratelimit:', skipOnError: true } : {}),
    keyGenerator: (request) => (request.auth ? `key:${request.auth.keyId}` : `ip:${request.ip}`),
    // x-ratelimit-reset is asked for only to be renamed RateLimit-Reset (below)
    addHeaders: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
      'retry-after': true,
    },
    addHeadersOnExceeding: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
    },
    errorResponseBuilder: (_request, context) => {
      rateLimitRefusals.inc();
      return tooManyRequests(context.ttl / 1000);
    },
  });
  // the standard names (IETF RateLimit header fields) beside X-RateLimit-*: RateLimit-Limit,
  // RateLimit-Remaining, and RateLimit-Reset (seconds until the window resets)
  app.addHook('onSend', (_request, reply, payload, done) => {
    const limit = reply.getHeader('x-ratelimit-limit');
    if (limit !== undefined) {
      reply.header('RateLimit-Limit', limit);
      reply.header('RateLimit-Remaining', reply.getHeader('x-ratelimit-remaining'));
      reply.header('RateLimit-Reset', reply.getHeader('x-ratelimit-reset'));
      reply.removeHeader('x-ratelimit-reset');
    }
    done(null, payload);
  });
}
