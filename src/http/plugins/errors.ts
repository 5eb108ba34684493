// One error handler and one not-found handler for the whole service. Under /api: JSON
// `{message, errors?}` (SPEC §4); elsewhere: a minimal HTML page. Thrown values are mapped to
// AppError by src/web/errors.ts (shared with the pages); anything else is a 500 whose details
// go only to the log.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import { isApiPath, toAppError } from '../../web/errors.js';
import { htmlErrorPage } from '../html-error.js';

/** The API, MCP and the health check answer errors as JSON; every other path as an HTML page. */
const wantsJson = (url: string) =>
  isApiPath(url) ||
  url === '/healthz' ||
  url.startsWith('/healthz?') ||
  url === '/metrics' ||
  url === '/mcp' ||
  url.startsWith('/mcp?');

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  reply.code(error.status);
  if (wantsJson(request.url)) {
    return reply.send(
      error.fields ? { message: error.message, errors: error.fields } : { message: error.message },
    );
  }
  return reply.type('text/html; charset=utf-8').send(htmlErrorPage(error.status, error.message));
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const appError = toAppError(err, request);
    if (appError) {
      if (appError.status >= 500) request.log.error({ err }, 'request failed');
      return sendError(request, reply, appError);
    }
    request.log.error({ err }, 'unexpected error');
    return sendError(request, reply, new AppError(500, 'internal', 'Internal server error.'));
  });

  app.setNotFoundHandler((request, reply) => {
    const message = isApiPath(request.url) ? 'Not found.' : 'There is no page at this address.';
    return sendError(request, reply, notFound(message));
  });
}
