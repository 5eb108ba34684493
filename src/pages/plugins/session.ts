// Who is signed in: the signed session cookie (src/pages/session.ts) names a user and the key
// the session was opened with; the services decide whether that still holds (the key exists,
// is the user's and is not revoked). Checked once per request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { Services } from '../../services/types.js';
import type { PageContext, SignedIn } from '../context.js';
import type { CookieKit } from '../session.js';
import { pageDenial } from './access.js';

export function createViewers(
  services: Services,
  kit: CookieKit,
): Pick<PageContext, 'viewerOf' | 'viewerFor' | 'requireViewer'> {
  const viewers = new WeakMap<FastifyRequest, Promise<SignedIn | null>>();

  const viewerOf = (request: FastifyRequest): Promise<SignedIn | null> => {
    let p = viewers.get(request);
    if (!p) {
      p = (async () => {
        const s = kit.readSession(request);
        if (!s) return null;
        try {
          return await services.auth.session(s.userId, s.keyId);
        } catch (err) {
          if (err instanceof AppError && err.status === 404) return null;
          throw err;
        }
      })();
      viewers.set(request, p);
    }
    return p;
  };

  return {
    viewerOf,
    async viewerFor(request, reply) {
      const v = await viewerOf(request);
      return v
        ? {
            name: v.name,
            csrf: kit.csrfToken(request, reply, v.memberId),
            // what the views show: only what the access table lets this viewer do
            can: (op) => pageDenial(v, op) === null,
          }
        : { name: null, csrf: null };
    },
    async requireViewer(request: FastifyRequest, reply: FastifyReply) {
      const v = await viewerOf(request);
      if (!v) {
        const next = request.method === 'GET' ? request.url : '/dashboard';
        void reply.redirect(`/login?next=${encodeURIComponent(next)}`, 303);
      }
      return v;
    },
  };
}
