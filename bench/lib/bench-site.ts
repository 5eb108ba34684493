// A site on 127.0.0.1 for the benchmarks that audit pages (audit-loopback, sites, render): its
// pages, and the site files an audit asks for — /robots.txt naming the sitemap, /sitemap.xml
// listing the pages, /favicon.ico — with a 404 page for anything else; each answer after an
// optional fixed delay (a nearby server instead of raw loopback).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BenchSiteOptions {
  /** the HTML of the page at a path, or null (a 404) */
  page(path: string): string | Buffer | null;
  /** the paths /sitemap.xml lists (asked for once, at the first request for it) */
  sitemapPaths(): string[];
  /** the rules of /robots.txt before its Sitemap line (default: allow all) */
  robotsRules?: string;
  /** headers of a page besides its content type */
  pageHeaders?: Record<string, string>;
  /** every answer waits this long first (default 0) */
  latencyMs?: number;
}

export interface BenchSite {
  /** http://127.0.0.1:PORT */
  origin: string;
  server: Server;
  close(): Promise<void>;
}

export async function startBenchSite(o: BenchSiteOptions): Promise<BenchSite> {
  let origin = '';
  let sitemap = '';
  const server = createServer((req, res) => {
    const answer = () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = o.page(path);
      if (body !== null) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...o.pageHeaders });
        res.end(body);
      } else if (path === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`${o.robotsRules ?? 'User-agent: *\nAllow: /'}\nSitemap: ${origin}/sitemap.xml\n`);
      } else if (path === '/sitemap.xml') {
        sitemap ||= `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${o
          .sitemapPaths()
          .map((p) => `<url><loc>${origin}${p}</loc></url>`)
          .join('\n')}\n</urlset>\n`;
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(sitemap);
      } else if (path === '/favicon.ico') {
        res.writeHead(200, { 'content-type': 'image/x-icon' });
        res.end(Buffer.alloc(1150, 0));
      } else {
        res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<!doctype html><html lang="en"><head><title>Not found</title></head><body><h1>Not found</h1></body></html>',
        );
      }
    };
    if ((o.latencyMs ?? 0) > 0) setTimeout(answer, o.latencyMs);
    else answer();
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
