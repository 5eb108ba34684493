// The stylesheet and script, served by the app itself with a content hash in their URLs (a
// year-long immutable cache for the hashed URL, five minutes otherwise).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { PageContext } from '../context.js';
import type { AssetUrls } from '../views/layout.js';

interface Asset {
  body: string;
  type: string;
  hash: string;
}

export interface Assets {
  /** the hashed URLs the layout links */
  urls: AssetUrls;
  get(name: string): Asset | undefined;
}

/** src/pages/assets (tsx) or, from dist/pages, the source tree's copy. */
function assetsDir(): URL {
  const here = new URL('../assets/', import.meta.url);
  if (existsSync(new URL('pagegrade.css', here))) return here;
  return new URL('../../../src/pages/assets/', import.meta.url);
}

export function loadAssets(): Assets {
  const dir = assetsDir();
  const files = new Map<string, Asset>();
  for (const [name, type] of [
    ['pagegrade.css', 'text/css; charset=utf-8'],
    ['pagegrade.js', 'text/javascript; charset=utf-8'],
  ] as const) {
    const body = readFileSync(new URL(name, dir), 'utf8');
    files.set(name, { body, type, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) });
  }
  return {
    urls: {
      css: `/assets/pagegrade.css?v=${files.get('pagegrade.css')!.hash}`,
      js: `/assets/pagegrade.js?v=${files.get('pagegrade.js')!.hash}`,
    },
    get: (name) => files.get(name),
  };
}

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
