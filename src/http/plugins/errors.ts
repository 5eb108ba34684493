// One error handler and one not-found handler for the whole service. Under /api: JSON
// `{message, errors?}` (SPEC §4); elsewhere: a minimal HTML page. Handlers and services throw
// AppError; framework errors (body limit, media type, validation) are mapped here; anything
// else is a 500 whose details go only to the log.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  badRequest,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
  validationError,
} from '../../errors.js';
import { fieldErrors } from '../validation.js';
import { htmlErrorPage } from '../html-error.js';

export const isApiPath = (url: string) =>
  url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
/** The API and the health check answer errors as JSON; every other path as an HTML page. */
const wantsJson = (url: string) => isApiPath(url) || url === '/healthz' || url.startsWith('/healthz?');

/** Any thrown value → the AppError the client sees (null: an unexpected fault, a 500). */
export function toAppError(err: unknown, request?: FastifyRequest): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as Partial<FastifyError> & { validation?: unknown; validationContext?: string };
  if (e && Array.isArray(e.validation)) {
    // a path parameter that is not a valid id names no resource: 404, as SPEC §4 asks
    if (e.validationContext === 'params') return notFound(request?.routeOptions.config.notFoundMessage);
    return validationError(fieldErrors(e.validation));
  }
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('The JSON body is empty.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('The Content-Length does not match the body.');
  }
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500)
    return new AppError(status, String(e.code ?? 'client_error'), e.message ?? 'Bad request.');
  return null;
}

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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the 404 message for a path parameter that names nothing (as the service's for a missing one) */
    notFoundMessage?: string;
  }
}
