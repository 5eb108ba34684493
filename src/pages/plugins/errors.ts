// HTML error pages for the pages' scope, and the headers every page response carries
// (security headers; not cached unless a route says otherwise; Vary: Cookie for HTML).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toAppError } from '../../web/errors.js';
import type { PageContext } from '../context.js';
import { PAGE_SECURITY_HEADERS } from '../security.js';
import { errorPage, errorView } from '../../views/forms.js';
import type { Viewer } from '../../views/layout.js';

/** The error page sender, given how to send a page and who is looking. */
export function createErrorPages(
  ctx: Pick<PageContext, 'send' | 'viewerFor'>,
): Pick<PageContext, 'sendError' | 'notFoundPage'> {
  const sendError = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    retryAfter?: number | null,
    reason?: string,
  ) => {
    const page = errorPage(status, reason);
    if (retryAfter) reply.header('retry-after', String(retryAfter));
    reply.header('cache-control', 'no-store');
    const viewer = await ctx.viewerFor(request, reply).catch(() => ({ name: null, csrf: null }) as Viewer);
    return ctx.send(reply, status, page.title, viewer, errorView(page, retryAfter), {
      mainClass: 'narrow',
      loginNext: request.method === 'GET' ? request.url : '/dashboard',
    });
  };
  return { sendError, notFoundPage: (request, reply) => sendError(request, reply, 404) };
}

export function registerErrorPages(app: FastifyInstance, ctx: PageContext): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(PAGE_SECURITY_HEADERS);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (reply.getHeader('content-type')?.toString().startsWith('text/html')) reply.header('vary', 'Cookie');
    return payload;
  });

  app.setErrorHandler(async (err, request, reply) => {
    const appError = toAppError(err);
    if (!appError || appError.status >= 500) request.log.error({ err }, 'page request failed');
    const status = appError?.status ?? 500;
    const retry = appError?.headers?.['Retry-After'];
    // a permission rule's 403 says which role or scope it needs; a CSRF refusal is "Form expired"
    const reason = status === 403 && appError && appError.code !== 'csrf' ? appError.message : undefined;
    return ctx.sendError(request, reply, status, retry ? Number(retry) : null, reason);
  });
}
