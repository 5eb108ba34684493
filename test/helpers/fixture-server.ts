// A real HTTP server on 127.0.0.1 serving fixture responses, for tests and benchmarks that
// fetch pages (never the internet). Routes map a path (with query) to a response or handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';

export interface FixtureResponse {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

export type FixtureRoute =
  FixtureResponse | ((req: IncomingMessage, res: ServerResponse) => void | Promise<void>);

export interface FixtureServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  port: number;
  server: Server;
  /** paths requested so far, in order */
  requests: string[];
  /** adds or replaces a route while the server runs */
  route(path: string, r: FixtureRoute): void;
  close(): Promise<void>;
}

/**
 * Starts a fixture site. Unknown paths answer 404 text/html. `html()` is a helper for the
 * common case of a 200 text/html page.
 */
export async function startFixtureServer(routes: Record<string, FixtureRoute> = {}): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const r = table.get(path) ?? table.get(path.split('?')[0]!);
    if (!r) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    if (typeof r === 'function') {
      Promise.resolve(r(req, res)).catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
      return;
    }
    res.writeHead(r.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...r.headers });
    res.end(r.body ?? '');
  });
  // keep-alive sockets would hold close() open
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    server,
    requests,
    route: (path, r) => void table.set(path, r),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html = (body: string, headers: Record<string, string> = {}, status = 200): FixtureResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body,
});

/** A complete, well-made page that passes most checks; tests vary it. */
export function goodPage(origin: string, extra = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fixture Gardening Guide for Small Balconies</title>
<meta name="description" content="How to grow herbs, tomatoes and flowers on a small balcony: soil, light, watering and the best containers.">
<link rel="canonical" href="${origin}/">
<link rel="icon" href="/favicon.png" type="image/png">
<meta property="og:title" content="Fixture Gardening Guide">
<meta property="og:description" content="Grow herbs and tomatoes on a small balcony.">
<meta property="og:image" content="${origin}/balcony.webp">
<meta property="og:url" content="${origin}/">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Gardening guide"}</script>
<script src="/app.js" defer></script>
</head>
<body>
<h1>Gardening guide for small balconies</h1>
<p>${'Growing herbs and tomatoes on a small balcony is easier than most people think. With good soil, enough light and regular watering, even a narrow balcony can feed a kitchen all summer long. '.repeat(
    20,
  )}</p>
<h2>Containers</h2>
<p>Choose containers with drainage holes; a gardening guide for beginners starts there.</p>
<img src="/balcony.webp" alt="A balcony full of herbs" width="800" height="600">
<p><a href="/soil">Soil for balcony gardening</a> · <a href="https://twitter.com/fixture" rel="noopener" target="_blank">Follow us on Twitter</a></p>
${extra}
</body>
</html>`;
}

/** A port on 127.0.0.1 that nothing listens on (a connection to it is refused). */
export async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
