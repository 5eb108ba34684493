// Connections kept between fetches (src/analyzer/fetch/pool.ts, docs/fetcher.md "Connections
// kept"): pages of one origin reuse their connections, bounded per origin, and every NEW
// connection goes through the address guard again — a refused address, a pool shared by two guard
// policies, and a name that resolves elsewhere by the next connection (DNS rebinding). A real
// HTTP server on 127.0.0.1 counts the TCP connections it accepts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { classifyAddress, ConnectionPool, fetchPage, fetchSiteFile } from '../../src/analyzer/fetch/index.js';
import { FetchError } from '../../src/analyzer/types.js';

interface CountingServer {
  port: number;
  origin: string;
  /** TCP connections accepted so far */
  connections: number;
  /** connections open now, and at most since the count was last reset */
  open: number;
  maxOpen: number;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  close(): Promise<void>;
}

const PAGE =
  '<!doctype html><html lang="en"><head><title>A page</title></head><body><h1>A page</h1></body></html>';
const okPage = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(PAGE);
};

async function countingServer(): Promise<CountingServer> {
  const s: CountingServer = {
    port: 0,
    origin: '',
    connections: 0,
    open: 0,
    maxOpen: 0,
    handler: okPage,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => s.handler(req, res));
  server.keepAliveTimeout = 10_000;
  server.on('connection', (socket: Socket) => {
    s.connections += 1;
    s.open += 1;
    s.maxOpen = Math.max(s.maxOpen, s.open);
    socket.once('close', () => (s.open -= 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.port = (server.address() as AddressInfo).port;
  s.origin = `http://127.0.0.1:${s.port}`;
  return s;
}

/** `n` page fetches, `c` at a time, each with its site files given (as a batch fetches a page). */
async function crawl(
  n: number,
  c: number,
  url: (i: number) => string,
  options: Parameters<typeof fetchPage>[1],
) {
  let next = 0;
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < n) {
        const i = next++;
        const snap = await fetchPage(url(i), { ...options, siteFiles: NO_SITE_FILES });
        statuses.push(snap.status);
      }
    }),
  );
  return statuses;
}
const NO_SITE_FILES = { robots: null, sitemap: null, notFoundProbe: null, favicon: null };

describe('connections kept between fetches', () => {
  let site: CountingServer;
  before(async () => {
    site = await countingServer();
  });
  after(() => site.close());

  test('a crawl of 60 pages, 4 at a time, opens at most 4 + 2 connections (without the pool: one a page)', async () => {
    site.handler = okPage;
    const pool = new ConnectionPool({ perOrigin: 4 + 2 });
    const before = site.connections;
    const statuses = await crawl(60, 4, (i) => `${site.origin}/p/${i}`, {
      allowPrivateHosts: true,
      connections: pool,
    });
    await pool.close();
    const opened = site.connections - before;
    console.log(`# 60 pages, 4 at a time, kept connections: ${opened} connections accepted`);
    assert.equal(statuses.length, 60);
    assert.ok(statuses.every((s) => s === 200));
    assert.ok(opened >= 1 && opened <= 6, `${opened} connections for 60 pages at 4 at a time`);

    const without = site.connections;
    await crawl(20, 4, (i) => `${site.origin}/q/${i}`, { allowPrivateHosts: true });
    const openedWithout = site.connections - without;
    console.log(`# 20 pages without the pool: ${openedWithout} connections accepted`);
    assert.equal(openedWithout, 20, 'each fetch of its own opens its own connection');
  });

  test('timings: a new connection has its connect time, a reused one 0', async () => {
    site.handler = okPage;
    const pool = new ConnectionPool({ perOrigin: 2 });
    try {
      const first = await fetchPage(`${site.origin}/t/1`, {
        allowPrivateHosts: true,
        connections: pool,
        siteFiles: NO_SITE_FILES,
      });
      const second = await fetchPage(`${site.origin}/t/2`, {
        allowPrivateHosts: true,
        connections: pool,
        siteFiles: NO_SITE_FILES,
      });
      assert.ok(first.timings.connect_ms !== null && first.timings.connect_ms >= 0);
      assert.equal(second.timings.connect_ms, 0, 'the second page reused the first one’s connection');
      assert.equal(first.timings.dns_ms, null, 'an IP literal needs no DNS');
      assert.equal(second.timings.dns_ms, null);
      // a name: its lookup time on the new connection, 0 when reused
      const lookup = async () => [{ address: '127.0.0.1', family: 4 }];
      const a = await fetchPage(`http://named.test:${site.port}/n/1`, {
        allowPrivateHosts: true,
        lookup,
        connections: pool,
        siteFiles: NO_SITE_FILES,
      });
      const b = await fetchPage(`http://named.test:${site.port}/n/2`, {
        allowPrivateHosts: true,
        lookup,
        connections: pool,
        siteFiles: NO_SITE_FILES,
      });
      assert.equal(typeof a.timings.dns_ms, 'number');
      assert.equal(b.timings.dns_ms, 0);
      assert.equal(b.timings.connect_ms, 0);
    } finally {
      await pool.close();
    }
  });

  test('at most perOrigin connections at once: the other requests wait for one', async () => {
    site.handler = (req, res) => setTimeout(() => okPage(req, res), 30);
    const pool = new ConnectionPool({ perOrigin: 2 });
    // the earlier tests' connections are closed by now
    await new Promise((r) => setTimeout(r, 50));
    const before = site.connections;
    const openBefore = site.open;
    site.maxOpen = site.open;
    try {
      const statuses = await crawl(12, 6, (i) => `${site.origin}/w/${i}`, {
        allowPrivateHosts: true,
        connections: pool,
      });
      assert.equal(statuses.length, 12);
      assert.ok(statuses.every((s) => s === 200));
      assert.ok(site.connections - before <= 2, `${site.connections - before} connections`);
      assert.ok(site.maxOpen - openBefore <= 2, `${site.maxOpen - openBefore} open at once`);
    } finally {
      await pool.close();
    }
  });

  test('the guard on: a loopback address is refused through the pool, no connection made', async () => {
    site.handler = okPage;
    const pool = new ConnectionPool({ perOrigin: 4 });
    const before = site.connections;
    try {
      await assert.rejects(
        fetchPage(`${site.origin}/`, { connections: pool, siteFiles: NO_SITE_FILES }),
        (err: unknown) =>
          err instanceof FetchError &&
          err.code === 'blocked_address' &&
          /The address 127\.0\.0\.1 is a loopback address/.test(err.message),
      );
      // PAGEGRADE_ALLOW_PRIVATE_HOSTS=1: the same page is fetched, over a connection of its own
      const ok = await fetchPage(`${site.origin}/`, {
        allowPrivateHosts: true,
        connections: pool,
        siteFiles: NO_SITE_FILES,
      });
      assert.equal(ok.status, 200);
      assert.equal(site.connections - before, 1);
      // a connection opened with the guard off is never lent to a fetch with the guard on
      await assert.rejects(
        fetchPage(`${site.origin}/again`, { connections: pool, siteFiles: NO_SITE_FILES }),
        (err: unknown) => err instanceof FetchError && err.code === 'blocked_address',
      );
      assert.equal(site.connections - before, 1, 'the refused fetches made no connection');
    } finally {
      await pool.close();
    }
  });

  test('DNS rebinding: a kept connection is reused; the next NEW connection is looked up and refused', async () => {
    site.handler = okPage;
    // Test seam: rebind.test first resolves to 127.0.0.1, treated as public; later to 10.0.0.7
    // (the real rules: private). Every other address keeps the real classification.
    let answer = '127.0.0.1';
    let lookups = 0;
    const seam = {
      lookup: async () => {
        lookups += 1;
        return [{ address: answer, family: 4 }];
      },
      classifyAddress: (ip: string) => (ip === '127.0.0.1' ? null : classifyAddress(ip)),
    };
    const pool = new ConnectionPool({ perOrigin: 2, keepAliveMs: 150 });
    const url = (p: string) => `http://rebind.test:${site.port}${p}`;
    try {
      const first = await fetchPage(url('/1'), { ...seam, connections: pool, siteFiles: NO_SITE_FILES });
      assert.equal(first.status, 200);
      assert.equal(lookups, 1);
      answer = '10.0.0.7';
      // the kept connection's peer was checked when it opened: reused, no new lookup
      const second = await fetchPage(url('/2'), { ...seam, connections: pool, siteFiles: NO_SITE_FILES });
      assert.equal(second.status, 200);
      assert.equal(lookups, 1);
      // idle past the keep-alive: the next request needs a new connection, looked up again
      await new Promise((r) => setTimeout(r, 400));
      await assert.rejects(
        fetchPage(url('/3'), { ...seam, connections: pool, siteFiles: NO_SITE_FILES }),
        (err: unknown) =>
          err instanceof FetchError &&
          err.code === 'blocked_address' &&
          /The host rebind\.test resolves to 10\.0\.0\.7, a private address/.test(err.message),
      );
      assert.equal(lookups, 2);
    } finally {
      await pool.close();
    }
  });

  test('DNS rebinding with the server closing each connection: every page is looked up; the changed answer is refused', async () => {
    site.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
      res.end(PAGE);
    };
    let answer = '127.0.0.1';
    const seam = {
      lookup: async () => [{ address: answer, family: 4 }],
      classifyAddress: (ip: string) => (ip === '127.0.0.1' ? null : classifyAddress(ip)),
    };
    const pool = new ConnectionPool({ perOrigin: 2 });
    try {
      const ok = await fetchPage(`http://rebind.test:${site.port}/a`, {
        ...seam,
        connections: pool,
        siteFiles: NO_SITE_FILES,
      });
      assert.equal(ok.status, 200);
      answer = '127.0.0.2';
      await assert.rejects(
        fetchPage(`http://rebind.test:${site.port}/b`, {
          ...seam,
          connections: pool,
          siteFiles: NO_SITE_FILES,
        }),
        (err: unknown) =>
          err instanceof FetchError &&
          err.code === 'blocked_address' &&
          /resolves to 127\.0\.0\.2, a loopback address/.test(err.message),
      );
    } finally {
      await pool.close();
    }
  });

  test('a kept connection the server dropped: the request is sent once more on a new one', async () => {
    // the server answers the first request of a connection and drops the connection at the second
    const served = new WeakMap<Socket, number>();
    site.handler = (req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n > 1) return req.socket.destroy();
      okPage(req, res);
    };
    const pool = new ConnectionPool({ perOrigin: 1 });
    const before = site.connections;
    try {
      const a = await fetchPage(`${site.origin}/r/1`, {
        allowPrivateHosts: true,
        connections: pool,
        siteFiles: NO_SITE_FILES,
      });
      const b = await fetchPage(`${site.origin}/r/2`, {
        allowPrivateHosts: true,
        connections: pool,
        siteFiles: NO_SITE_FILES,
      });
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.equal(site.connections - before, 2);
      assert.ok(b.timings.connect_ms !== null && b.timings.connect_ms >= 0);
    } finally {
      await pool.close();
    }
  });

  test('close(): idle connections end at once; a fetch after it still works, on a connection of its own', async () => {
    site.handler = okPage;
    const pool = new ConnectionPool({ perOrigin: 2 });
    await fetchPage(`${site.origin}/c/1`, {
      allowPrivateHosts: true,
      connections: pool,
      siteFiles: NO_SITE_FILES,
    });
    await pool.close();
    const after = await fetchPage(`${site.origin}/c/2`, {
      allowPrivateHosts: true,
      connections: pool,
      siteFiles: NO_SITE_FILES,
    });
    assert.equal(after.status, 200);
  });

  test("a batch's link checks (fetchSiteFile with the pool): 30 HEADs, a GET with its body and a redirect's hop on one connection (without the pool: one a request)", async () => {
    site.handler = (req, res) => {
      if (req.url === '/moved') {
        res.writeHead(301, { location: '/target' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(req.method === 'HEAD' ? undefined : '@font-face { src: url(a.woff2) }');
    };
    const ask = (path: string, method: 'HEAD' | 'GET', pool?: ConnectionPool) =>
      fetchSiteFile(`${site.origin}${path}`, {
        allowPrivateHosts: true,
        method,
        ...(method === 'GET' ? { cap: 1024 } : { cap: 0, headersOnly: true }),
        ...(pool ? { connections: pool } : {}),
      });
    const pool = new ConnectionPool({ perOrigin: 1 });
    const before = site.connections;
    try {
      for (let i = 0; i < 30; i++) assert.equal((await ask(`/h/${i}`, 'HEAD', pool)).status, 200);
      const sheet = await ask('/style.css', 'GET', pool);
      assert.equal(sheet.status, 200);
      assert.match(sheet.body, /@font-face/);
      const moved = await ask('/moved', 'HEAD', pool);
      assert.equal(moved.status, 200);
      assert.equal(moved.finalUrl, `${site.origin}/target`);
    } finally {
      await pool.close();
    }
    const pooled = site.connections - before;
    const unpooledFrom = site.connections;
    for (let i = 0; i < 10; i++) assert.equal((await ask(`/u/${i}`, 'HEAD')).status, 200);
    const unpooled = site.connections - unpooledFrom;
    console.log(`# link checks: 33 requests over ${pooled} connection(s) with the pool; 10 without it: ${unpooled}`);
    assert.equal(pooled, 1);
    assert.equal(unpooled, 10);
  });

  test("a batch's link checks through the pool still meet the address guard", async () => {
    const pool = new ConnectionPool({ perOrigin: 1 });
    const before = site.connections;
    try {
      const r = await fetchSiteFile(`${site.origin}/guarded`, {
        allowPrivateHosts: false,
        method: 'HEAD',
        cap: 0,
        headersOnly: true,
        connections: pool,
      });
      assert.equal(r.status, null);
      assert.match(r.error ?? '', /private or reserved/);
    } finally {
      await pool.close();
    }
    assert.equal(site.connections - before, 0, 'no connection to a refused address');
  });

  test('a server that sends a body with its HEAD answers: each check still gets its own status (the next one tried again on a connection of its own)', async () => {
    // raw HTTP/1.1: every answer to a HEAD carries 5 bytes of body it should not; /missing is a 404
    let accepted = 0;
    const raw = createNetServer((socket) => {
      accepted++;
      let buf = '';
      socket.on('data', (d) => {
        buf += d.toString('latin1');
        for (let end = buf.indexOf('\r\n\r\n'); end !== -1; end = buf.indexOf('\r\n\r\n')) {
          const head = buf.slice(0, end);
          buf = buf.slice(end + 4);
          const status = / \/missing /.test(head.split('\r\n')[0]!) ? '404 Not Found' : '200 OK';
          socket.write(`HTTP/1.1 ${status}\r\ncontent-length: 5\r\nconnection: keep-alive\r\n\r\nhello`);
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    const pool = new ConnectionPool({ perOrigin: 1 });
    const statuses: (number | null)[] = [];
    try {
      for (const path of ['/a', '/missing', '/b', '/missing', '/c'])
        statuses.push(
          (
            await fetchSiteFile(`${origin}${path}`, {
              allowPrivateHosts: true,
              method: 'HEAD',
              cap: 0,
              headersOnly: true,
              connections: pool,
            })
          ).status,
        );
    } finally {
      await pool.close();
      await new Promise<void>((r) => raw.close(() => r()));
    }
    console.log(`# HEAD answers with a body: statuses ${statuses.join(', ')} over ${accepted} connections`);
    assert.deepEqual(statuses, [200, 404, 200, 404, 200]);
  });
});
