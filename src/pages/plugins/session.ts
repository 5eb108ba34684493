// Who is signed in: the signed session cookie (src/pages/session.ts) names a server-side session
// (src/services/signin), which the services resolve at every request: a person's session acts in
// its chosen organisation with that membership's role; a key's session as the key. Ended,
// expired, a person disabled, a membership removed or a key revoked: signed out. Checked once
// per request.
import type { FastifyReply, FastifyRequest } from 'fastify';
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
        const v = await services.signin.resolve(s.token);
        return v && v.memberId === s.userId ? v : null;
      })();
      viewers.set(request, p);
    }
    return p;
  };

  return {
    viewerOf,
    async viewerFor(request, reply) {
      const v = await viewerOf(request);
      if (!v) return { name: null, csrf: null };
      const orgs = v.keyId === null ? await services.signin.organizationsOf(v.memberId) : [];
      return {
        name: v.name,
        csrf: kit.csrfToken(request, reply, v.memberId),
        isAdmin: v.isAdmin,
        org: { id: v.orgId, choices: orgs.length > 1 ? orgs : [] },
        // what the views show: only what the access table lets this viewer do
        can: (op) => pageDenial(v, op) === null,
      };
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
