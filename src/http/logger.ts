// Request logging: a request id (X-Request-Id when the client sends a sane one, else a random
// UUID; echoed in the response) and one line per answered request. The logger's options are
// every process's (src/logger.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function genReqId(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  const id = Array.isArray(header) ? header[0] : header;
  return id && SANE_ID.test(id) ? id : randomUUID();
}

/**
 * One `info` line per request, written when it has been answered: `request completed` with
 * method, url, statusCode, responseTime (ms) and remoteAddress (and `reqId`, as on every line
 * of a request). Fastify's `incoming request` line is not written: it doubled the logging
 * cost of a request and said nothing the completed line does not.
 */
/**
 * A URL as logged: a reset link's and an invitation's tokens are secrets, never written
 * (docs/teams.md), nor a single sign-on callback's query (its authorization code and state).
 */
export const loggedUrl = (url: string): string =>
  url
    .replace(/(\/|%2F)(reset-password|invite)(\/|%2F)[^/?#&%]+/gi, '$1$2$3[redacted]')
    .replace(/^(\/login\/sso\/callback)\?.*/, '$1?[redacted]');

export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const fields = {
      method: request.method,
      url: loggedUrl(request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 1000) / 1000,
      remoteAddress: request.ip,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}
