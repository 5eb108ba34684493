// Logging: pino JSON lines with a request id (X-Request-Id when the client sends a sane one,
// else a random UUID; echoed in the response). Pretty only when stdout is a terminal and
// pino-pretty is installed (a dev dependency).
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function genReqId(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  const id = Array.isArray(header) ? header[0] : header;
  return id && SANE_ID.test(id) ? id : randomUUID();
}

function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

export function loggerOptions(level: string): NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> {
  const pretty = process.stdout.isTTY && prettyAvailable();
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}
