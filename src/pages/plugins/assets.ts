// The stylesheet and script's route: served by the app itself with a content hash in their URLs
// (a year-long immutable cache for the hashed URL, five minutes otherwise); read by
// src/views/asset-files.ts.
import type { FastifyInstance } from 'fastify';
import type { PageContext } from '../context.js';
import type { Assets } from '../../views/asset-files.js';

export function assetRoutes(app: FastifyInstance, ctx: PageContext, assets: Assets): void {
  app.get<{ Params: { name: string }; Querystring: { v?: string } }>(
    '/assets/:name',
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return ctx.notFoundPage(request, reply);
      reply.header(
        'cache-control',
        request.query.v === asset.hash ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
      return reply.type(asset.type).send(asset.body);
    },
  );
}
