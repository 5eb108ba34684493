// A webhook receiver on 127.0.0.1 for tests and benchmarks: records every request (headers and
// raw body), counts TCP connections (a refused address must make none), verifies each request
// with the standardwebhooks verifier once it knows the secret, and answers as told (200 by
// default; `respond` may return another status or hold the answer).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** null before a secret is set; otherwise whether the standardwebhooks verifier accepted it */
  verified: boolean | null;
  /** the verifier's error message when it refused */
  verifyError?: string;
}

export type Responder = (
  req: ReceivedRequest,
  n: number,
) =>
  { status: number; body?: string; headers?: Record<string, string> } | 'hang' | Promise<{ status: number }>;

export interface WebhookReceiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  server: Server;
  received: ReceivedRequest[];
  /** TCP connections accepted so far */
  connections: number;
  /** the secret to verify with (`whsec_…`) */
  secret: string | null;
  respond: Responder;
  /** resolves when `n` requests have been received */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(respond?: Responder): Promise<WebhookReceiver> {
  const held: ServerResponse[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const r: WebhookReceiver = {
    origin: '',
    port: 0,
    server: null as unknown as Server,
    received: [],
    connections: 0,
    secret: null,
    respond: respond ?? (() => ({ status: 200 })),
    waitFor(n, timeoutMs = 20_000) {
      if (r.received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`the receiver got ${r.received.length} of ${n} requests in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        r.server.closeAllConnections();
        r.server.close(() => resolve());
      }),
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const rec: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '/',
      headers,
      body,
      verified: null,
    };
    if (r.secret) {
      try {
        new Webhook(r.secret).verify(body, headers);
        rec.verified = true;
      } catch (err) {
        rec.verified = false;
        rec.verifyError = (err as Error).message;
      }
    }
    r.received.push(rec);
    for (const w of waiters.filter((w) => r.received.length >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    const answer = await r.respond(rec, r.received.length);
    if (answer === 'hang') {
      held.push(res);
      return;
    }
    const a = answer as { status: number; body?: string; headers?: Record<string, string> };
    res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
    res.end(a.body ?? '');
  };
  r.server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => res.destroy(err as Error));
  });
  r.server.on('connection', () => {
    r.connections++;
  });
  r.server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.port = (r.server.address() as AddressInfo).port;
  r.origin = `http://127.0.0.1:${r.port}`;
  return r;
}
