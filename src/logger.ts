// The logger's options, every process's (the server, the workers): pino JSON lines; pretty only
// when stdout is a terminal and pino-pretty is installed (a dev dependency).
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

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
    // a GitHub or GitLab token, should an object holding one be logged (src/integrations keeps
    // its tokens in a Secret, which prints as [redacted], too)
    redact: ['req.headers.authorization', 'req.headers.cookie', 'token', '*.token', '*.headers.authorization'],
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
