// Fixture pages as files: test/fixtures/pages/<case>/ holds
//   page.html     the page (optional: a redirect needs none); `{{origin}}` and `{{port}}` are
//                 replaced by the case's own origin (http://<case>.test:<port>) and port
//   headers.json  { "status": 200, "headers": { … } } (optional; default 200 text/html)
//   robots.txt    served at /robots.txt (optional; else 404)
//   golden.json   the expected report, volatile fields masked (written by `npm run golden`)
// Each case is its own site, http://<case>.test:<port>/ — one server on 127.0.0.1 answers
// them all by Host header (testLookup resolves *.test to 127.0.0.1); any other path is a 404.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { analyze } from '../../src/analyzer/index.js';
import type { AuditReport } from '../../src/analyzer/types.js';
import { testLookup } from './config.js';

export const FIXTURE_PAGES_DIR = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));

/** The cases, in name order. */
export function fixtureCases(): string[] {
  return readdirSync(FIXTURE_PAGES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

const file = (name: string, f: string): string | null => {
  const path = `${FIXTURE_PAGES_DIR}${name}/${f}`;
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
};

export interface FixturePagesServer {
  port: number;
  server: Server;
  /** `http://<case>.test:<port>/` */
  url(name: string): string;
  close(): Promise<void>;
}

/** Serves every case of test/fixtures/pages on 127.0.0.1 (port 0: the OS picks). */
export async function startFixturePages(): Promise<FixturePagesServer> {
  let port = 0;
  const fill = (s: string, origin: string) => s.replaceAll('{{origin}}', origin).replaceAll('{{port}}', String(port));
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const name = host.endsWith('.test') ? host.slice(0, -'.test'.length) : '';
    const origin = `http://${host}:${port}`;
    const path = (req.url ?? '/').split('?')[0];
    const known = name !== '' && /^[a-z0-9-]+$/.test(name) && existsSync(`${FIXTURE_PAGES_DIR}${name}`);
    if (known && path === '/') {
      const spec = JSON.parse(fill(file(name, 'headers.json') ?? '{}', origin)) as {
        status?: number;
        headers?: Record<string, string>;
      };
      res.writeHead(spec.status ?? 200, spec.headers ?? { 'content-type': 'text/html; charset=utf-8' });
      res.end(fill(file(name, 'page.html') ?? '', origin));
      return;
    }
    const robots = known && path === '/robots.txt' ? file(name, 'robots.txt') : null;
    if (robots !== null) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(robots);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    server,
    url: (name) => `http://${name}.test:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The real analyzer's report of one case. */
export function auditCase(pages: FixturePagesServer, name: string): Promise<AuditReport> {
  return analyze(pages.url(name), { allowPrivateHosts: true, lookup: testLookup, timeoutMs: 10_000 });
}

const ISO_DATE = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
/** durations as messages write them: "0.08 s", "78 ms" */
const DURATION = /\b\d+(\.\d+)? ?(ms|s)\b/g;
/** checks whose value and message are a time measured on this run */
const TIMED_CHECKS = new Set(['load_time']);

/**
 * The report with what changes from run to run masked: dates, timings (`*_ms`, the page's
 * timings, the timed checks' value and message) and the fixture server's port.
 */
export function maskVolatile(report: AuditReport, port: number): unknown {
  const portRe = new RegExp(`:${port}\\b`, 'g');
  const walk = (v: unknown, key: string, path: string[]): unknown => {
    if (typeof v === 'string') {
      let s = v.replace(portRe, ':<port>').replace(ISO_DATE, '<date>');
      if (path[0] === 'results' && TIMED_CHECKS.has(path[1] ?? '')) s = s.replace(DURATION, '<duration>');
      return s;
    }
    if (typeof v === 'number') {
      if (key.endsWith('_ms') || path.includes('timings')) return '<ms>';
      if (path[0] === 'results' && TIMED_CHECKS.has(path[1] ?? '') && key === 'value') return '<ms>';
      return v;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, String(i), [...path, String(i)]));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, k, [...path, k]);
      return out;
    }
    return v;
  };
  return walk(report, '', []);
}

/** The committed golden report of a case (null when there is none yet). */
export function readGolden(name: string): unknown {
  const text = file(name, 'golden.json');
  return text === null ? null : JSON.parse(text);
}

/** The text a golden file holds: stable JSON, two-space indented, newline at the end. */
export const goldenText = (masked: unknown): string => `${JSON.stringify(masked, null, 2)}\n`;
