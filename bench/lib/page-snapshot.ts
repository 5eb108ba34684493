// A saved corpus page as the analyzer gets it after a fetch (a PageSnapshot): the page's bytes
// under https://www.example.com/<name>/, with realistic headers, robots.txt, a sitemap, a 404
// probe and a favicon — no network. Used by bench/analyze.ts and bench/extract.ts.
import type { PageSnapshot } from '../../src/analyzer/types.js';

export function snapshotOf(name: string, body: Buffer): PageSnapshot {
  const text = new TextDecoder('utf-8').decode(body);
  const url = `https://www.example.com/${name.replace(/\.html$/, '')}/`;
  return {
    url,
    finalUrl: url,
    status: 200,
    httpVersion: '2',
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-encoding': 'br',
      server: 'nginx',
      'cache-control': 'max-age=300',
      'strict-transport-security': 'max-age=31536000',
    },
    redirects: [],
    timings: { dns_ms: 5, connect_ms: 10, tls_ms: 20, ttfb_ms: 120, total_ms: 300 },
    transferBytes: Math.round(body.length / 5),
    body,
    text,
    charset: { name: 'utf-8', source: 'header' },
    contentType: 'text/html',
    robots: {
      url: 'https://www.example.com/robots.txt',
      finalUrl: 'https://www.example.com/robots.txt',
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /admin/\nSitemap: https://www.example.com/sitemap.xml\n',
      durationMs: 10,
    },
    sitemap: {
      url: 'https://www.example.com/sitemap.xml',
      finalUrl: 'https://www.example.com/sitemap.xml',
      status: 200,
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${url}</loc></url></urlset>`,
      durationMs: 10,
    },
    notFoundProbe: {
      url: 'https://www.example.com/pagegrade-probe',
      finalUrl: 'https://www.example.com/pagegrade-probe',
      status: 404,
      headers: { 'content-type': 'text/html' },
      body: '<h1>Not found</h1>',
      durationMs: 10,
    },
    favicon: {
      url: 'https://www.example.com/favicon.ico',
      finalUrl: 'https://www.example.com/favicon.ico',
      status: 200,
      headers: { 'content-type': 'image/x-icon' },
      body: '',
      durationMs: 10,
    },
  };
}
