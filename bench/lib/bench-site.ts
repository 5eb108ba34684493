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

const PARAGRAPH =
  'Balcony gardens reward patience: a south-facing rail gives tomatoes the sun they need, while herbs such as mint and parsley prefer the morning light and a deep pot that keeps their roots cool through the afternoon. ';

/**
 * Page i of a generated site of `total` pages (bench/sites.ts, bench/crawl-peers.ts): a complete
 * article (~14 kB) linking to 20 others of /p/0 … /p/total-1.
 */
export function gardenPage(i: number, total: number): string {
  const links = Array.from({ length: 20 }, (_, k) => (i * 31 + k * 7 + 1) % total)
    .map((n) => `<li><a href="/p/${n}">Guide ${n}: containers, soil and light</a></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Balcony gardening guide ${i} — Loopback Gardens</title>
<meta name="description" content="Part ${i} of the balcony gardening guide: what to grow, which containers to pick, how much light and water each plant needs.">
<link rel="canonical" href="/p/${i}">
<link rel="icon" href="/favicon.ico">
</head><body>
<header><nav><a href="/">Home</a> <a href="/p/0">Start</a></nav></header>
<main><h1>Balcony gardening guide, part ${i}</h1>
${Array.from({ length: 40 }, (_, k) => `<p>${PARAGRAPH}(${i}.${k})</p>`).join('\n')}
<img src="/favicon.ico" alt="A small logo" width="16" height="16">
<h2>Read next</h2><ul>${links}</ul></main>
<footer><p>Loopback Gardens</p></footer>
</body></html>`;
}
