// What `pagegrade ci` audits, made ready: a static folder served on 127.0.0.1 (`serve`), a
// site started by a command and waited for (`start`, stopped with its process group at the
// end), and a crawl's pages and site findings (`crawl`, the batch `pagegrade crawl` runs:
// the same services on the embedded job engine, over a database in memory).
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { Priority } from '../../analyzer/types.js';
import type { Config } from '../../config.js';
import { CliError } from '../exit-codes.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

export interface Served {
  origin: string;
  close(): Promise<void>;
}

/** The file a request path names inside `root` (index.html for a folder), or null. */
function fileFor(root: string, urlPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split('?')[0]!);
  } catch {
    return null;
  }
  const full = normalize(join(root, path));
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  for (const candidate of [full, join(full, 'index.html'), `${full}.html`]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // next candidate
    }
  }
  return null;
}

/** Serves the folder on 127.0.0.1, on a free port: files as they are, a folder's index.html, 404 otherwise. */
export async function serveFolder(root: string): Promise<Served> {
  const server: Server = createServer((req, res) => {
    const file = req.method === 'GET' || req.method === 'HEAD' ? fileFor(root, req.url ?? '/') : null;
    if (file === null) {
      const notFound = fileFor(root, '/404.html');
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      if (notFound === null || req.method === 'HEAD')
        res.end(
          req.method === 'HEAD' ? undefined : '<!doctype html><title>Not found</title><h1>Not found</h1>',
        );
      else createReadStream(notFound).pipe(res);
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': statSync(file).size,
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export interface Started {
  origin: string;
  stop(): Promise<void>;
}

/** One request to the URL: does anything answer (any HTTP status)? */
function answers(url: string): Promise<boolean> {
  return new Promise((ok) => {
    const req = (url.startsWith('https:') ? httpsRequest : request)(
      url,
      { method: 'GET', timeout: 2000 },
      (res) => {
        res.resume();
        ok(true);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => ok(false));
    req.end();
  });
}

/** Signals the whole process group of the command (the shell and what it started). */
function signalGroup(child: ChildProcess, s: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, s);
  } catch {
    // the group is gone
  }
}

/** Stops the command and everything it started: its process group, SIGTERM, then SIGKILL after 5 s. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  // what the shell started in the background is in the same group, and may outlive it
  signalGroup(child, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 100));
  signalGroup(child, 'SIGKILL');
}

/**
 * Runs the command in a shell, in a process group of its own (its output goes to stderr), and
 * waits until `url` answers; exit 2 if the command fails first or the wait times out. A shell
 * that ends with exit code 0 (a server started in the background) is waited for until the time
 * is up. When this process ends in any way (an error, Ctrl-C, SIGTERM from the CI), the group
 * is killed.
 */
export async function startCommand(command: string, url: string, timeoutMs: number): Promise<Started> {
  const child = spawn(command, { shell: true, detached: true, stdio: ['ignore', 2, 2] });
  const onExit = () => signalGroup(child, 'SIGKILL');
  process.on('exit', onExit);
  const stop = async () => {
    await stopGroup(child);
    process.off('exit', onExit);
  };
  let failed: string | null = null;
  child.on('exit', (code, signal) => {
    if (code !== 0) failed = signal ?? `exit code ${code}`;
  });
  child.on('error', (err) => (failed = err.message));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (failed !== null) {
      await stop();
      throw new CliError(`start.command "${command}" ended (${failed}) before ${url} answered.`);
    }
    if (await answers(url)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new CliError(`start.url ${url} did not answer within ${timeoutMs} ms of starting "${command}".`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { origin: new URL(url).origin, stop };
}

export interface CrawlResult {
  /** the pages audited (state done), in the order found */
  pages: string[];
  findings: { id: string; title: string; priority: Priority; count: number }[];
  /** why the crawl failed, or null */
  failure: string | null;
}

/** A crawl as `pagegrade crawl` runs it (services.batches on the embedded job engine, a database in memory). */
export async function crawlSite(
  config: Config,
  url: string,
  o: { maxPages?: number; maxDepth?: number; render: boolean },
): Promise<CrawlResult> {
  const { openLocalCrawl, crawlFailure } = await import('../local-crawl.js');
  const renderer = o.render ? (await import('../../render/index.js')).rendererFromConfig(config) : null;
  let local: Awaited<ReturnType<typeof openLocalCrawl>> | null = null;
  try {
    local = await openLocalCrawl(config, renderer, 'pagegrade-ci');
    const { services, userId } = local;
    let batch = await services.batches.create(userId, {
      url,
      mode: 'crawl',
      ...(o.maxPages !== undefined ? { maxPages: o.maxPages } : {}),
      ...(o.maxDepth !== undefined ? { maxDepth: o.maxDepth } : {}),
      render: o.render,
    });
    const workers = local.startWorkers();
    while (!['done', 'cancelled', 'failed'].includes(batch.status)) {
      await new Promise((r) => setTimeout(r, 150));
      batch = await services.batches.get(userId, batch.id);
    }
    await workers.stop();
    const { pages, findings } = await services.batches.results(userId, batch.id);
    return {
      pages: pages.filter((p) => p.state === 'done').map((p) => p.url),
      findings: findings.map((f) => ({ id: f.id, title: f.title, priority: f.priority, count: f.count })),
      failure: crawlFailure(batch, pages, true),
    };
  } finally {
    await local?.close();
    await renderer?.close().catch(() => {});
  }
}
