// GET /healthz: 200 once the service is ready — the database answers a trivial query.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { Health, errorResponses } from '../schemas.js';

export function registerHealth(app: FastifyInstance, check: () => Promise<void>): void {
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Readiness',
        tags: ['operations'],
        response: { 200: Health, ...errorResponses(503) },
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
