// https through the guarded connector: the connection goes to the checked IP while SNI, the
// certificate check and Host keep the name; HTTP/2 by ALPN; TLS failures are 'tls' errors.
// A throwaway self-signed certificate is made with openssl (skipped, with the reason, without it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { fetchPage } from '../../src/analyzer/fetch/index.js';
import { FetchError } from '../../src/analyzer/types.js';
import { makeCert } from '../helpers/tls-cert.js';

const PAGE =
  '<!doctype html><html><head><title>Secure</title><link rel="icon" href="/i.png"></head><body>ok</body></html>';
const lookup = async () => [{ address: '127.0.0.1', family: 4 }];

describe('https', () => {
  const made = makeCert('DNS:site.test');
  let h2: Http2SecureServer;
  let h1: HttpsServer;
  let h2Port = 0;
  let h1Port = 0;
  const seen: { servername: string | false; authority: string }[] = [];

  before(async () => {
    if (typeof made === 'string') return;
    h2 = createSecureServer({ ...made, allowHTTP1: true }, (req, res) => {
      seen.push({
        servername: (req.socket as TLSSocket).servername ?? false,
        authority: String(req.headers[':authority'] ?? req.headers.host),
      });
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    });
    h1 = createHttpsServer(made, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => h1.listen(0, '127.0.0.1', r));
    h2Port = (h2.address() as AddressInfo).port;
    h1Port = (h1.address() as AddressInfo).port;
  });
  after(async () => {
    if (typeof made === 'string') return;
    h1.closeAllConnections();
    await Promise.all([new Promise((r) => h2.close(r)), new Promise((r) => h1.close(r))]);
  });

  test('HTTP/2 over TLS to the checked IP, with SNI and :authority of the name', async (t) => {
    if (typeof made === 'string') return t.skip(made);
    const snap = await fetchPage(`https://site.test:${h2Port}/`, {
      allowPrivateHosts: true,
      lookup,
      tlsCa: made.cert,
    });
    assert.equal(snap.status, 200);
    assert.equal(snap.httpVersion, '2');
    assert.equal(snap.text, PAGE);
    assert.ok(snap.timings.tls_ms !== null && snap.timings.tls_ms > 0);
    assert.ok(snap.timings.connect_ms !== null);
    assert.ok(seen.length >= 1);
    assert.deepEqual(seen[0], { servername: 'site.test', authority: `site.test:${h2Port}` });
    assert.equal(snap.robots?.status, 404, 'site files go over https too');
    // every connection the fetch opened is closed when it returns (HTTP/2 sessions would stay open otherwise)
    await new Promise((r) => setTimeout(r, 50));
    const open = await new Promise<number>((resolve) => h2.getConnections((_e, n) => resolve(n)));
    assert.equal(open, 0);
  });

  test('HTTP/1.1 over TLS', async (t) => {
    if (typeof made === 'string') return t.skip(made);
    const snap = await fetchPage(`https://site.test:${h1Port}/`, {
      allowPrivateHosts: true,
      lookup,
      tlsCa: made.cert,
    });
    assert.equal(snap.httpVersion, '1.1');
    assert.equal(snap.status, 200);
  });

  test('an untrusted (self-signed) certificate and a name mismatch are tls errors', async (t) => {
    if (typeof made === 'string') return t.skip(made);
    await assert.rejects(
      fetchPage(`https://site.test:${h2Port}/`, { allowPrivateHosts: true, lookup }),
      (err: unknown) => {
        assert.ok(err instanceof FetchError);
        assert.equal(err.code, 'tls');
        assert.match(
          err.message,
          /^The secure \(TLS\) connection to site\.test failed: the certificate is self-signed and not trusted\.$/,
        );
        return true;
      },
    );
    await assert.rejects(
      fetchPage(`https://other.test:${h2Port}/`, { allowPrivateHosts: true, lookup, tlsCa: made.cert }),
      (err: unknown) => {
        assert.ok(err instanceof FetchError);
        assert.equal(err.code, 'tls');
        assert.equal(
          err.message,
          'The secure (TLS) connection to other.test failed: the certificate is not valid for other.test.',
        );
        return true;
      },
    );
  });
});
