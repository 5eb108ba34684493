// One error type for the whole service. Handlers and services throw AppErrors; a single
// error handler turns them into `{message, errors?}` (API) or an HTML page (report pages).

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, 'bad_request', message);

export const unauthorized = (message = 'Unauthenticated.') =>
  new AppError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' });

/** 403: the API key lacks what the operation needs (a scope, or access to every project). */
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);

export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);

export const methodNotAllowed = (allow: string[]) =>
  new AppError(405, 'method_not_allowed', 'Method not allowed.', undefined, { Allow: allow.join(', ') });

export const payloadTooLarge = (message = 'The request body is larger than 1 MB.') =>
  new AppError(413, 'payload_too_large', message);

export const unsupportedMediaType = (
  message = 'Send the body as application/x-www-form-urlencoded or application/json.',
) => new AppError(415, 'unsupported_media_type', message);

/** 422 with per-field messages; the top-level message is the first field message, as clients expect. */
export function validationError(fields: FieldErrors): AppError {
  const first = Object.values(fields).flat()[0] ?? 'The given data was invalid.';
  return new AppError(422, 'validation_failed', first, fields);
}

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'too_many_requests', 'Too many requests.', undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
