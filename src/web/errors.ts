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

/** Socket errors of a connection to PostgreSQL or Redis that is refused, reset or lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** pg's own messages when its connection ends or cannot be made (they carry no code). */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Connection is closed)/;

/**
 * Whether `err` means the database (or Redis) cannot be reached right now — restarting, shutting
 * down, out of connections, the connection lost — rather than a fault of the request or the code:
 * PostgreSQL's SQLSTATE classes 08 (connection) and 57 (operator intervention: admin shutdown,
 * starting up), 53300 (too many connections), 25P03 (the session ended idle in its transaction),
 * the socket's errors, and pg's and ioredis's messages for a lost connection.
 */
export function isStoreUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; name?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (CONNECTION_CODES.has(code)) return true;
  if (/^(08|57)[0-9A-Z]{3}$/.test(code) || code === '53300' || code === '25P03') return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  return typeof e.message === 'string' && PG_CONNECTION_MESSAGES.test(e.message);
}

/** 503 with Retry-After: the store is away for a moment (a restart); the client tries again. */
export const storeUnavailable = () =>
  new AppError(
    503,
    'unavailable',
    'The service cannot reach its database right now; try again in a few seconds.',
    undefined,
    {
      'Retry-After': '5',
    },
  );

/** Any thrown value → the AppError the client sees (null: an unexpected fault, a 500). */
export function toAppError(err: unknown, request?: FastifyRequest): AppError | null {
  if (err instanceof AppError) return err;
  if (isStoreUnavailable(err)) return storeUnavailable();
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
