// Thrown values → the AppError a client sees, for both web layers (the API's JSON errors in
// src/http and the pages' HTML errors in src/pages): handlers and services throw AppError;
// framework errors (body limit, media type, validation) are mapped here.
import type { FastifyError, FastifyRequest } from 'fastify';
import {
  AppError,
  badRequest,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
  validationError,
} from '../errors.js';
import { fieldErrors } from './field-errors.js';

export const isApiPath = (url: string) =>
  url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the 404 message for a path parameter that names nothing (as the service's for a missing one) */
    notFoundMessage?: string;
  }
}
