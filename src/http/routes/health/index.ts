// GET /healthz: 200 once the service is ready — the database answers a trivial query.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../errors.js';
import { Health, errorResponses } from '../../../contract/common.js';

export function registerHealth(app: FastifyInstance, check: () => Promise<void>): void {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Readiness',
        description: 'No API key, not rate limited: 200 once the database answers a trivial query.',
        security: [],
        tags: ['operations'],
        response: {
          200: Health,
          // Node's HTTP server itself answers a malformed request 400 and headers over 16 KB 431
          // (no body) before the route runs: true of every path, documented here where it is
          // the only 4xx there is (no key, no parameters, not rate limited)
          '4XX': {
            type: 'null',
            description:
              'A malformed HTTP request (400) or headers over 16 KB (431), answered by the server itself without a body.',
          },
          ...errorResponses(503),
        },
      },
      config: { public: true },
    },
    async (request) => {
      try {
        await check();
      } catch (err) {
        request.log.error({ err }, 'health check failed');
        throw new AppError(503, 'unavailable', 'The database is not reachable.');
      }
      return { status: 'ok' as const };
    },
  );
}
