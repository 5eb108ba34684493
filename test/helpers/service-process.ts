// Real service processes for the process tests (scale-out, schedules, webhooks, resumed
// batches) and the schedules benchmark: free ports, the service started as a child process
// (dist/server.js when current, else src/server.ts through tsx — helpers/cli.ts serverArgs)
// and stopped with SIGTERM, and a JSON API call with a bearer key.
//
// The databases, Redis prefixes and the skip rules those tests need are test/helpers/services.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serverArgs } from './cli.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  port: number;
  origin: string;
  child: ChildProcess;
  /** stdout and stderr so far */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Starts the service (helpers/cli.ts serverArgs) with `env` (on top of a minimal environment: PATH,
 * HOME), on a free port of 127.0.0.1, and waits until GET /healthz answers 200.
 */
export async function startService(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  // the free port may be taken by another process between freePort() and the service's listen
  // (tests run side by side): a start that failed on EADDRINUSE is tried again on another port
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, timeoutMs);
    } catch (err) {
      if (attempt >= 3 || env.PORT !== undefined || !/EADDRINUSE/.test((err as Error).message)) throw err;
    }
  }
}

async function startOnce(env: Record<string, string>, timeoutMs: number): Promise<ServiceProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverArgs(), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PAGEGRADE_PUBLIC_URL: origin,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const proc: ServiceProcess = {
    port,
    origin,
    child,
    output: () => out,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`service exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${out}`);
    }
    try {
      const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return proc;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.stop(1000);
      throw new Error(`service not ready within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A JSON API call with a bearer key (form-encoded bodies, as the spec's clients send). */
export async function api(
  origin: string,
  key: string,
  method: string,
  path: string,
  form?: Record<string, string>,
): Promise<ApiResponse> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}
